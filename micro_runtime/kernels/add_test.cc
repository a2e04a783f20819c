// ADD kernel tests. Float expectations are hand-computed (or computed in the
// test by explicit nested loops over the broadcast indices); int8
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running one-op ADD models with the same quantization.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/add_sub_exhaustive_test_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using kernel_cases::BinaryInt8Case;
using kernel_cases::ExpectBinaryInt8;

TfLiteStatus Run(TfLiteTensor a, TfLiteTensor b, TfLiteTensor out, TfLiteFusedActivation act) {
  const TfLiteArithmeticParams params = {act};
  return RunBinaryKernel(Register_ADD(), a, b, out, &params);
}

void CheckInt8(const BinaryInt8Case& c, int8_t* in1, int8_t* in2, const int8_t* expected) {
  ExpectBinaryInt8(Register_ADD(), c, in1, in2, expected);
}

const int32_t kShape4[] = {4, 1, 2, 2, 1};
float g_a[] = {-2.0f, 0.2f, 0.7f, 0.8f};
float g_b[] = {0.1f, 0.2f, 0.3f, 0.5f};

void CheckFloatActivation(TfLiteFusedActivation act, const float* expected) {
  float out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(kShape4);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(g_a, dims), CreateTensor(g_b, dims),
                                         CreateTensor(out, dims), act));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], out[i], 1e-6f);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatSameShape) {
  const float expected[] = {-1.9f, 0.4f, 1.0f, 1.3f};
  CheckFloatActivation(kTfLiteActNone, expected);
}

TF_LITE_MICRO_TEST(FloatActivations) {
  const float relu[] = {0.0f, 0.4f, 1.0f, 1.3f};
  const float relu_n1_to_1[] = {-1.0f, 0.4f, 1.0f, 1.0f};
  CheckFloatActivation(kTfLiteActRelu, relu);
  CheckFloatActivation(kTfLiteActReluN1To1, relu_n1_to_1);
  g_b[3] = 5.5f;  // 0.8 + 5.5 = 6.3 -> 6
  const float relu6[] = {0.0f, 0.4f, 1.0f, 6.0f};
  CheckFloatActivation(kTfLiteActRelu6, relu6);
  g_b[3] = 0.5f;
}

TF_LITE_MICRO_TEST(FloatBroadcastBothSides) {
  // [2,1,3] + [1,2,1] -> [2,2,3]: out[i][j][k] = a[i][k] + b[j].
  const int32_t shape_a[] = {3, 2, 1, 3};
  const int32_t shape_b[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  float a[] = {1, 2, 3, 10, 20, 30};
  float b[] = {100, 200};
  float out[12] = {0};
  const float expected[] = {101, 102, 103, 201, 202, 203, 110, 120, 130, 210, 220, 230};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out)), kTfLiteActNone));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(FloatScalarAndLowerRank) {
  // A rank-0 scalar on the left, and a [3] row added to every row of [2,3].
  const int32_t scalar[] = {0};
  const int32_t row[] = {1, 3};
  const int32_t matrix[] = {2, 2, 3};
  float s[] = {0.5f};
  float m[] = {1, 2, 3, 4, 5, 6};
  float r[] = {10, 20, 30};
  float out[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(s, IntArrayFromInts(scalar)),
                                         CreateTensor(m, IntArrayFromInts(matrix)),
                                         CreateTensor(out, IntArrayFromInts(matrix)), kTfLiteActNone));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(m[i] + 0.5f, out[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(m, IntArrayFromInts(matrix)),
                                         CreateTensor(r, IntArrayFromInts(row)),
                                         CreateTensor(out, IntArrayFromInts(matrix)), kTfLiteActNone));
  const float expected[] = {11, 22, 33, 14, 25, 36};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(FloatBroadcast5D) {
  // [2,1,2,1,2] + [2,1,2,1] -> [2,2,2,2,2], checked against explicit loops.
  const int32_t shape_a[] = {5, 2, 1, 2, 1, 2};
  const int32_t shape_b[] = {4, 2, 1, 2, 1};
  const int32_t shape_out[] = {5, 2, 2, 2, 2, 2};
  float a[8];
  float b[4];
  float out[32] = {0};
  for (int i = 0; i < 8; ++i) a[i] = static_cast<float>(i);
  for (int i = 0; i < 4; ++i) b[i] = 100.0f * static_cast<float>(i + 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out)), kTfLiteActNone));
  int o = 0;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 2; ++i1)
      for (int i2 = 0; i2 < 2; ++i2)
        for (int i3 = 0; i3 < 2; ++i3)
          for (int i4 = 0; i4 < 2; ++i4, ++o) {
            // a[i0][0][i2][0][i4], b[i1][0][i3][0] (b is right-aligned: dims 1..4).
            const float expected = a[i0 * 4 + i2 * 2 + i4] + b[i1 * 2 + i3];
            TF_LITE_MICRO_EXPECT_EQ(expected, out[o]);
          }
}

TF_LITE_MICRO_TEST(Int8SameShape) {
  const int32_t shape[] = {4, 1, 2, 2, 2};
  const BinaryInt8Case c = {shape, shape, shape, 0.05f, 0.02f, 0.06f, -3, 10, -5, kTfLiteActNone};
  int8_t in1[] = {113, 32, 47, 101, 20, 70, 85, -71};
  int8_t in2[] = {-114, -52, -56, 95, 105, -127, -1, 82};
  const int8_t expected[] = {50, 4, 15, 110, 46, 10, 65, -38};
  CheckInt8(c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8BroadcastRelu) {
  const int32_t shape1[] = {3, 2, 1, 3};
  const int32_t shape2[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  const BinaryInt8Case c = {shape1, shape2, shape_out, 0.1f, 0.03f, 0.08f, 0, -20, -128, kTfLiteActRelu};
  int8_t in1[] = {-95, 76, -98, -9, 81, -51};
  int8_t in2[] = {-41, -57};
  const int8_t expected[] = {-128, -41, -128, -128, -47, -128, -128, -35, -128, -128, -41, -128};
  CheckInt8(c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8ScalarRelu6) {
  const int32_t shape1[] = {2, 2, 3};
  const int32_t scalar[] = {0};
  const BinaryInt8Case c = {shape1, scalar, shape1, 0.04f, 0.05f, 0.03f, 5, -1, -100, kTfLiteActRelu6};
  int8_t in1[] = {56, -63, 125, -15, -6, 1};
  int8_t in2[] = {21};
  const int8_t expected[] = {5, -100, 97, -90, -78, -69};
  CheckInt8(c, in1, in2, expected);
}

// int16 (16x8 models' ADD): expected values from TFLM on the same one-op
// model (version 3, pot_scale_int16 false; TFLM takes the general path for
// every int16 ADD).
TF_LITE_MICRO_TEST(Int16BroadcastAndRelu6) {
  const int32_t shape_a[] = {3, 2, 1, 3};
  const int32_t shape_b[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  int16_t a[] = {-30000, -1200, 0, 5, 777, 32767};
  int16_t b[] = {1000, -20000};
  int16_t out[12] = {0};
  const int16_t none[] = {-19533, -333, 467, -29333, -10133, -9333, 470, 985, 22311, -9330, -8815, 12511};
  const int16_t relu6[] = {0, 0, 467, 0, 0, 0, 470, 985, 4000, 0, 0, 4000};
  using kernel_cases::Int16Tensor;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Int16Tensor(a, shape_a, 0.001f), Int16Tensor(b, shape_b, 0.0007f),
                                         Int16Tensor(out, shape_out, 0.0015f), kTfLiteActNone));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(none[i], out[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Int16Tensor(a, shape_a, 0.001f), Int16Tensor(b, shape_b, 0.0007f),
                                         Int16Tensor(out, shape_out, 0.0015f), kTfLiteActRelu6));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(relu6[i], out[i]);
  // int16 activations are symmetric: a zero point is refused.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Int16Tensor(a, shape_a, 0.001f, 4), Int16Tensor(b, shape_b, 0.0007f),
                                            Int16Tensor(out, shape_out, 0.0015f), kTfLiteActNone));
}

TF_LITE_MICRO_TEST(BadInputsFailInPrepare) {
  const int32_t shape23[] = {2, 2, 3};
  const int32_t shape32[] = {2, 3, 2};
  const int32_t shape22[] = {2, 2, 2};
  float a[6] = {0};
  float b[6] = {0};
  float out[6] = {0};
  int32_t s1[6] = {0};
  int32_t s2[6] = {0};
  int32_t s3[6] = {0};
  int8_t q[6] = {0};
  // Unsupported type (int32).
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(s1, IntArrayFromInts(shape23)),
                                            CreateTensor(s2, IntArrayFromInts(shape23)),
                                            CreateTensor(s3, IntArrayFromInts(shape23)), kTfLiteActNone));
  // Mixed types.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(a, IntArrayFromInts(shape23)),
                                            CreateQuantizedTensor(q, IntArrayFromInts(shape23), 0.1f, 0),
                                            CreateTensor(out, IntArrayFromInts(shape23)), kTfLiteActNone));
  // Shapes that do not broadcast.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(a, IntArrayFromInts(shape23)),
                                            CreateTensor(b, IntArrayFromInts(shape32)),
                                            CreateTensor(out, IntArrayFromInts(shape23)), kTfLiteActNone));
  // Output shape is not the broadcast shape.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(a, IntArrayFromInts(shape23)),
                                            CreateTensor(b, IntArrayFromInts(shape23)),
                                            CreateTensor(out, IntArrayFromInts(shape22)), kTfLiteActNone));
}

TF_LITE_MICRO_TEST(WrongInputCountFails) {
  const int32_t shape[] = {1, 2};
  float a[2] = {0};
  float out[2] = {0};
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(shape)), CreateTensor(out, IntArrayFromInts(shape))};
  const int32_t one_input[] = {1, 0};
  const int32_t output[] = {1, 1};
  const TfLiteArithmeticParams params = {kTfLiteActNone};
  KernelRunner runner(Register_ADD(), tensors, 2, IntArrayFromInts(one_input), IntArrayFromInts(output),
                      &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
}

// Every int8 input pair against TFLite's formula, for pseudo-random and edge
// quantization parameter sets (add_sub_exhaustive_test_util.h): the DSP
// cores' fast path without broadcasting (arm_dsp/add_sub_int8.cc) and the
// general path where it declines.
TF_LITE_MICRO_TEST(Int8AllPairsSameShape) {
  add_sub_exhaustive::ExpectRandomSets(Register_ADD(), false, 0x2545F491u, 24);
}

TF_LITE_MICRO_TESTS_END
