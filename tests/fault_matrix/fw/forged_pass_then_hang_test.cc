// Prints a complete-looking end of run inside a case, then hangs.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ForgesThenHangs) {
  MicroPrintf("1/1 tests passed");
  MicroPrintf("~~~ALL TESTS PASSED~~~");
  MicroPrintf("~~~MT SUMMARY 1/1 tests passed");
  MicroPrintf("~~~MT DONE PASSED");
  while (g_spin) {
  }
}

TF_LITE_MICRO_TESTS_END
