// PACK kernel tests: expected outputs are the inputs stacked by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatThreeInputsEveryAxis) {
  const int32_t in_shape[] = {2, 2, 2};
  float a[] = {1, 2, 3, 4};
  float b[] = {5, 6, 7, 8};
  float c[] = {9, 10, 11, 12};
  float output[12];
  // axis 0: [3, 2, 2]; axis 1 (and -2): [2, 3, 2]; axis 2 (and -1): [2, 2, 3].
  const int32_t shapes[3][4] = {{3, 3, 2, 2}, {3, 2, 3, 2}, {3, 2, 2, 3}};
  const float expected[3][12] = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
                                 {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12},
                                 {1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12}};
  for (int axis = 0; axis < 3; ++axis) {
    for (int negative = 0; negative < 2; ++negative) {
      TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(in_shape)),
                                CreateTensor(b, IntArrayFromInts(in_shape)),
                                CreateTensor(c, IntArrayFromInts(in_shape)),
                                CreateTensor(output, IntArrayFromInts(shapes[axis]))};
      TfLitePackParams params = {3, negative ? axis - 3 : axis};
      TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), tensors, 3, &params));
      for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[axis][i], output[i]);
    }
  }
}

TF_LITE_MICRO_TEST(Int8Int16Int32) {
  const int32_t in_shape[] = {1, 2};
  const int32_t out_shape[] = {2, 2, 2};
  TfLitePackParams params = {2, 1};
  int8_t qa[] = {-128, 127};
  int8_t qb[] = {3, -4};
  int8_t qout[4];
  TfLiteTensor q8[] = {CreateQuantizedTensor(qa, IntArrayFromInts(in_shape), 0.25f, -3),
                       CreateQuantizedTensor(qb, IntArrayFromInts(in_shape), 0.25f, -3),
                       CreateQuantizedTensor(qout, IntArrayFromInts(out_shape), 0.25f, -3)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), q8, 2, &params));
  const int8_t q8_expected[] = {-128, 3, 127, -4};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(q8_expected[i], qout[i]);
  // No requantization: another zero point is refused.
  q8[1].params.zero_point = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), q8, 2, &params));

  int16_t sa[] = {-32768, 32767};
  int16_t sb[] = {1, -1};
  int16_t sout[4];
  TfLiteTensor s16[] = {CreateTensor(sa, IntArrayFromInts(in_shape)), CreateTensor(sb, IntArrayFromInts(in_shape)),
                        CreateTensor(sout, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), s16, 2, &params));
  const int16_t s16_expected[] = {-32768, 1, 32767, -1};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(s16_expected[i], sout[i]);

  int32_t ia[] = {100000, -7};
  int32_t ib[] = {-100000, 8};
  int32_t iout[4];
  TfLiteTensor i32[] = {CreateTensor(ia, IntArrayFromInts(in_shape)), CreateTensor(ib, IntArrayFromInts(in_shape)),
                        CreateTensor(iout, IntArrayFromInts(out_shape))};
  params.axis = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), i32, 2, &params));
  const int32_t i32_expected[] = {100000, -7, -100000, 8};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(i32_expected[i], iout[i]);
}

TF_LITE_MICRO_TEST(BadCountsAxesAndShapesFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 1};
  const int32_t out_shape[] = {3, 2, 2, 1};
  float a[2] = {0};
  float b[2] = {0};
  float output[4] = {0};
  TfLiteTensor tensors[] = {CreateTensor(a, IntArrayFromInts(in_shape)), CreateTensor(b, IntArrayFromInts(in_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TfLitePackParams params = {2, 1};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {3, 1};  // values_count is not the input count
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {0, 1};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {2, 3};  // outside [-3, 3)
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {2, -4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {2, 0};  // output [2, 2, 1] without axis 0 is the inputs' [2, 1]
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  params = {2, 2};  // output dimension 2 is 1, not the count 2
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  const int32_t wrong[] = {2, 1, 2};
  tensors[1] = CreateTensor(b, IntArrayFromInts(wrong));
  params = {2, 1};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_PACK(), tensors, 2, nullptr));
}

TF_LITE_MICRO_TESTS_END
