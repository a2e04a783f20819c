// TRANSPOSE_CONV kernel tests, hand-computed: every input pixel adds
// input * filter to a filter-sized window of the output at (y * stride - pad,
// x * stride - pad). Input x = [[1, 2], [3, 4]] (1x2x2x1), filter
// f = [[1, 2, 3], [4, 5, 6], [7, 8, 9]] (one 3x3 kernel, IC = 1):
//
// stride 2, output 4x4 (padding 0 for SAME and VALID):
//   1  2  5  4       x00 * f at rows 0-2, cols 0-2; x01 * f at cols 2-4 (col 4 dropped);
//   4  5 14 10       x10 * f at rows 2-4 (row 4 dropped); x11 * f at rows 2-3, cols 2-3
//  10 14 36 24
//  12 15 34 20
// stride 2, output 3x3, SAME (padding 1, windows start at -1):
//   5 14 10
//  14 36 24
//  15 34 20
// Output channel 1 uses -f. int8 and int16 runs quantize the same numbers.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kInputs[] = {4, 0, 1, 2, 3};
const int32_t kInputsNoBias[] = {3, 0, 1, 2};
const int32_t kInputsBiasMinusOne[] = {4, 0, 1, 2, -1};
const int32_t kOutputs[] = {1, 4};

constexpr float kOut4x4[] = {1, 2, 5, 4, 4, 5, 14, 10, 10, 14, 36, 24, 12, 15, 34, 20};
constexpr float kOut3x3[] = {5, 14, 10, 14, 36, 24, 15, 34, 20};

const int32_t kInputDims[] = {4, 1, 2, 2, 1};
const int32_t kFilterDims[] = {4, 2, 3, 3, 1};
const int32_t kBiasDims[] = {1, 2};
const int32_t kShapeDims[] = {1, 4};

int32_t g_shape[4];
int32_t g_output_dims[5];

// Output [1, size, size, 2]; the output_shape tensor says the same unless `wrong_shape`.
void SetOutput(int size, bool wrong_shape = false) {
  g_shape[0] = 1, g_shape[1] = size, g_shape[2] = size + (wrong_shape ? 1 : 0), g_shape[3] = 2;
  g_output_dims[0] = 4, g_output_dims[1] = 1, g_output_dims[2] = size, g_output_dims[3] = size,
  g_output_dims[4] = 2;
}

TfLiteTensor ShapeTensor(bool constant) { return CreateTensor(g_shape, IntArrayFromInts(kShapeDims), constant); }

// Expected channel c (0: f, 1: -f) of output pixel i, plus the bias, through the activation.
float Expected(const float* reference, int i, int c, float bias, bool relu) {
  const float v = (c == 0 ? reference[i] : -reference[i]) + bias;
  return relu && v < 0.0f ? 0.0f : v;
}

// ---- float32
float g_input[] = {1, 2, 3, 4};
float g_filter[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5, -6, -7, -8, -9};
float g_bias[] = {1.0f, 0.5f};
float g_output[32];

TfLiteStatus RunFloat(int size, TfLitePadding padding, TfLiteFusedActivation activation, const int32_t* inputs,
                      bool constant_shape = true, bool wrong_shape = false) {
  SetOutput(size, wrong_shape);
  TfLiteTensor tensors[5] = {
      ShapeTensor(constant_shape),
      CreateTensor(g_filter, IntArrayFromInts(kFilterDims), true),
      CreateTensor(g_input, IntArrayFromInts(kInputDims)),
      CreateTensor(g_bias, IntArrayFromInts(kBiasDims), true),
      CreateTensor(g_output, IntArrayFromInts(g_output_dims)),
  };
  const TfLiteTransposeConvParams params = {padding, 2, 2, activation};
  return RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(inputs), IntArrayFromInts(kOutputs),
                   &params);
}

void ExpectFloat(int size, const float* reference, bool with_bias, bool relu) {
  float expected[32];
  for (int i = 0; i < size * size; ++i) {
    for (int c = 0; c < 2; ++c) expected[2 * i + c] = Expected(reference, i, c, with_bias ? g_bias[c] : 0.0f, relu);
  }
  ExpectFloatsNear(expected, g_output, 2 * size * size, 0.0f, 0.0f);
}

// ---- int8: input scale 0.5 zero point 1 (q = 2x + 1); filter per channel: channel 0 scale 1 (q = f), channel 1
// scale 0.5 (q = -2f); bias scales 0.5 and 0.25 (q = 2, 2 for 1.0 and 0.5); output scale 1, zero point -5.
// Multipliers 0.5 and 0.25 of accumulators 2 * value and 4 * value: exact.
int8_t g_q_input[] = {3, 5, 7, 9};
int8_t g_q_filter[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -2, -4, -6, -8, -10, -12, -14, -16, -18};
int32_t g_q_bias[] = {2, 2};
int8_t g_q_output[32];
float g_filter_scales[] = {2, 1.0f, 0.5f};

// The per-channel filter scales as a TfLiteFloatArray (converted in place once).
const TfLiteFloatArray* FilterScales() {
  static const TfLiteFloatArray* scales = FloatArrayFromFloats(g_filter_scales);
  return scales;
}

TfLiteStatus RunInt8(int size, TfLitePadding padding, TfLiteFusedActivation activation) {
  SetOutput(size);
  TfLiteTensor bias = CreateTensor(g_q_bias, IntArrayFromInts(kBiasDims), true);
  const TfLiteFloatArray* scales = FilterScales();
  TfLiteTensor tensors[5] = {
      ShapeTensor(true),
      CreatePerChannelQuantizedTensor(g_q_filter, IntArrayFromInts(kFilterDims), scales, 0),
      CreateQuantizedTensor(g_q_input, IntArrayFromInts(kInputDims), 0.5f, 1),
      bias,
      CreateQuantizedTensor(g_q_output, IntArrayFromInts(g_output_dims), 1.0f, -5),
  };
  const TfLiteTransposeConvParams params = {padding, 2, 2, activation};
  return RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                   &params);
}

void ExpectInt8(int size, const float* reference, bool relu) {
  int8_t expected[32];
  const float bias[] = {1.0f, 0.5f};
  for (int i = 0; i < size * size; ++i) {
    for (int c = 0; c < 2; ++c) {
      // Output scale 1: the value rounded (half away from zero), plus the zero point.
      const float v = Expected(reference, i, c, bias[c], relu);
      const int rounded = static_cast<int>(v >= 0 ? v + 0.5f : v - 0.5f);
      expected[2 * i + c] = static_cast<int8_t>(rounded - 5);
    }
  }
  ExpectIntsNear(expected, g_q_output, 2 * size * size);
}

// ---- int16 (16x8): input scale 0.5 (q = 2x), filter as int8 channel 0 / 1, int64 bias (q = 2 for 1.0 at scale
// 0.5, 2 for 0.5 at 0.25), output scale 0.25 (q = 4 * value). Multipliers 2 and 1: exact.
int16_t g_w_input[] = {2, 4, 6, 8};
int64_t g_w_bias[] = {2, 2};
int16_t g_w_output[32];

TfLiteStatus RunInt16(int size, TfLitePadding padding, bool int32_bias = false) {
  SetOutput(size);
  static int32_t bias32[] = {2, 2};
  const TfLiteFloatArray* scales = FilterScales();
  TfLiteTensor tensors[5] = {
      ShapeTensor(true),
      CreatePerChannelQuantizedTensor(g_q_filter, IntArrayFromInts(kFilterDims), scales, 0),
      CreateQuantizedTensor(g_w_input, IntArrayFromInts(kInputDims), 0.5f, 0),
      int32_bias ? CreateTensor(bias32, IntArrayFromInts(kBiasDims), true)
                 : CreateTensor(g_w_bias, IntArrayFromInts(kBiasDims), true),
      CreateQuantizedTensor(g_w_output, IntArrayFromInts(g_output_dims), 0.25f, 0),
  };
  const TfLiteTransposeConvParams params = {padding, 2, 2, kTfLiteActNone};
  return RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                   &params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatStride2Output4x4) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(4, kTfLitePaddingSame, kTfLiteActNone, kInputs));
  ExpectFloat(4, kOut4x4, true, false);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(4, kTfLitePaddingValid, kTfLiteActNone, kInputs));
  ExpectFloat(4, kOut4x4, true, false);
}

TF_LITE_MICRO_TEST(FloatSamePaddingCropsTheBorder) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(3, kTfLitePaddingSame, kTfLiteActNone, kInputs));
  ExpectFloat(3, kOut3x3, true, false);
}

TF_LITE_MICRO_TEST(FloatReluAndNoBias) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(4, kTfLitePaddingSame, kTfLiteActRelu, kInputs));
  ExpectFloat(4, kOut4x4, true, true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(4, kTfLitePaddingSame, kTfLiteActNone, kInputsNoBias));
  ExpectFloat(4, kOut4x4, false, false);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(3, kTfLitePaddingSame, kTfLiteActNone, kInputsBiasMinusOne));
  ExpectFloat(3, kOut3x3, false, false);
}

TF_LITE_MICRO_TEST(OutputShapeMustMatchTheOutput) {
  // A constant output_shape is checked by prepare, one computed at run time by invoke.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunFloat(4, kTfLitePaddingSame, kTfLiteActNone, kInputs, true, true));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunFloat(4, kTfLitePaddingSame, kTfLiteActNone, kInputs, false, true));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunFloat(4, kTfLitePaddingSame, kTfLiteActNone, kInputs, false, false));
  ExpectFloat(4, kOut4x4, true, false);
}

TF_LITE_MICRO_TEST(Int8PerChannel) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunInt8(4, kTfLitePaddingSame, kTfLiteActNone));
  ExpectInt8(4, kOut4x4, false);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunInt8(3, kTfLitePaddingSame, kTfLiteActRelu));
  ExpectInt8(3, kOut3x3, true);
}

TF_LITE_MICRO_TEST(Int16WithInt64Bias) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunInt16(4, kTfLitePaddingSame));
  int16_t expected[32];
  for (int i = 0; i < 16; ++i) {
    for (int c = 0; c < 2; ++c) {
      expected[2 * i + c] = static_cast<int16_t>(4 * Expected(kOut4x4, i, c, c == 0 ? 1.0f : 0.5f, false));
    }
  }
  ExpectIntsNear(expected, g_w_output, 32);
  // TFLM reads a 16x8 bias as int64: an int32 one is refused.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunInt16(4, kTfLitePaddingSame, true));
}

TF_LITE_MICRO_TEST(BadModelsAreRefused) {
  // Hybrid: float input with int8 weights.
  SetOutput(4);
  const TfLiteFloatArray* scales = FilterScales();
  TfLiteTensor tensors[5] = {
      ShapeTensor(true),
      CreatePerChannelQuantizedTensor(g_q_filter, IntArrayFromInts(kFilterDims), scales, 0),
      CreateTensor(g_input, IntArrayFromInts(kInputDims)),
      CreateTensor(g_bias, IntArrayFromInts(kBiasDims), true),
      CreateTensor(g_output, IntArrayFromInts(g_output_dims)),
  };
  const TfLiteTransposeConvParams params = {kTfLitePaddingSame, 2, 2, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs),
                                                  IntArrayFromInts(kOutputs), &params));
  // Input channels unlike the filter's.
  tensors[1] = CreateTensor(g_filter, IntArrayFromInts(kFilterDims), true);
  static const int32_t two_channels[] = {4, 1, 2, 1, 2};
  tensors[2] = CreateTensor(g_input, IntArrayFromInts(two_channels));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs),
                                                  IntArrayFromInts(kOutputs), &params));
  // Stride 0.
  tensors[2] = CreateTensor(g_input, IntArrayFromInts(kInputDims));
  const TfLiteTransposeConvParams zero_stride = {kTfLitePaddingSame, 0, 2, kTfLiteActNone};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs),
                                                  IntArrayFromInts(kOutputs), &zero_stride));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernel(Register_TRANSPOSE_CONV(), tensors, 5, IntArrayFromInts(kInputs),
                                               IntArrayFromInts(kOutputs), &params));
}

TF_LITE_MICRO_TESTS_END
