// L2_NORMALIZATION kernel tests. float32 expectations are hand-computed;
// int8 expectations come from the TFLM reference interpreter (tflite-micro
// Python package) running the same one-op models. The fixed-point inverse
// square root is checked against 1 / sqrt(x) over the whole int32 range.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatRowsAndEpsilon) {
  const int32_t shape[] = {2, 3, 2};
  // A 3-4-5 row, a zero row (0 / epsilon) and a row whose norm 1e-7 is below TFLite's epsilon 1e-6.
  float input[] = {3, 4, 0, 0, 1e-7f, 0};
  float out[6] = {0};
  const float expected[] = {0.6f, 0.8f, 0, 0, 0.1f, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_L2_NORMALIZATION(),
                                                    CreateTensor(input, IntArrayFromInts(shape)),
                                                    CreateTensor(out, IntArrayFromInts(shape))));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], out[i], 1e-7f);
}

// 5-D (TFLM stops at 4-D): still along the last dimension.
TF_LITE_MICRO_TEST(FloatFiveDimensions) {
  const int32_t shape[] = {5, 1, 1, 2, 1, 3};
  float input[] = {1, 2, 2, -2, 0, 0};
  float out[6] = {0};
  const float expected[] = {1.0f / 3, 2.0f / 3, 2.0f / 3, -1, 0, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_L2_NORMALIZATION(),
                                                    CreateTensor(input, IntArrayFromInts(shape)),
                                                    CreateTensor(out, IntArrayFromInts(shape))));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], out[i], 1e-7f);
}

// Rows at the zero point (a zero sum), with a single step either side (a sum of 1: the output saturates), and
// the extremes of the range.
TF_LITE_MICRO_TEST(Int8) {
  const int32_t shape[] = {2, 4, 3};
  int8_t input[] = {5, 5, 5, 6, 5, 5, 4, 5, 5, -128, 127, 30};
  int8_t out[12] = {0};
  const int8_t expected[] = {0, 0, 0, 127, 0, 0, -128, 0, 0, -93, 86, 18};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_L2_NORMALIZATION(),
                                                    CreateQuantizedTensor(input, dims, 0.02f, 5),
                                                    CreateQuantizedTensor(out, dims, 1.0f / 128, 0)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);

  const int32_t rows[] = {2, 2, 5};
  int8_t input2[] = {-128, -128, -128, -128, -128, 127, -100, 0, 64, -3};
  int8_t out2[10] = {0};
  const int8_t expected2[] = {0, 0, 0, 0, 0, 89, 10, 45, 67, 44};
  const TfLiteIntArray* rows_dims = IntArrayFromInts(rows);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_L2_NORMALIZATION(),
                                                    CreateQuantizedTensor(input2, rows_dims, 0.1f, -128),
                                                    CreateQuantizedTensor(out2, rows_dims, 1.0f / 128, 0)));
  for (int i = 0; i < 10; ++i) TF_LITE_MICRO_EXPECT_EQ(expected2[i], out2[i]);
}

// TFLite's inverse square root (Newton-Raphson in fixed point) for every size of sum an int8 row can reach,
// including sums of 2^29 and more, which are first divided by powers of four.
TF_LITE_MICRO_TEST(InverseSqrtMultiplierIsCloseToOneOverSqrt) {
  const int32_t values[] = {2, 3, 7, 100, 65025, 1 << 20, (1 << 27) + 12345, (1 << 29) - 1, 1 << 29, 1 << 30,
                            (1 << 30) + 999999, INT32_MAX};
  for (int32_t x : values) {
    int32_t multiplier;
    int shift;
    micro_runtime::InverseSqrtMultiplier(x, &multiplier, &shift);
    TF_LITE_MICRO_EXPECT(shift <= 0);
    double value = static_cast<double>(multiplier);
    for (int i = 0; i < 31 - shift; ++i) value /= 2;  // multiplier * 2^(shift - 31)
    // value ~ 1 / sqrt(x): value^2 * x ~ 1 (a factor of 2 in the shift would give 4 or 1/4).
    TF_LITE_MICRO_EXPECT_NEAR(1.0, value * value * static_cast<double>(x), 1e-5);
  }
  int32_t multiplier;
  int shift;
  micro_runtime::InverseSqrtMultiplier(0, &multiplier, &shift);  // TFLite treats 0 as 1
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, multiplier);
  TF_LITE_MICRO_EXPECT_EQ(0, shift);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {2, 1, 4};
  int8_t input[4] = {0};
  int8_t out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  const TfLiteRegistration op = Register_L2_NORMALIZATION();
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(op, CreateQuantizedTensor(input, dims, 0.1f, 0),
                                                    CreateQuantizedTensor(out, dims, 1.0f / 128, 0)));
  // The int8 output quantization is fixed (1/128, 0).
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(op, CreateQuantizedTensor(input, dims, 0.1f, 0),
                                                       CreateQuantizedTensor(out, dims, 1.0f / 64, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(op, CreateQuantizedTensor(input, dims, 0.1f, 0),
                                                       CreateQuantizedTensor(out, dims, 1.0f / 128, 1)));
  // No fused activation.
  const TfLiteL2NormParams relu = {kTfLiteActRelu};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(op, CreateQuantizedTensor(input, dims, 0.1f, 0),
                                                       CreateQuantizedTensor(out, dims, 1.0f / 128, 0), &relu));
  // int16: TFLM has no int16 L2_NORMALIZATION.
  int16_t in16[4] = {0};
  int16_t out16[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(op, CreateQuantizedTensor(in16, dims, 0.1f, 0),
                                                       CreateQuantizedTensor(out16, dims, 1.0f / 128, 0)));
  // 33026 squares of 255 (zero point 127) overflow the int32 sum; 33025 fit. Prepare only: it reads no data.
  const int32_t long_row[] = {2, 1, 33026};
  const int32_t longest_row[] = {2, 1, 33025};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {1, 1};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(long_row), 0.1f, 127),
                            CreateQuantizedTensor(out, IntArrayFromInts(long_row), 1.0f / 128, 0)};
  {
    KernelRunner runner(op, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  tensors[0].dims = IntArrayFromInts(longest_row);
  tensors[1].dims = tensors[0].dims;
  {
    KernelRunner runner(op, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs), nullptr);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  }
}

TF_LITE_MICRO_TESTS_END
