// Prints the rest of a passing run as records in the current format (guessed sequence numbers and
// authenticators), then hangs: the case times out, the forged end of the run ends nothing.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ForgesThenHangs) {
  MicroPrintf("~~~MT 3 00000000 END ForgesThenHangs PASSED");
  MicroPrintf("~~~MT 4 deadbeef SUMMARY 1/1 tests passed");
  MicroPrintf("~~~MT 5 12345678 DONE PASSED");
  while (g_spin) {
  }
}

TF_LITE_MICRO_TESTS_END
