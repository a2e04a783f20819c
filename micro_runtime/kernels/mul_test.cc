// MUL kernel tests. Float expectations are hand-computed (or computed in the
// test by explicit loops over the broadcast indices); int8 expectations come
// from the TFLM reference interpreter (tflite-micro Python package) running
// one-op MUL models with the same quantization (LiteRT agrees on these).
#include "micro_runtime/builtin_options.h"
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
  return RunBinaryKernel(Register_MUL(), a, b, out, &params);
}

void CheckInt8(const BinaryInt8Case& c, int8_t* in1, int8_t* in2, const int8_t* expected) {
  ExpectBinaryInt8(Register_MUL(), c, in1, in2, expected);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatSameShapeAndActivations) {
  const int32_t shape[] = {4, 1, 2, 2, 1};
  float a[] = {-2.0f, 0.2f, 0.7f, 8.0f};
  float b[] = {0.1f, 0.2f, -3.0f, 1.0f};
  float out[4] = {0};
  const float none[] = {-0.2f, 0.04f, -2.1f, 8.0f};
  const float relu[] = {0.0f, 0.04f, 0.0f, 8.0f};
  const float relu6[] = {0.0f, 0.04f, 0.0f, 6.0f};
  const float relu_n1_to_1[] = {-0.2f, 0.04f, -1.0f, 1.0f};
  const TfLiteFusedActivation acts[] = {kTfLiteActNone, kTfLiteActRelu, kTfLiteActRelu6, kTfLiteActReluN1To1};
  const float* expected[] = {none, relu, relu6, relu_n1_to_1};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  for (int k = 0; k < 4; ++k) {
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, dims), CreateTensor(b, dims),
                                           CreateTensor(out, dims), acts[k]));
    for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[k][i], out[i], 1e-6f);
  }
}

TF_LITE_MICRO_TEST(FloatBroadcast) {
  // [2,1,3] * [1,2,1] -> [2,2,3]: out[i][j][k] = a[i][k] * b[j].
  const int32_t shape_a[] = {3, 2, 1, 3};
  const int32_t shape_b[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  float a[] = {1, 2, 3, 10, 20, 30};
  float b[] = {2, -1};
  float out[12] = {0};
  const float expected[] = {2, 4, 6, -1, -2, -3, 20, 40, 60, -10, -20, -30};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out)), kTfLiteActNone));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

TF_LITE_MICRO_TEST(FloatBroadcast6D) {
  // [1,2,1,2,1,2] * [2,1,2,1,2,1] -> [2,2,2,2,2,2], checked with explicit loops.
  const int32_t shape_a[] = {6, 1, 2, 1, 2, 1, 2};
  const int32_t shape_b[] = {6, 2, 1, 2, 1, 2, 1};
  const int32_t shape_out[] = {6, 2, 2, 2, 2, 2, 2};
  float a[8];
  float b[8];
  float out[64] = {0};
  for (int i = 0; i < 8; ++i) {
    a[i] = static_cast<float>(i + 1);
    b[i] = static_cast<float>(10 * (i + 1));
  }
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(a, IntArrayFromInts(shape_a)),
                                         CreateTensor(b, IntArrayFromInts(shape_b)),
                                         CreateTensor(out, IntArrayFromInts(shape_out)), kTfLiteActNone));
  int o = 0;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 2; ++i1)
      for (int i2 = 0; i2 < 2; ++i2)
        for (int i3 = 0; i3 < 2; ++i3)
          for (int i4 = 0; i4 < 2; ++i4)
            for (int i5 = 0; i5 < 2; ++i5, ++o) {
              const float expected = a[i1 * 4 + i3 * 2 + i5] * b[i0 * 4 + i2 * 2 + i4];
              TF_LITE_MICRO_EXPECT_EQ(expected, out[o]);
            }
}

TF_LITE_MICRO_TEST(Int8SameShape) {
  const int32_t shape[] = {4, 1, 2, 2, 2};
  const BinaryInt8Case c = {shape, shape, shape, 0.05f, 0.02f, 0.06f, -3, 10, -5, kTfLiteActNone};
  int8_t in1[] = {13, 2, 126, 78, 74, 51, 31, -41};
  int8_t in2[] = {125, -9, -73, 88, -87, 91, 28, -99};
  const int8_t expected[] = {26, -7, -128, 100, -128, 68, 5, 64};
  CheckInt8(c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8BroadcastRelu) {
  const int32_t shape1[] = {3, 2, 1, 3};
  const int32_t shape2[] = {3, 1, 2, 1};
  const int32_t shape_out[] = {3, 2, 2, 3};
  const BinaryInt8Case c = {shape1, shape2, shape_out, 0.1f, 0.03f, 0.05f, 0, -20, -30, kTfLiteActRelu};
  int8_t in1[] = {-94, -96, 76, -1, 23, 25};
  int8_t in2[] = {54, -121};
  const int8_t expected[] = {-30, -30, 127, 127, 127, -30, -30, 72, 81, -24, -30, -30};
  CheckInt8(c, in1, in2, expected);
}

TF_LITE_MICRO_TEST(Int8ScalarRelu6) {
  const int32_t shape1[] = {2, 2, 3};
  const int32_t scalar[] = {0};
  const BinaryInt8Case c = {shape1, scalar, shape1, 0.04f, 0.05f, 0.03f, 5, -1, -100, kTfLiteActRelu6};
  int8_t in1[] = {-4, -91, -26, 109, 12, -110};
  int8_t in2[] = {40};
  const int8_t expected[] = {-100, -100, -100, 100, -81, -100};
  CheckInt8(c, in1, in2, expected);
}

// int16 (version 4): expected values from TFLM on the same one-op model.
TF_LITE_MICRO_TEST(Int16SaturatesAndRounds) {
  const int32_t shape[] = {1, 8};
  int16_t x[] = {-32768, -1000, -3, 0, 7, 250, 4000, 32767};
  int16_t y[] = {32767, 3000, -20000, 5, -7, 250, -4000, 32767};
  int16_t out[8] = {0};
  const int16_t expected[] = {-32768, -180, 4, 0, 0, 4, -960, 32767};
  using kernel_cases::Int16Tensor;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Int16Tensor(x, shape, 0.0002f), Int16Tensor(y, shape, 0.0003f),
                                         Int16Tensor(out, shape, 0.001f), kTfLiteActNone));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
  // TFLM requires int16 zero points of 0.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Int16Tensor(x, shape, 0.0002f), Int16Tensor(y, shape, 0.0003f, -1),
                                            Int16Tensor(out, shape, 0.001f), kTfLiteActNone));
}

TF_LITE_MICRO_TEST(BadInputsFailInPrepare) {
  const int32_t shape23[] = {2, 2, 3};
  const int32_t shape3[] = {1, 3};
  const int32_t shape2[] = {1, 2};
  float a[6] = {0};
  float b[3] = {0};
  float out[6] = {0};
  int32_t i1[6] = {0};
  int32_t i2[6] = {0};
  int32_t i3[6] = {0};
  int8_t q1[6] = {0};
  int8_t q2[6] = {0};
  int8_t q3[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(i1, IntArrayFromInts(shape23)),
                                            CreateTensor(i2, IntArrayFromInts(shape23)),
                                            CreateTensor(i3, IntArrayFromInts(shape23)), kTfLiteActNone));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(a, IntArrayFromInts(shape23)),
                                            CreateTensor(b, IntArrayFromInts(shape2)),
                                            CreateTensor(out, IntArrayFromInts(shape23)), kTfLiteActNone));
  // Broadcast of [2,3] and [3] is [2,3], not [3].
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(a, IntArrayFromInts(shape23)),
                                            CreateTensor(b, IntArrayFromInts(shape3)),
                                            CreateTensor(out, IntArrayFromInts(shape3)), kTfLiteActNone));
  // int8 with a zero output scale.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          Run(CreateQuantizedTensor(q1, IntArrayFromInts(shape23), 0.1f, 0),
                              CreateQuantizedTensor(q2, IntArrayFromInts(shape23), 0.1f, 0),
                              CreateQuantizedTensor(q3, IntArrayFromInts(shape23), 0.0f, 0), kTfLiteActNone));
}

TF_LITE_MICRO_TESTS_END
