// Host only (on MCU boards the case does nothing): the second case sends itself SIGTERM. That is
// the test's own crash in that case (not an infrastructure error: nothing stopped the run from
// outside); the third case is not reached.
#include "micro_runtime/micro_test.h"

#if defined(__linux__)
#include <signal.h>
#endif

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Before) {}

TF_LITE_MICRO_TEST(KillsItself) {
#if defined(__linux__)
  raise(SIGTERM);
#endif
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
