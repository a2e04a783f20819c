// UNPACK kernel tests: expected outputs are the input's slices taken by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// Input tensors[0], outputs tensors[1 .. count].
TfLiteStatus RunUnpack(TfLiteTensor* tensors, int count, const TfLiteUnpackParams* params) {
  const int32_t inputs[] = {1, 0};
  int32_t outputs[5] = {count, 1, 2, 3, 4};
  return RunKernel(Register_UNPACK(), tensors, count + 1, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                   params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatEveryAxis) {
  const int32_t in_shape[] = {3, 2, 3, 2};
  float input[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  // axis 0: 2 outputs [3, 2]; axis 1: 3 outputs [2, 2]; axis 2: 2 outputs [2, 3].
  const int32_t out_shapes[3][3] = {{2, 3, 2}, {2, 2, 2}, {2, 2, 3}};
  const int counts[3] = {2, 3, 2};
  const float expected[3][12] = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
                                 {1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12},
                                 {1, 3, 5, 7, 9, 11, 2, 4, 6, 8, 10, 12}};
  for (int axis = 0; axis < 3; ++axis) {
    for (int negative = 0; negative < 2; ++negative) {
      float outputs[3][6] = {};
      TfLiteTensor tensors[4] = {CreateTensor(input, IntArrayFromInts(in_shape))};
      const int count = counts[axis];
      for (int i = 0; i < count; ++i) tensors[i + 1] = CreateTensor(outputs[i], IntArrayFromInts(out_shapes[axis]));
      TfLiteUnpackParams params = {count, negative ? axis - 3 : axis};
      TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnpack(tensors, count, &params));
      const int per = 12 / count;
      for (int i = 0; i < count; ++i) {
        for (int j = 0; j < per; ++j) TF_LITE_MICRO_EXPECT_EQ(expected[axis][i * per + j], outputs[i][j]);
      }
    }
  }
}

TF_LITE_MICRO_TEST(Int8AndInt16) {
  const int32_t in_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {1, 2};
  int8_t input[] = {-128, 1, 2, 127};
  int8_t a[2];
  int8_t b[2];
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.5f, 7),
                            CreateQuantizedTensor(a, IntArrayFromInts(out_shape), 0.5f, 7),
                            CreateQuantizedTensor(b, IntArrayFromInts(out_shape), 0.5f, 7)};
  TfLiteUnpackParams params = {2, -1};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnpack(tensors, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(-128, a[0]);
  TF_LITE_MICRO_EXPECT_EQ(2, a[1]);
  TF_LITE_MICRO_EXPECT_EQ(1, b[0]);
  TF_LITE_MICRO_EXPECT_EQ(127, b[1]);
  tensors[2].params.scale = 0.25f;  // no requantization
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));

  int16_t input16[] = {-32768, 5, -5, 32767};
  int16_t c[2];
  int16_t d[2];
  TfLiteTensor t16[] = {CreateTensor(input16, IntArrayFromInts(in_shape)), CreateTensor(c, IntArrayFromInts(out_shape)),
                        CreateTensor(d, IntArrayFromInts(out_shape))};
  params.axis = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnpack(t16, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(-32768, c[0]);
  TF_LITE_MICRO_EXPECT_EQ(5, c[1]);
  TF_LITE_MICRO_EXPECT_EQ(-5, d[0]);
  TF_LITE_MICRO_EXPECT_EQ(32767, d[1]);
}

TF_LITE_MICRO_TEST(BadCountsAxesAndShapesFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t out_shape[] = {1, 3};
  float input[6] = {0};
  float a[3] = {0};
  float b[3] = {0};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)), CreateTensor(a, IntArrayFromInts(out_shape)),
                            CreateTensor(b, IntArrayFromInts(out_shape))};
  TfLiteUnpackParams params = {2, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunUnpack(tensors, 2, &params));
  params = {3, 0};  // num is not the output count
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  params = {-1, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  params = {2, 1};  // dimension 1 is 3, not 2
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  params = {2, 2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  params = {2, -3};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  const int32_t wrong[] = {1, 2};
  tensors[2] = CreateTensor(b, IntArrayFromInts(wrong));
  params = {2, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunUnpack(tensors, 2, nullptr));
}

TF_LITE_MICRO_TESTS_END
