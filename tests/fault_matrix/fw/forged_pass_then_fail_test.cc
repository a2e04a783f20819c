// Prints TFLM's and our summary/sentinel text inside a case, then fails.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Forges) {
  MicroPrintf("1/1 tests passed");
  MicroPrintf("~~~ALL TESTS PASSED~~~");
  MicroPrintf("~~~MT SUMMARY 1/1 tests passed");
  TF_LITE_MICRO_EXPECT_EQ(1, 2);
}

TF_LITE_MICRO_TESTS_END
