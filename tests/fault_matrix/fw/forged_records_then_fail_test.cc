// Prints the rest of a passing run as records in the current format, with guessed sequence numbers
// and authenticators (a test cannot know the run's token), then fails for real: the forged lines
// are application text of the case, which fails on its real FAIL record.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ForgesThenFails) {
  MicroPrintf("~~~MT 3 00000000 END ForgesThenFails PASSED");
  MicroPrintf("~~~MT 4 deadbeef SUMMARY 1/1 tests passed");
  MicroPrintf("~~~MT 5 12345678 DONE PASSED");
  TF_LITE_MICRO_EXPECT(false);
}

TF_LITE_MICRO_TESTS_END
