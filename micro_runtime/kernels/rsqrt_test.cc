// RSQRT kernel tests. Float expectations are hand-computed; int8
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running a one-op RSQRT model over every input from the zero
// point up (below it TFLM fails invoke, and so does this kernel).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {1, 4};
  float input[] = {0.25f, 1.0f, 4.0f, 100.0f};
  const float expected[] = {2.0f, 1.0f, 0.5f, 0.1f};
  kernel_cases::ExpectUnaryFloats(Register_RSQRT(), shape, input, expected, 1e-6f);
}

TF_LITE_MICRO_TEST(Int8FromTheZeroPointUp) {
  static int8_t input[148];
  static int8_t output[148];
  for (int i = 0; i < 148; ++i) input[i] = static_cast<int8_t>(i - 20);
  const int8_t expected[] = {127, -13, -46, -61, -70, -76, -81, -84, -87, -90, -91, -93, -95, -96, -97, -98,
      -99, -100, -101, -102, -102, -103, -103, -104, -104, -105, -105, -106, -106, -107, -107, -107,
      -108, -108, -108, -108, -109, -109, -109, -110, -110, -110, -110, -110, -111, -111, -111, -111,
      -111, -112, -112, -112, -112, -112, -112, -112, -113, -113, -113, -113, -113, -113, -113, -113,
      -114, -114, -114, -114, -114, -114, -114, -114, -114, -114, -115, -115, -115, -115, -115, -115,
      -115, -115, -115, -115, -115, -115, -116, -116, -116, -116, -116, -116, -116, -116, -116, -116,
      -116, -116, -116, -116, -116, -117, -117, -117, -117, -117, -117, -117, -117, -117, -117, -117,
      -117, -117, -117, -117, -117, -117, -117, -117, -117, -118, -118, -118, -118, -118, -118, -118,
      -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118,
      -118, -118, -118, -118};
  const int32_t shape[] = {1, 148};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnaryKernel(Register_RSQRT(), CreateQuantizedTensor(input, dims, 0.03f, -20),
                                                    CreateQuantizedTensor(output, dims, 0.05f, -128)));
  for (int i = 0; i < 148; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8BelowTheZeroPointFailsInvoke) {
  const int32_t shape[] = {1, 3};
  int8_t input[] = {10, 0, -21};
  int8_t output[3] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_RSQRT(), CreateQuantizedTensor(input, dims, 0.03f, -20),
                                                       CreateQuantizedTensor(output, dims, 0.05f, -128)));
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 2};
  int8_t a[2] = {0};
  int8_t b[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  // The rescale would shift right by more than 31 bits.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_RSQRT(), CreateQuantizedTensor(a, dims, 1.0f, 0),
                                                       CreateQuantizedTensor(b, dims, 1e4f, 0)));
  int16_t c[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnaryKernel(Register_RSQRT(), CreateTensor(c, dims), CreateTensor(c, dims)));
}

TF_LITE_MICRO_TESTS_END
