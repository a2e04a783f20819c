// ABS kernel tests. Float expectations are exact; int8/int16 expectations
// come from the TFLM reference interpreter (tflite-micro Python package)
// running one-op ABS models with the same quantization.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using kernel_cases::Int16Tensor;

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {2, 2, 3};
  float input[] = {-3.5f, -0.0f, 0.25f, 2.0f, -1e30f, 7.0f};
  const float expected[] = {3.5f, 0.0f, 0.25f, 2.0f, 1e30f, 7.0f};
  kernel_cases::ExpectUnaryFloats(Register_ABS(), shape, input, expected, 0.0f);
}

TF_LITE_MICRO_TEST(Int8SameScaleNeedsNoRescale) {
  // |q - zp_in| + zp_out: -128 (zp 5) is 133 steps from the zero point -> saturates.
  const int32_t shape[] = {1, 6};
  int8_t input[] = {-128, -40, 4, 5, 6, 127};
  int8_t output[6] = {0};
  const int8_t expected[] = {127, 40, -4, -5, -4, 117};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_ABS(), CreateQuantizedTensor(input, dims, 0.1f, 5),
                                                    CreateQuantizedTensor(output, dims, 0.1f, -5)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8EveryInputRescaled) {
  const int8_t expected[] = {102, 100, 98, 97, 95, 93, 92, 90, 88, 87, 85, 83, 82, 80, 78, 77,
      75, 73, 72, 70, 68, 67, 65, 63, 62, 60, 58, 57, 55, 53, 52, 50,
      48, 47, 45, 43, 42, 40, 38, 37, 35, 33, 32, 30, 28, 27, 25, 23,
      22, 20, 18, 17, 15, 13, 12, 10, 8, 7, 5, 3, 2, 0, -2, -3,
      -5, -7, -8, -10, -12, -13, -15, -17, -18, -20, -22, -23, -25, -27, -28, -30,
      -32, -33, -35, -37, -38, -40, -42, -43, -45, -47, -48, -50, -52, -53, -55, -57,
      -58, -60, -62, -63, -65, -67, -68, -70, -72, -73, -75, -77, -78, -80, -82, -83,
      -85, -87, -88, -90, -92, -93, -95, -97, -98, -100, -98, -97, -95, -93, -92, -90,
      -88, -87, -85, -83, -82, -80, -78, -77, -75, -73, -72, -70, -68, -67, -65, -63,
      -62, -60, -58, -57, -55, -53, -52, -50, -48, -47, -45, -43, -42, -40, -38, -37,
      -35, -33, -32, -30, -28, -27, -25, -23, -22, -20, -18, -17, -15, -13, -12, -10,
      -8, -7, -5, -3, -2, 0, 2, 3, 5, 7, 8, 10, 12, 13, 15, 17,
      18, 20, 22, 23, 25, 27, 28, 30, 32, 33, 35, 37, 38, 40, 42, 43,
      45, 47, 48, 50, 52, 53, 55, 57, 58, 60, 62, 63, 65, 67, 68, 70,
      72, 73, 75, 77, 78, 80, 82, 83, 85, 87, 88, 90, 92, 93, 95, 97,
      98, 100, 102, 103, 105, 107, 108, 110, 112, 113, 115, 117, 118, 120, 122, 123};
  kernel_cases::ExpectEveryInt8Input(Register_ABS(), 0.05f, -7, 0.03f, -100, expected);
}

TF_LITE_MICRO_TEST(Int16Rescaled) {
  const int32_t shape[] = {2, 1, 8};
  int16_t input[] = {-32768, -20000, -300, -1, 0, 1, 250, 32767};
  int16_t output[8] = {0};
  const int16_t expected[] = {32767, 26667, 400, 1, 0, 1, 333, 32767};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_ABS(), Int16Tensor(input, shape, 0.0004f),
                                                    Int16Tensor(output, shape, 0.0003f)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 2};
  const int32_t other[] = {1, 3};
  int16_t a[3] = {0};
  int16_t b[3] = {0};
  float f[3] = {0};
  int32_t i[3] = {0};
  // int16 needs zero point 0; quantized tensors need a scale.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ABS(), Int16Tensor(a, shape, 0.1f, 1),
                                                       Int16Tensor(b, shape, 0.1f)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ABS(), Int16Tensor(a, shape, 0.1f),
                                                       Int16Tensor(b, shape, 0.0f)));
  // Shapes, types.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ABS(), CreateTensor(f, IntArrayFromInts(shape)),
                                                       CreateTensor(f, IntArrayFromInts(other))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ABS(), CreateTensor(i, IntArrayFromInts(shape)),
                                                       CreateTensor(i, IntArrayFromInts(shape))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_ABS(), CreateTensor(f, IntArrayFromInts(shape)),
                                                       Int16Tensor(a, shape, 0.1f)));
}

TF_LITE_MICRO_TESTS_END
