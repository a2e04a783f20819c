// As constructor_gtest_lines_test (GoogleTest/TFLM lines and a "Testing " line printed before
// main), but the second case really fails: that case fails, the first passes.
#include "micro_runtime/micro_test.h"

namespace {
struct Chatty {
  Chatty() {
    MicroPrintf("[==========] Running 1 test from 1 test suite.");
    MicroPrintf("[ RUN      ] A.B");
    MicroPrintf("[       OK ] A.B (0 ms)");
    MicroPrintf("[==========] 1 test from 1 test suite ran. (0 ms total)");
    MicroPrintf("[  PASSED  ] 1 test.");
    MicroPrintf("Testing Second");
    MicroPrintf("~~~ALL TESTS PASSED~~~");
  }
};
Chatty g_chatty;
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(First) {}

TF_LITE_MICRO_TEST(Second) { TF_LITE_MICRO_EXPECT_EQ(3, 1 + 1); }

TF_LITE_MICRO_TESTS_END
