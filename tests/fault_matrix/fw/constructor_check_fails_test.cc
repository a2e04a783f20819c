// A check fails in start-up code (a global object's constructor, before main and before the START
// record), then 300 lines of log push it out of any log tail, then every case passes: the run fails
// (a failure outside any test), its cases pass.
#include "micro_runtime/micro_test.h"

namespace {
struct StartUp {
  StartUp() {
    TF_LITE_MICRO_EXPECT(false);
    for (int i = 0; i < 300; ++i) {
      MicroPrintf("start-up log line %d", i);
    }
  }
};
StartUp g_start_up;
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(First) {}

TF_LITE_MICRO_TEST(Second) {}

TF_LITE_MICRO_TESTS_END
