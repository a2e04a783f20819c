// Unit tests of src/smoothing.cc, run on every board given with --board.
#include "micro_runtime/micro_test.h"
#include "smoothing.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FirstSampleIsTakenAsIs) {
  Smoother smoother(16384);  // alpha 0.5
  TF_LITE_MICRO_EXPECT_EQ(1000, smoother.Update(1000));
}

TF_LITE_MICRO_TEST(HalfWayWithAlphaOneHalf) {
  Smoother smoother(16384);
  smoother.Update(0);
  TF_LITE_MICRO_EXPECT_EQ(500, smoother.Update(1000));
  TF_LITE_MICRO_EXPECT_EQ(750, smoother.Update(1000));
}

TF_LITE_MICRO_TEST(ConvergesToAConstantInput) {
  Smoother smoother(8192);  // alpha 0.25
  smoother.Update(-2000);
  for (int i = 0; i < 200; ++i) smoother.Update(3000);
  TF_LITE_MICRO_EXPECT_NEAR(3000, smoother.value(), 1);
}

TF_LITE_MICRO_TEST(QuantizeSaturates) {
  TF_LITE_MICRO_EXPECT_EQ(127, QuantizeQ15(32767, 0.001f, 0));
  TF_LITE_MICRO_EXPECT_EQ(-128, QuantizeQ15(-32768, 0.001f, 0));
  TF_LITE_MICRO_EXPECT_EQ(-3, QuantizeQ15(0, 0.5f, -3));
}

TF_LITE_MICRO_TESTS_END
