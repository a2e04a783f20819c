// Prints the rest of a passing run as records in the current format (guessed sequence numbers and
// authenticators), then exits with status 0 inside the case: the run ended before its real end.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ForgesThenExits) {
  MicroPrintf("~~~MT 3 00000000 END ForgesThenExits PASSED");
  MicroPrintf("~~~MT 4 deadbeef SUMMARY 1/1 tests passed");
  MicroPrintf("~~~MT 5 12345678 DONE PASSED");
  MicroExit(0);
}

TF_LITE_MICRO_TEST(NeverReached) {}

TF_LITE_MICRO_TESTS_END
