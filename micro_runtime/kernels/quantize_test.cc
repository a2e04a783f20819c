// QUANTIZE kernel tests. Expected values come from the TFLM reference
// interpreter (tflite-micro Python package) on one-op models; the per-channel
// case is hand-computed. Note the ties: TFLM rounds x / scale = k + 0.5 away
// from zero (LiteRT rounds some of them to even), and this kernel follows TFLM.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(Register_QUANTIZE(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut),
                      nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

// A tensor of any type with per-tensor quantization.
template <typename T>
TfLiteTensor Quantized(T* data, const TfLiteIntArray* dims, float scale, int zero_point) {
  TfLiteTensor t = CreateTensor(data, dims);
  t.params.scale = scale;
  t.params.zero_point = zero_point;
  return t;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatToInt8TiesAndSaturation) {
  const int32_t shape[] = {2, 2, 6};
  float input[] = {-100.0f, -1.25f, -0.75f, -0.25f, 0.0f, 0.25f, 0.75f, 1.25f, 3.3f, 60.0f, 70.0f, 1e9f};
  int8_t output[12] = {0};
  const int8_t expected[] = {-128, -6, -5, -4, -3, -2, -1, 0, 4, 117, 127, 127};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateQuantizedTensor(output, dims, 0.5f, -3)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(FloatToInt8NearTies) {
  // x / scale lands within 1e-7 of k + 0.5: the float division decides.
  const int32_t shape[] = {1, 5};
  float input[] = {-0.6080192f, -0.07886441f, 0.22641718f, 0.1f, -0.3f};
  int8_t output[5] = {0};
  const int8_t expected[] = {-42, 62, 123, 98, 19};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims),
                                         CreateQuantizedTensor(output, dims, 0.0050880266f, 78)));
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(FloatToInt8PerChannel) {
  // Channels along dimension 1 with scales 0.1, 0.5, 1.0 (zero point 0):
  // 1/0.1=10, 1/0.5=2, 1/1=1, -0.26/0.1=-2.6->-3, 2.75/0.5=5.5->6, -3.5->-4.
  const int32_t shape[] = {2, 2, 3};
  float scales[] = {3, 0.1f, 0.5f, 1.0f};
  float input[] = {1.0f, 1.0f, 1.0f, -0.26f, 2.75f, -3.5f};
  int8_t output[6] = {0};
  const int8_t expected[] = {10, 2, 1, -3, 6, -4};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims),
                                         CreatePerChannelQuantizedTensor(output, dims, FloatArrayFromFloats(scales),
                                                                         1, false)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8Requantize) {
  const int32_t shape[] = {1, 8};
  int8_t input[] = {-128, -77, -1, 0, 1, 33, 90, 127};
  int8_t output[8] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  const int8_t down[] = {-40, -20, 11, 11, 12, 24, 47, 62};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.02f, -10),
                                         CreateQuantizedTensor(output, dims, 0.05f, 7)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(down[i], output[i]);
  const int8_t up[] = {-128, -128, -30, -28, -25, 55, 127, 127};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.05f, 7),
                                         CreateQuantizedTensor(output, dims, 0.02f, -10)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(up[i], output[i]);
}

// The int16 pairs; expected values from TFLM (tflite_micro) on one-op models.
TF_LITE_MICRO_TEST(FloatToInt16TiesAwayAndSaturation) {
  const int32_t shape[] = {1, 8};
  float input[] = {-40.0f, -1.2345f, -0.0005f, 0.0005f, 0.0015f, 32.767f, 32.7675f, 100.0f};
  int16_t output[8] = {0};
  // -1.2345 / 0.001 is -1234.5 in float: away from zero (LiteRT gives -1234).
  const int16_t expected[] = {-32768, -1235, -1, 1, 2, 32767, 32767, 32767};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateQuantizedTensor(output, dims, 0.001f, 0)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int16ToInt8AndBack) {
  const int32_t shape[] = {1, 9};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int16_t wide[] = {-32768, -1000, -75, -25, 0, 25, 75, 651, 32767};
  int8_t narrow[9] = {0};
  const int8_t down[] = {-128, -23, -5, -4, -3, -2, -1, 10, 127};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(wide, dims, 0.01f, 0),
                                         CreateQuantizedTensor(narrow, dims, 0.5f, -3)));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_EQ(down[i], narrow[i]);
  const int32_t shape6[] = {1, 6};
  const TfLiteIntArray* dims6 = IntArrayFromInts(shape6);
  int8_t in8[] = {-128, -1, 0, 5, 6, 127};
  int16_t out16[6] = {0};
  const int16_t up[] = {-6650, -300, -250, 0, 50, 6100};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(in8, dims6, 0.5f, 5),
                                         CreateQuantizedTensor(out16, dims6, 0.01f, 0)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(up[i], out16[i]);
}

TF_LITE_MICRO_TEST(Int16ToInt16AndInt32) {
  const int32_t shape[] = {1, 9};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int16_t input[] = {-32768, -3, -2, -1, 1, 2, 3, 4, 32767};
  int16_t output[9] = {0};
  const int16_t rescaled[] = {-10923, -1, -1, -1, 1, 1, 1, 2, 10923};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                         CreateQuantizedTensor(output, dims, 0.003f, 0)));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_EQ(rescaled[i], output[i]);
  // x 1000 through the Q31 multiplier (32767 -> 32767002: the multiplier rounds).
  const int32_t shape6[] = {1, 6};
  const TfLiteIntArray* dims6 = IntArrayFromInts(shape6);
  int16_t in6[] = {-32768, -1, 0, 1, 12345, 32767};
  int32_t out32[6] = {0};
  const int32_t widened[] = {-32768002, -1000, 0, 1000, 12345001, 32767002};
  TfLiteTensor out = CreateTensor(out32, dims6);
  out.params.scale = 1e-6f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(in6, dims6, 0.001f, 0), out));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(widened[i], out32[i]);
}

// int32 input (SEANet's int32 -> int16 QUANTIZE) and the uint8 pairs TFLM
// has; expected values from TFLM on the same one-op models.
TF_LITE_MICRO_TEST(Int32ToInt16AndInt8) {
  const int32_t shape[] = {1, 8};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int32_t input[] = {INT32_MIN, -40000000, -1234567, -1, 0, 1, 999999, INT32_MAX};
  int16_t out16[8] = {0};
  const int16_t expected16[] = {-32768, -32768, -1372, 0, 0, 0, 1111, 32767};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(input, dims, 1e-6f, 0), Quantized(out16, dims, 0.0009f, 0)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected16[i], out16[i]);
  int8_t out8[8] = {0};
  const int8_t expected8[] = {-128, -128, -46, -5, -5, -5, 28, 127};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(input, dims, 1e-6f, 0), Quantized(out8, dims, 0.03f, -5)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected8[i], out8[i]);
  // A zero point that would overflow x - zero point in int32: saturated, no UB.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(input, dims, 1e-6f, 1000), Quantized(out16, dims, 0.0009f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(-32768, out16[0]);
  TF_LITE_MICRO_EXPECT_EQ(32767, out16[7]);
}

TF_LITE_MICRO_TEST(Int8AndUint8Pairs) {
  const int32_t shape[] = {1, 7};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int8_t i8[] = {-128, -100, -1, 0, 1, 50, 127};
  uint8_t u8[7] = {0};
  const uint8_t shifted[] = {0, 28, 127, 128, 129, 178, 255};  // same scale: x + 128 - (zp difference)
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(i8, dims, 0.02f, -3), Quantized(u8, dims, 0.02f, 125)));
  for (int i = 0; i < 7; ++i) TF_LITE_MICRO_EXPECT_EQ(shifted[i], u8[i]);
  const uint8_t rescaled[] = {90, 101, 141, 141, 142, 161, 192};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(i8, dims, 0.02f, -3), Quantized(u8, dims, 0.05f, 140)));
  for (int i = 0; i < 7; ++i) TF_LITE_MICRO_EXPECT_EQ(rescaled[i], u8[i]);
  int32_t wide[7] = {0};
  const int32_t widened[] = {-25000, -19400, 400, 600, 800, 10600, 26000};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(i8, dims, 0.02f, -3), Quantized(wide, dims, 0.0001f, 0)));
  for (int i = 0; i < 7; ++i) TF_LITE_MICRO_EXPECT_EQ(widened[i], wide[i]);
  const int32_t shape6[] = {1, 6};
  const TfLiteIntArray* dims6 = IntArrayFromInts(shape6);
  uint8_t from[] = {0, 1, 100, 128, 200, 255};
  int8_t to[6] = {0};
  const int8_t expected[] = {-128, -128, -35, 2, 98, 127};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Quantized(from, dims6, 0.04f, 128), Quantized(to, dims6, 0.03f, 2)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], to[i]);
  // Pairs TFLM does not have: uint8 -> int16, int32 -> int32, float -> uint8.
  int16_t s[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Quantized(from, dims6, 0.04f, 128), Quantized(s, dims6, 0.03f, 0)));
  int32_t w1[6] = {0};
  int32_t w2[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Quantized(w1, dims6, 0.04f, 0), Quantized(w2, dims6, 0.03f, 0)));
  float f[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, dims6), Quantized(from, dims6, 0.03f, 0)));
}

TF_LITE_MICRO_TEST(BadTensorsFail) {
  const int32_t shape[] = {1, 4};
  const int32_t other[] = {1, 3};
  float f[4] = {0};
  float f_out[4] = {0};
  int16_t s[4] = {0};
  int8_t q[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  // float -> float is not a quantization.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, dims), CreateTensor(f_out, dims)));
  // int16 input without a scale.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(s, dims), CreateQuantizedTensor(q, dims, 0.1f, 0)));
  // float -> int32 is not a pair TFLM has.
  int32_t w[4] = {0};
  TfLiteTensor wide = CreateTensor(w, dims);
  wide.params.scale = 0.1f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, dims), wide));
  // Shape mismatch.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          Run(CreateTensor(f, dims), CreateQuantizedTensor(q, IntArrayFromInts(other), 0.1f, 0)));
  // Zero output scale.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, dims), CreateQuantizedTensor(q, dims, 0.0f, 0)));
}

TF_LITE_MICRO_TESTS_END
