// An application line that looks like TFLM's case start, then a failure.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Real) {
  MicroPrintf("Testing Ghost");
  TF_LITE_MICRO_EXPECT_EQ(3, 4);
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
