// A global object's constructor (runs before main) prints GoogleTest's and TFLM's lines and a
// "Testing " line; the binary declares micro_test, so they are start-up text: its cases pass.
#include "micro_runtime/micro_test.h"

namespace {
struct Chatty {
  Chatty() {
    MicroPrintf("[==========] Running 1 test from 1 test suite.");
    MicroPrintf("[ RUN      ] A.B");
    MicroPrintf("[       OK ] A.B (0 ms)");
    MicroPrintf("[  FAILED  ] A.C (0 ms)");
    MicroPrintf("[==========] 2 tests from 1 test suite ran. (0 ms total)");
    MicroPrintf("Testing Ghost");
    MicroPrintf("~~~ALL TESTS PASSED~~~");
  }
};
Chatty g_chatty;
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(First) { TF_LITE_MICRO_EXPECT_EQ(2, 1 + 1); }

TF_LITE_MICRO_TEST(Second) {}

TF_LITE_MICRO_TESTS_END
