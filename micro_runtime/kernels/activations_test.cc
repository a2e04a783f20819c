// RELU / RELU6 kernel tests. Float expectations are hand-computed; int8
// expectations come from LiteRT running one-op models (TFLM agrees except for
// RELU6 with different input/output quantization, where TFLM clamps without
// requantizing; this kernel requantizes like TFLite); int16 ones are
// hand-computed from exact scale ratios.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};
const int32_t kShape[] = {2, 3, 4};
int8_t g_input[] = {-128, -100, -60, -20, -5, 0, 3, 10, 25, 50, 80, 127};

TfLiteStatus Run(const TfLiteRegistration& reg, TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut), nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

void CheckInt8(const TfLiteRegistration& reg, float in_scale, int in_zp, float out_scale, int out_zp,
               const int8_t* expected) {
  int8_t output[12] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(kShape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(reg, CreateQuantizedTensor(g_input, dims, in_scale, in_zp),
                                         CreateQuantizedTensor(output, dims, out_scale, out_zp)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

// int16 (zero points 0) on kShape: expects `expected` exactly.
void CheckInt16(const TfLiteRegistration& reg, float in_scale, float out_scale, const int16_t* input,
                const int16_t* expected) {
  int16_t in[12];
  int16_t output[12] = {0};
  for (int i = 0; i < 12; ++i) in[i] = input[i];
  const TfLiteIntArray* dims = IntArrayFromInts(kShape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(reg, CreateQuantizedTensor(in, dims, in_scale, 0),
                                         CreateQuantizedTensor(output, dims, out_scale, 0)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

const int16_t kInt16Input[] = {-32768, -1000, -1, 0, 1, 2, 3, 5, 5999, 6001, 21844, 32767};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatRelu) {
  const int32_t shape[] = {1, 6};
  float input[] = {-3.0f, -0.0f, 0.5f, 2.0f, 6.5f, 100.0f};
  float output[6] = {0};
  const float expected[] = {0.0f, 0.0f, 0.5f, 2.0f, 6.5f, 100.0f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_RELU(), CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(FloatRelu6) {
  const int32_t shape[] = {1, 6};
  float input[] = {-3.0f, -0.0f, 0.5f, 2.0f, 6.5f, 100.0f};
  float output[6] = {0};
  const float expected[] = {0.0f, 0.0f, 0.5f, 2.0f, 6.0f, 6.0f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_RELU6(), CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8ReluSameQuantization) {
  const int8_t expected[] = {-10, -10, -10, -10, -5, 0, 3, 10, 25, 50, 80, 127};
  CheckInt8(Register_RELU(), 0.05f, -10, 0.05f, -10, expected);
}

TF_LITE_MICRO_TEST(Int8ReluRequantizes) {
  const int8_t expected[] = {-128, -128, -128, -128, -120, -111, -106, -95, -70, -28, 22, 100};
  CheckInt8(Register_RELU(), 0.05f, -10, 0.03f, -128, expected);
}

TF_LITE_MICRO_TEST(Int8Relu6SameQuantization) {
  // 6 / 0.06 = 100 steps above the zero point 5.
  const int8_t expected[] = {5, 5, 5, 5, 5, 5, 5, 10, 25, 50, 80, 105};
  CheckInt8(Register_RELU6(), 0.06f, 5, 0.06f, 5, expected);
}

TF_LITE_MICRO_TEST(Int8Relu6Requantizes) {
  const int8_t expected[] = {-128, -128, -128, -128, -128, -128, -128, -118, -88, -38, 22, 72};
  CheckInt8(Register_RELU6(), 0.06f, 5, 0.03f, -128, expected);
}

TF_LITE_MICRO_TEST(Int16ReluSameScale) {
  const int16_t expected[] = {0, 0, 0, 0, 1, 2, 3, 5, 5999, 6001, 21844, 32767};
  CheckInt16(Register_RELU(), 0.001f, 0.001f, kInt16Input, expected);
}

TF_LITE_MICRO_TEST(Int16ReluRequantizes) {
  // Ratio 0.75 / 0.5 = 1.5 exactly: x * 1.5 rounded half up (TFLite's
  // rounding doubling multiply), clamped to 32767 past 21844.
  const int16_t expected[] = {0, 0, 0, 0, 2, 3, 5, 8, 8999, 9002, 32766, 32767};
  CheckInt16(Register_RELU(), 0.75f, 0.5f, kInt16Input, expected);
}

TF_LITE_MICRO_TEST(Int16Relu6SameScale) {
  // 6 / 0.001 = 6000 steps.
  const int16_t expected[] = {0, 0, 0, 0, 1, 2, 3, 5, 5999, 6000, 6000, 6000};
  CheckInt16(Register_RELU6(), 0.001f, 0.001f, kInt16Input, expected);
}

TF_LITE_MICRO_TEST(Int16Relu6SixBeyondTheRange) {
  // 6 / 0.0001 = 60000 steps, beyond int16: the clamp is 32767.
  const int16_t expected[] = {0, 0, 0, 0, 1, 2, 3, 5, 5999, 6001, 21844, 32767};
  CheckInt16(Register_RELU6(), 0.0001f, 0.0001f, kInt16Input, expected);
}

TF_LITE_MICRO_TEST(Int16BadQuantizationFails) {
  const int32_t shape[] = {1, 4};
  int16_t in[4] = {0};
  int16_t out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU(), CreateQuantizedTensor(in, dims, 0.1f, 1),
                                            CreateQuantizedTensor(out, dims, 0.1f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU6(), CreateQuantizedTensor(in, dims, 0.1f, 0),
                                            CreateQuantizedTensor(out, dims, 0.1f, -3)));
  // A ratio of 2^16 or more would overflow the int32 rescale of an int16 input.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU(), CreateQuantizedTensor(in, dims, 65536.0f, 0),
                                            CreateQuantizedTensor(out, dims, 1.0f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_RELU(), CreateQuantizedTensor(in, dims, 65535.0f, 0),
                                         CreateQuantizedTensor(out, dims, 1.0f, 0)));
}

TF_LITE_MICRO_TEST(InPlaceInt8) {
  const int32_t shape[] = {1, 4};
  int8_t data[] = {-50, -1, 0, 60};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_RELU(), CreateQuantizedTensor(data, dims, 0.1f, 0),
                                         CreateQuantizedTensor(data, dims, 0.1f, 0)));
  const int8_t expected[] = {0, 0, 0, 60};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], data[i]);
}

TF_LITE_MICRO_TEST(BadInputsFail) {
  const int32_t shape[] = {1, 4};
  const int32_t other[] = {1, 5};
  int16_t s_in[4] = {0};
  int16_t s_out[4] = {0};
  float f_in[5] = {0};
  float f_out[5] = {0};
  int8_t q[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU(), CreateTensor(s_in, IntArrayFromInts(shape)),
                                            CreateTensor(s_out, IntArrayFromInts(shape))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU6(), CreateTensor(f_in, IntArrayFromInts(shape)),
                                            CreateTensor(f_out, IntArrayFromInts(other))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_RELU6(), CreateTensor(f_in, IntArrayFromInts(shape)),
                                            CreateQuantizedTensor(q, IntArrayFromInts(shape), 0.1f, 0)));
}

TF_LITE_MICRO_TESTS_END
