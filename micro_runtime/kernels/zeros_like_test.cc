// ZEROS_LIKE kernel tests.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatAndInt32) {
  const int32_t shape[] = {2, 2, 2};
  float input[4] = {1, -2, 3, -4};
  float output[4] = {9, 9, 9, 9};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_ZEROS_LIKE(), CreateTensor(input, IntArrayFromInts(shape)),
                                                    CreateTensor(output, IntArrayFromInts(shape))));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(0.0f, output[i]);
  int32_t iinput[4] = {1, 2, 3, 4};
  int32_t ioutput[4] = {9, 9, 9, 9};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_ZEROS_LIKE(), CreateTensor(iinput, IntArrayFromInts(shape)),
                                                    CreateTensor(ioutput, IntArrayFromInts(shape))));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(0, ioutput[i]);
}

TF_LITE_MICRO_TEST(OtherShapeOrTypeFailsInPrepare) {
  const int32_t shape[] = {2, 2, 2};
  const int32_t other[] = {1, 4};
  float input[4] = {0};
  float output[4] = {0};
  int32_t ioutput[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ZEROS_LIKE(), CreateTensor(input, IntArrayFromInts(shape)),
                                                       CreateTensor(output, IntArrayFromInts(other))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ZEROS_LIKE(), CreateTensor(input, IntArrayFromInts(shape)),
                                                       CreateTensor(ioutput, IntArrayFromInts(shape))));
}

TF_LITE_MICRO_TESTS_END
