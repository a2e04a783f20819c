// LEAKY_RELU kernel tests. Float expectations are hand-computed; int8/int16
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running one-op LEAKY_RELU models with the same quantization and
// alpha (a negative alpha too).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using kernel_cases::Int16Tensor;

void CheckInt8(float alpha, float in_scale, int in_zp, float out_scale, int out_zp, const int8_t* expected) {
  static int8_t input[256];
  static int8_t output[256];
  for (int i = 0; i < 256; ++i) input[i] = static_cast<int8_t>(i - 128);
  const int32_t shape[] = {1, 256};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  const TfLiteLeakyReluParams params = {alpha};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_LEAKY_RELU(), CreateQuantizedTensor(input, dims, in_scale, in_zp),
                                                    CreateQuantizedTensor(output, dims, out_scale, out_zp), &params));
  for (int i = 0; i < 256; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {1, 5};
  float input[] = {-4.0f, -0.5f, 0.0f, 0.5f, 3.0f};
  float output[5] = {0};
  const float expected[] = {-0.8f, -0.1f, 0.0f, 0.5f, 3.0f};
  const TfLiteLeakyReluParams params = {0.2f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_LEAKY_RELU(), CreateTensor(input, dims),
                                                    CreateTensor(output, dims), &params));
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 1e-7f);
}

TF_LITE_MICRO_TEST(Int8EveryInput) {
  const int8_t expected[] = {-56, -55, -55, -55, -55, -54, -54, -54, -54, -53, -53, -53, -53, -52, -52, -52,
      -51, -51, -51, -51, -50, -50, -50, -50, -49, -49, -49, -49, -48, -48, -48, -47,
      -47, -47, -47, -46, -46, -46, -46, -45, -45, -45, -45, -44, -44, -44, -43, -43,
      -43, -43, -42, -42, -42, -42, -41, -41, -41, -41, -40, -40, -40, -39, -39, -39,
      -39, -38, -38, -38, -38, -37, -37, -37, -37, -36, -36, -36, -35, -35, -35, -35,
      -34, -34, -34, -34, -33, -33, -33, -33, -32, -32, -32, -31, -31, -31, -31, -30,
      -30, -30, -30, -29, -29, -29, -29, -28, -28, -28, -27, -27, -27, -27, -26, -26,
      -26, -26, -25, -25, -25, -25, -24, -24, -24, -23, -23, -23, -23, -22, -22, -22,
      -22, -21, -21, -21, -21, -20, -19, -17, -16, -15, -13, -12, -11, -9, -8, -7,
      -5, -4, -3, -1, 0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15,
      16, 17, 19, 20, 21, 23, 24, 25, 27, 28, 29, 31, 32, 33, 35, 36,
      37, 39, 40, 41, 43, 44, 45, 47, 48, 49, 51, 52, 53, 55, 56, 57,
      59, 60, 61, 63, 64, 65, 67, 68, 69, 71, 72, 73, 75, 76, 77, 79,
      80, 81, 83, 84, 85, 87, 88, 89, 91, 92, 93, 95, 96, 97, 99, 100,
      101, 103, 104, 105, 107, 108, 109, 111, 112, 113, 115, 116, 117, 119, 120, 121,
      123, 124, 125, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127};
  CheckInt8(0.2f, 0.04f, 5, 0.03f, -20, expected);
}

TF_LITE_MICRO_TEST(Int8NegativeAlpha) {
  const int8_t expected[] = {42, 42, 42, 41, 41, 41, 41, 40, 40, 40, 40, 39, 39, 39, 39, 38,
      38, 38, 38, 37, 37, 37, 37, 37, 36, 36, 36, 36, 35, 35, 35, 35,
      34, 34, 34, 34, 33, 33, 33, 33, 32, 32, 32, 32, 31, 31, 31, 31,
      31, 30, 30, 30, 30, 29, 29, 29, 29, 28, 28, 28, 28, 27, 27, 27,
      27, 26, 26, 26, 26, 25, 25, 25, 25, 25, 24, 24, 24, 24, 23, 23,
      23, 23, 22, 22, 22, 22, 21, 21, 21, 21, 20, 20, 20, 20, 19, 19,
      19, 19, 19, 18, 18, 18, 18, 17, 17, 17, 17, 16, 16, 16, 16, 15,
      15, 15, 15, 14, 14, 14, 14, 13, 13, 13, 13, 13, 12, 12, 12, 12,
      11, 11, 11, 11, 10, 10, 11, 12, 12, 13, 14, 15, 16, 16, 17, 18,
      19, 20, 20, 21, 22, 23, 24, 24, 25, 26, 27, 28, 28, 29, 30, 31,
      32, 32, 33, 34, 35, 36, 36, 37, 38, 39, 40, 40, 41, 42, 43, 44,
      44, 45, 46, 47, 48, 48, 49, 50, 51, 52, 52, 53, 54, 55, 56, 56,
      57, 58, 59, 60, 60, 61, 62, 63, 64, 64, 65, 66, 67, 68, 68, 69,
      70, 71, 72, 72, 73, 74, 75, 76, 76, 77, 78, 79, 80, 80, 81, 82,
      83, 84, 84, 85, 86, 87, 88, 88, 89, 90, 91, 92, 92, 93, 94, 95,
      96, 96, 97, 98, 99, 100, 100, 101, 102, 103, 104, 104, 105, 106, 107, 108};
  CheckInt8(-0.3f, 0.04f, 5, 0.05f, 10, expected);
}

TF_LITE_MICRO_TEST(Int16) {
  const int32_t shape[] = {2, 1, 8};
  int16_t input[] = {-32768, -20000, -300, -1, 0, 1, 250, 32767};
  int16_t output[8] = {0};
  const int16_t expected[] = {-4369, -2667, -40, 0, 0, 1, 333, 32767};
  const TfLiteLeakyReluParams params = {0.1f};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_LEAKY_RELU(), Int16Tensor(input, shape, 0.0004f),
                                                    Int16Tensor(output, shape, 0.0003f), &params));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 2};
  int16_t a[2] = {0};
  int16_t b[2] = {0};
  int8_t q[2] = {0};
  const TfLiteLeakyReluParams params = {0.1f};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_LEAKY_RELU(), Int16Tensor(a, shape, 0.1f, 2),
                                                       Int16Tensor(b, shape, 0.1f), &params));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_LEAKY_RELU(), Int16Tensor(a, shape, 0.1f),
                                                       CreateQuantizedTensor(q, IntArrayFromInts(shape), 0.1f, 0), &params));
}

TF_LITE_MICRO_TESTS_END
