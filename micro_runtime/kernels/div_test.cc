// DIV kernel tests. Float expectations are hand-computed; int8 expectations
// come from the TFLM reference interpreter (tflite-micro Python package)
// running one-op DIV models with the same quantization, whose rescale
// multiplier (0.02 / (0.01 * 0.0125) = 160 >= 2^7) keeps TFLM's arithmetic
// defined for every numerator. Below that TFLM shifts by 32+ bits for small
// numerators (undefined; x86 builds return e.g. 12.7 for 0.1 / 10): the
// SmallNumerators case checks this kernel's correctly rounded results.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus Run(TfLiteTensor a, TfLiteTensor b, TfLiteTensor out, TfLiteFusedActivation act) {
  const TfLiteArithmeticParams params = {act};
  return RunBinaryKernel(Register_DIV(), a, b, out, &params);
}

void CheckInt8(const int8_t* in1, const int8_t* in2, float s1, int zp1, float s2, int zp2, float s_out, int zp_out,
               TfLiteFusedActivation act, const int8_t* expected, int count) {
  static int8_t a[16];
  static int8_t b[16];
  static int8_t out[16];
  for (int i = 0; i < count; ++i) {
    a[i] = in1[i];
    b[i] = in2[i];
  }
  const int32_t shape[] = {2, 1, count};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(a, dims, s1, zp1), CreateQuantizedTensor(b, dims, s2, zp2),
                                         CreateQuantizedTensor(out, dims, s_out, zp_out), act));
  for (int i = 0; i < count; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBroadcastAndRelu6) {
  const int32_t shape_a[] = {2, 2, 2};
  const int32_t shape_b[] = {1, 2};
  float a[] = {1, -6, 30, 0};
  float b[] = {4, -2};
  float out[4] = {0};
  const float none[] = {0.25f, 3, 7.5f, -0.0f};
  const float relu6[] = {0.25f, 3, 6, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)), CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_a)), kTfLiteActNone));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(none[i], out[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)), CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_a)), kTfLiteActRelu6));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(relu6[i], out[i]);
}

TF_LITE_MICRO_TEST(Int8) {
  const int8_t in1[] = {-128, -90, -33, -1, 0, 1, 7, 64, 127, 100, -50, 20};
  const int8_t in2[] = {30, -40, 50, 100, -77, 127, -128, 45, 60, -90, 33, 70};
  const int8_t none[] = {-128, 127, -105, -8, 1, -4, -10, 127, 127, -128, -128, 35};
  const int8_t relu[] = {-3, 127, -3, -3, 1, -3, -3, 127, 127, -3, -3, 35};
  CheckInt8(in1, in2, 0.02f, 2, 0.01f, -5, 0.0125f, -3, kTfLiteActNone, none, 12);
  CheckInt8(in1, in2, 0.02f, 2, 0.01f, -5, 0.0125f, -3, kTfLiteActRelu, relu, 12);
}

TF_LITE_MICRO_TEST(Int8SmallNumerators) {
  // Scales 0.1, 0.1, 0.1 (multiplier 10): 0 / 10 = 0, 0.1 / 10 = 0.01 -> 0,
  // -0.1 / 10 -> 0, 0.6 / 10 -> 0.06 rounds to 1 step (0.1), 2 / 10 -> 0.2.
  const int8_t in1[] = {0, 1, -1, 6, 20};
  const int8_t in2[] = {100, 100, 100, 100, 100};
  const int8_t expected[] = {0, 0, 0, 1, 2};
  CheckInt8(in1, in2, 0.1f, 0, 0.1f, 0, 0.1f, 0, kTfLiteActNone, expected, 5);
}

TF_LITE_MICRO_TEST(Int8DivisionByZeroSaturates) {
  // The divisor at its zero point: +-max of the activation range, 0 / 0 -> the output zero point.
  const int8_t in1[] = {50, -50, 4, 4};
  const int8_t in2[] = {-3, -3, -3, 10};
  const int8_t expected[] = {127, -128, 4, 4};
  CheckInt8(in1, in2, 0.1f, 4, 0.1f, -3, 0.1f, 4, kTfLiteActNone, expected, 4);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 2};
  int8_t q[2] = {0};
  int16_t s[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  // Rescale multiplier 1 / (1e-4 * 1e-4) is beyond 2^23.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q, dims, 1.0f, 0), CreateQuantizedTensor(q, dims, 1e-4f, 0),
                                            CreateQuantizedTensor(q, dims, 1e-4f, 0), kTfLiteActNone));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(s, dims), CreateTensor(s, dims), CreateTensor(s, dims), kTfLiteActNone));
}

TF_LITE_MICRO_TESTS_END
