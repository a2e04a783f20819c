// PRELU kernel tests. Float expectations are hand-computed; int8 and int16
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running a one-op PRELU model with a constant per-channel alpha.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatPerChannelAlpha) {
  const int32_t shape[] = {3, 1, 2, 3};
  const int32_t alpha_shape[] = {1, 3};
  float input[] = {-2, -2, -2, 0, 4, -0.5f};
  float alpha[] = {0.5f, -1, 0};
  float out[6] = {0};
  const float expected[] = {-1, 2, 0, 0, 4, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunBinaryKernel(Register_PRELU(), CreateTensor(input, IntArrayFromInts(shape)),
                                                     CreateTensor(alpha, IntArrayFromInts(alpha_shape), true),
                                                     CreateTensor(out, IntArrayFromInts(shape)), nullptr));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(Int8PerChannelAlpha) {
  const int32_t shape[] = {4, 1, 2, 2, 3};
  const int32_t alpha_shape[] = {1, 3};
  int8_t input[] = {-128, -60, -5, 0, 5, 60, 127, -100, 30, -1, 90, -77};
  int8_t alpha[] = {-100, 50, 127};
  int8_t out[12] = {0};
  const int8_t expected[] = {61, -24, -13, -5, -4, 69, 127, -36, 29, -5, 109, -62};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          RunBinaryKernel(Register_PRELU(), CreateQuantizedTensor(input, IntArrayFromInts(shape), 0.04f, 3),
                                          CreateQuantizedTensor(alpha, IntArrayFromInts(alpha_shape), 0.004f, -2, true),
                                          CreateQuantizedTensor(out, IntArrayFromInts(shape), 0.03f, -7), nullptr));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

// TFLM's int16 form: int16 input and output, int8 alpha with a zero point.
TF_LITE_MICRO_TEST(Int16InputInt8Alpha) {
  const int32_t shape[] = {4, 1, 2, 2, 3};
  const int32_t alpha_shape[] = {1, 3};
  int16_t input[] = {-32768, -20000, -5, 0, 5, 20000, 32767, -1, 300, -1234, 9000, -32767};
  int8_t alpha[] = {-100, 50, 127};
  int16_t out[12] = {0};
  const int16_t expected[] = {17127, -5547, -3, 0, 7, 26667, 32767, 0, 400, 645, 12000, -22544};
  TfLiteTensor tensors[] = {kernel_cases::Int16Tensor(input, shape, 0.0004f),
                            CreateQuantizedTensor(alpha, IntArrayFromInts(alpha_shape), 0.004f, -2, true),
                            kernel_cases::Int16Tensor(out, shape, 0.0003f)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PRELU(), tensors, 2));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
  // int16 alpha (TFLM takes only int8 with int16) and int16 zero points other than 0 are refused.
  int16_t alpha16[] = {-100, 50, 127};
  tensors[1] = kernel_cases::Int16Tensor(alpha16, alpha_shape, 0.004f);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PRELU(), tensors, 2));
  tensors[1] = CreateQuantizedTensor(alpha, IntArrayFromInts(alpha_shape), 0.004f, -2, true);
  tensors[2].params.zero_point = 3;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PRELU(), tensors, 2));
  tensors[2].params.zero_point = 0;
  float f[12] = {0};
  tensors[2] = CreateTensor(f, IntArrayFromInts(shape));  // output type unlike the input's
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PRELU(), tensors, 2));
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 3};
  const int32_t two[] = {1, 2};
  float f[3] = {0};
  int8_t q[3] = {0};
  // alpha that does not broadcast, mixed types.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_PRELU(), CreateTensor(f, IntArrayFromInts(shape)),
                                                        CreateTensor(f, IntArrayFromInts(two)),
                                                        CreateTensor(f, IntArrayFromInts(shape)), nullptr));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_PRELU(), CreateTensor(f, IntArrayFromInts(shape)),
                                                        CreateQuantizedTensor(q, IntArrayFromInts(shape), 0.1f, 0),
                                                        CreateTensor(f, IntArrayFromInts(shape)), nullptr));
}

TF_LITE_MICRO_TESTS_END
