// SQUARED_DIFFERENCE kernel tests. Float expectations are hand-computed;
// int8 and int16 expectations come from the TFLM reference interpreter
// (tflite-micro Python package) running one-op SQUARED_DIFFERENCE models with
// the same quantization.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using kernel_cases::BinaryInt8Case;

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBroadcast) {
  const int32_t shape_a[] = {2, 2, 3};
  const int32_t shape_b[] = {1, 3};
  float a[] = {1, 2, 3, -4, 5.5f, 0};
  float b[] = {3, -1, 0.5f};
  float out[6] = {0};
  const float expected[] = {4, 9, 6.25f, 49, 42.25f, 0.25f};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunBinaryKernel(Register_SQUARED_DIFFERENCE(), CreateTensor(a, IntArrayFromInts(shape_a)),
                                                     CreateTensor(b, IntArrayFromInts(shape_b)),
                                                     CreateTensor(out, IntArrayFromInts(shape_a)), nullptr));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(Int8SameShape) {
  const int32_t shape[] = {4, 1, 2, 2, 2};
  const BinaryInt8Case c = {shape, shape, shape, 0.05f, 0.02f, 0.2f, -3, 10, -120, kTfLiteActNone};
  int8_t in1[] = {113, 32, 47, 101, 20, 70, 85, -71};
  int8_t in2[] = {-114, -52, -56, 95, 105, -127, -1, 82};
  const int8_t expected[] = {127, -75, -47, -59, -117, 84, -13, -3};
  kernel_cases::ExpectBinaryInt8(Register_SQUARED_DIFFERENCE(), c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8Broadcast) {
  const int32_t shape1[] = {3, 2, 1, 3};
  const int32_t shape2[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  const BinaryInt8Case c = {shape1, shape2, shape_out, 0.02f, 0.03f, 0.05f, 0, -20, -128, kTfLiteActNone};
  int8_t in1[] = {-95, 76, -98, -9, 81, -51};
  int8_t in2[] = {-41, -57};
  const int8_t expected[] = {-96, -36, -93, -116, 10, -114, -124, -27, -125, -111, 21, -128};
  kernel_cases::ExpectBinaryInt8(Register_SQUARED_DIFFERENCE(), c, in1, in2, expected);
}

// int16 (zero points 0, no left shift), including the extremes of the range.
TF_LITE_MICRO_TEST(Int16SameShape) {
  const int32_t shape[] = {4, 1, 2, 2, 2};
  int16_t in1[] = {32767, -32768, 1000, -20000, 5, 0, 12345, -7};
  int16_t in2[] = {-32768, 32767, -1000, 20000, 5, 3, -12345, 7};
  int16_t out[8] = {0};
  const int16_t expected[] = {26308, 26308, 25, 9800, 0, 0, 3734, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunBinaryKernel(Register_SQUARED_DIFFERENCE(),
                                                     kernel_cases::Int16Tensor(in1, shape, 0.0005f),
                                                     kernel_cases::Int16Tensor(in2, shape, 0.0002f),
                                                     kernel_cases::Int16Tensor(out, shape, 0.02f), nullptr));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(Int16Broadcast) {
  const int32_t shape1[] = {3, 2, 1, 3};
  const int32_t shape2[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  int16_t in1[] = {-30000, 25000, -3, 100, -9000, 32767};
  int16_t in2[] = {-12000, 4000};
  int16_t out[12] = {0};
  const int16_t expected[] = {360, 32767, 12956, 17640, 1691, 1441, 13034, 7290, 32767, 1416, 4410, 4312};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunBinaryKernel(Register_SQUARED_DIFFERENCE(),
                                                     kernel_cases::Int16Tensor(in1, shape1, 0.0001f),
                                                     kernel_cases::Int16Tensor(in2, shape2, 0.0003f),
                                                     kernel_cases::Int16Tensor(out, shape_out, 0.001f), nullptr));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t shape[] = {1, 2};
  int16_t s[2] = {0};
  int8_t q[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  // int16 without a scale, and with a zero point (int16 is symmetric).
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_SQUARED_DIFFERENCE(), CreateTensor(s, dims),
                                                        CreateTensor(s, dims), CreateTensor(s, dims), nullptr));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_SQUARED_DIFFERENCE(),
                                                        kernel_cases::Int16Tensor(s, shape, 0.1f, 1),
                                                        kernel_cases::Int16Tensor(s, shape, 0.1f),
                                                        kernel_cases::Int16Tensor(s, shape, 0.1f), nullptr));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_SQUARED_DIFFERENCE(), CreateQuantizedTensor(q, dims, 0.1f, 0),
                                                        CreateQuantizedTensor(q, dims, 0.1f, 0),
                                                        CreateQuantizedTensor(q, dims, 0.0f, 0), nullptr));
}

TF_LITE_MICRO_TESTS_END
