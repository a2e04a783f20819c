// SUB kernel tests. Float expectations are hand-computed; int8 and int16
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running one-op SUB models with the same quantization.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/add_sub_exhaustive_test_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using kernel_cases::BinaryInt8Case;

TfLiteStatus Run(TfLiteTensor a, TfLiteTensor b, TfLiteTensor out, TfLiteFusedActivation act = kTfLiteActNone) {
  const TfLiteArithmeticParams params = {act};
  return RunBinaryKernel(Register_SUB(), a, b, out, &params);
}

using kernel_cases::Int16Tensor;

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBroadcastAndActivations) {
  // [2,1,3] - [1,2,1] -> [2,2,3]: out[i][j][k] = a[i][k] - b[j].
  const int32_t shape_a[] = {3, 2, 1, 3};
  const int32_t shape_b[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  float a[] = {1, 2, 3, 10, 20, 30};
  float b[] = {2, 12};
  float out[12] = {0};
  const float none[] = {-1, 0, 1, -11, -10, -9, 8, 18, 28, -2, 8, 18};
  const float relu6[] = {0, 0, 1, 0, 0, 0, 6, 6, 6, 0, 6, 6};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out))));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(none[i], out[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out)), kTfLiteActRelu6));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(relu6[i], out[i]);
}

TF_LITE_MICRO_TEST(Int8SameShape) {
  const int32_t shape[] = {4, 1, 2, 2, 2};
  const BinaryInt8Case c = {shape, shape, shape, 0.05f, 0.02f, 0.06f, -3, 10, -5, kTfLiteActNone};
  int8_t in1[] = {113, 32, 47, 101, 20, 70, 85, -71};
  int8_t in2[] = {-114, -52, -56, 95, 105, -127, -1, 82};
  const int8_t expected[] = {127, 45, 59, 53, -17, 102, 72, -86};
  kernel_cases::ExpectBinaryInt8(Register_SUB(), c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8BroadcastRelu) {
  const int32_t shape1[] = {3, 2, 1, 3};
  const int32_t shape2[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  const BinaryInt8Case c = {shape1, shape2, shape_out, 0.1f, 0.03f, 0.08f, 0, -20, -128, kTfLiteActRelu};
  int8_t in1[] = {-95, 76, -98, -9, 81, -51};
  int8_t in2[] = {-41, -57};
  const int8_t expected[] = {-128, -25, -128, -128, -19, -128, -128, -19, -128, -125, -13, -128};
  kernel_cases::ExpectBinaryInt8(Register_SUB(), c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int16Broadcast) {
  const int32_t shape_a[] = {2, 2, 3};
  const int32_t shape_b[] = {1, 3};
  int16_t a[] = {-30000, -1200, 0, 5, 777, 32767};
  int16_t b[] = {1000, -20000, 15000};
  int16_t out[6] = {0};
  const int16_t expected[] = {-18400, 7280, -6000, -397, 8466, 13660};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Int16Tensor(a, shape_a, 0.0003f), Int16Tensor(b, shape_b, 0.0002f),
                                         Int16Tensor(out, shape_a, 0.0005f)));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(Int16ScaleRatiosInDouble) {
  // A result 0.5002 of a step above 1330: with the scale ratios computed in
  // float instead of double (as TFLM's sub.cc reads) it comes out 1331.
  const int32_t shape[] = {1, 1};
  int16_t a[] = {-31708};
  int16_t b[] = {-21645};
  int16_t out[1] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Int16Tensor(a, shape, 0.02366659790277481f), Int16Tensor(b, shape, 0.03878922760486603f),
                                         Int16Tensor(out, shape, 0.06702170521020889f)));
  TF_LITE_MICRO_EXPECT_EQ(1330, out[0]);
}

TF_LITE_MICRO_TEST(BadQuantizationFailsInPrepare) {
  const int32_t shape[] = {1, 3};
  int16_t a[3] = {0};
  int16_t b[3] = {0};
  int16_t out[3] = {0};
  // int16 needs zero point 0.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Int16Tensor(a, shape, 0.01f, 3), Int16Tensor(b, shape, 0.01f),
                                            Int16Tensor(out, shape, 0.01f)));
  // An output scale so small that the output multiplier reaches 1 (TFLite aborts there).
  int8_t q1[3] = {0};
  int8_t q2[3] = {0};
  int8_t q3[3] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q1, dims, 0.5f, 0), CreateQuantizedTensor(q2, dims, 0.5f, 0),
                                            CreateQuantizedTensor(q3, dims, 1e-7f, 0)));
  // No scale.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q1, dims, 0.5f, 0), CreateQuantizedTensor(q2, dims, 0.0f, 0),
                                            CreateQuantizedTensor(q3, dims, 0.5f, 0)));
  // Unsupported type.
  int32_t i1[3] = {0};
  int32_t i2[3] = {0};
  int32_t i3[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(i1, dims), CreateTensor(i2, dims), CreateTensor(i3, dims)));
}

// Every int8 input pair against TFLite's formula, for pseudo-random and edge
// quantization parameter sets (add_sub_exhaustive_test_util.h): the DSP
// cores' fast path without broadcasting (arm_dsp/add_sub_int8.cc) and the
// general path where it declines.
TF_LITE_MICRO_TEST(Int8AllPairsSameShape) {
  add_sub_exhaustive::ExpectRandomSets(Register_SUB(), true, 0x9E3779B9u, 24);
}

TF_LITE_MICRO_TESTS_END
