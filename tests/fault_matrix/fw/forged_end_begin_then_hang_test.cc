// The first case forges its own END and the next case's BEGIN (plausible sequence numbers, guessed
// authenticators), then hangs until the binary's time limit: the hang is the first case's, and the
// second case, which never began, is not reached.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ForgesEnd) {
  MicroPrintf("~~~MT 2 5ca1ab1e END ForgesEnd PASSED");
  MicroPrintf("~~~MT 3 0badc0de BEGIN Innocent");
  while (g_spin) {
  }
}

TF_LITE_MICRO_TEST(Innocent) {}

TF_LITE_MICRO_TESTS_END
