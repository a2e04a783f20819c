// CONCATENATION kernel tests: expected outputs are the inputs joined by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatThreeInputsMiddleAxis) {
  const int32_t a_shape[] = {3, 2, 1, 2};
  const int32_t b_shape[] = {3, 2, 2, 2};
  const int32_t out_shape[] = {3, 2, 3, 2};
  float a[] = {1, 2, 3, 4};
  float b[] = {10, 11, 12, 13, 14, 15, 16, 17};
  float output[12];
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(a_shape)), CreateTensor(b, IntArrayFromInts(b_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TfLiteConcatenationParams params = {-2, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  const float expected[] = {1, 2, 10, 11, 12, 13, 3, 4, 14, 15, 16, 17};
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int32AndInt8LastAxis) {
  const int32_t a_shape[] = {2, 2, 1};
  const int32_t b_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {2, 2, 3};
  int32_t a[] = {-7, 8};
  int32_t b[] = {100000, -100000, 5, 6};
  int32_t output[6];
  TfLiteConcatenationParams params = {1, kTfLiteActNone};
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(a_shape)), CreateTensor(b, IntArrayFromInts(b_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  const int32_t expected[] = {-7, 100000, -100000, 8, 5, 6};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);

  int8_t qa[] = {-128, 127};
  int8_t qb[] = {1, 2, 3, 4};
  int8_t qout[6];
  TfLiteTensor quantized[] = {CreateQuantizedTensor(qa, IntArrayFromInts(a_shape), 0.5f, 3),
                              CreateQuantizedTensor(qb, IntArrayFromInts(b_shape), 0.5f, 3),
                              CreateQuantizedTensor(qout, IntArrayFromInts(out_shape), 0.5f, 3)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_CONCATENATION(), quantized, 2, &params));
  const int8_t qexpected[] = {-128, 1, 2, 127, 3, 4};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(qexpected[i], qout[i]);
  // Like TFLM: int8 inputs with another quantization than the output are refused, not requantized.
  quantized[1].params.zero_point = 4;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), quantized, 2, &params));
}

TF_LITE_MICRO_TEST(BadShapesAxesAndActivationFailInPrepare) {
  const int32_t a_shape[] = {2, 2, 1};
  const int32_t b_shape[] = {2, 3, 2};
  const int32_t out_shape[] = {2, 2, 3};
  float a[2] = {0};
  float b[6] = {0};
  float output[6] = {0};
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(a_shape)), CreateTensor(b, IntArrayFromInts(b_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TfLiteConcatenationParams params = {1, kTfLiteActNone};
  // Input 1 has 3 rows where the output has 2.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  const int32_t b_ok[] = {2, 2, 2};
  tensors[1] = CreateTensor(b, IntArrayFromInts(b_ok));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  params.axis = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  params.axis = 0;  // the axis sizes do not add up
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  params = {1, kTfLiteActRelu};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_CONCATENATION(), tensors, 2, nullptr));
}

TF_LITE_MICRO_TESTS_END
