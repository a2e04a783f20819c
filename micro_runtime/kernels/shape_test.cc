// SHAPE kernel tests.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(DimensionsOfAnyInput) {
  const int32_t in_shape[] = {4, 2, 1, 3, 1};
  const int32_t out_shape[] = {1, 4};
  int8_t input[6] = {0};
  int32_t output[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_SHAPE(), CreateTensor(input, IntArrayFromInts(in_shape)),
                                                    CreateTensor(output, IntArrayFromInts(out_shape))));
  const int32_t expected[] = {2, 1, 3, 1};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(WrongOutputFailsInPrepare) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t three[] = {1, 3};
  const int32_t two[] = {1, 2};
  float input[6] = {0};
  int32_t output[3] = {0};
  float float_output[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_SHAPE(), CreateTensor(input, IntArrayFromInts(in_shape)),
                                                       CreateTensor(output, IntArrayFromInts(three))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_SHAPE(), CreateTensor(input, IntArrayFromInts(in_shape)),
                                                       CreateTensor(float_output, IntArrayFromInts(two))));
}

TF_LITE_MICRO_TESTS_END
