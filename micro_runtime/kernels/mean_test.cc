// MEAN kernel tests. Float expectations are hand-computed; int8 and int16
// expectations come from the TFLM reference interpreter (tflite-micro Python
// package) running the same one-op MEAN models.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus RunMean(TfLiteTensor input, TfLiteTensor axis, TfLiteTensor output, bool keep_dims) {
  TfLiteTensor tensors[] = {input, axis, output};
  TfLiteReducerParams params = {keep_dims};
  return RunKernelOnTensors(Register_MEAN(), tensors, 2, &params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatGlobalAveragePool) {
  const int32_t in_shape[] = {4, 1, 2, 2, 2};
  const int32_t out_shape[] = {4, 1, 1, 1, 2};
  const int32_t axis_shape[] = {1, 2};
  int32_t axes[] = {1, 2};
  float input[] = {1, 10, 2, 20, 3, 30, 4, 41};
  float output[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunMean(CreateTensor(input, IntArrayFromInts(in_shape)),
                                             CreateTensor(axes, IntArrayFromInts(axis_shape), true),
                                             CreateTensor(output, IntArrayFromInts(out_shape)), true));
  TF_LITE_MICRO_EXPECT_EQ(2.5f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(25.25f, output[1]);
}

TF_LITE_MICRO_TEST(FloatNegativeAndRepeatedAxesWithoutKeepDims) {
  const int32_t in_shape[] = {3, 2, 3, 2};
  const int32_t out_shape[] = {1, 3};
  const int32_t axis_shape[] = {1, 3};
  int32_t axes[] = {0, -1, 2};  // axis 2 twice: counted once
  float input[12];
  for (int i = 0; i < 12; ++i) input[i] = static_cast<float>(i);
  float output[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunMean(CreateTensor(input, IntArrayFromInts(in_shape)),
                                             CreateTensor(axes, IntArrayFromInts(axis_shape), true),
                                             CreateTensor(output, IntArrayFromInts(out_shape)), false));
  // Row j averages elements 2j, 2j + 1, 6 + 2j, 7 + 2j.
  TF_LITE_MICRO_EXPECT_EQ(3.5f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(5.5f, output[1]);
  TF_LITE_MICRO_EXPECT_EQ(7.5f, output[2]);
}

TF_LITE_MICRO_TEST(Int8MatchesTflm) {
  const int32_t in_shape[] = {4, 1, 2, 3, 2};
  const int32_t out_shape[] = {4, 1, 1, 1, 2};
  const int32_t axis_shape[] = {1, 2};
  int32_t axes[] = {1, 2};
  int8_t input[] = {-128, -100, -50, 0, 5, 60, 127, -7, 90, 33, -1, -77};
  int8_t output[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunMean(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.05f, 3),
                                             CreateTensor(axes, IntArrayFromInts(axis_shape), true),
                                             CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.03f, -5),
                                             true));
  TF_LITE_MICRO_EXPECT_EQ(2, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(-36, output[1]);
}

TF_LITE_MICRO_TEST(Int8TwoAxesMatchesTflm) {
  const int32_t in_shape[] = {3, 2, 3, 4};
  const int32_t out_shape[] = {1, 3};
  const int32_t axis_shape[] = {1, 2};
  int32_t axes[] = {0, -1};
  int8_t input[24];
  for (int i = 0; i < 24; ++i) input[i] = static_cast<int8_t>(i * 5 - 60);
  int8_t output[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunMean(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.02f, -4),
                                             CreateTensor(axes, IntArrayFromInts(axis_shape), true),
                                             CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.015f, 7),
                                             false));
  const int8_t expected[] = {-18, 9, 36};
  for (int i = 0; i < 3; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int16MatchesTflm) {
  const int32_t in_shape[] = {2, 2, 5};
  const int32_t out_shape[] = {1, 2};
  const int32_t axis_shape[] = {1, 1};
  int32_t axes[] = {1};
  int16_t input[] = {-32768, -1000, 0, 999, 32767, 12345, -23456, 7, -7, 30000};
  int16_t output[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunMean(kernel_cases::Int16Tensor(input, in_shape, 1e-3f),
                                             CreateTensor(axes, IntArrayFromInts(axis_shape), true),
                                             kernel_cases::Int16Tensor(output, out_shape, 7e-4f), false));
  TF_LITE_MICRO_EXPECT_EQ(-1, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(5397, output[1]);
}

TF_LITE_MICRO_TEST(BadAxesAndShapesFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t out_shape[] = {1, 2};
  const int32_t wrong_out[] = {1, 3};
  const int32_t axis_shape[] = {1, 1};
  float input[6] = {0};
  float output[3] = {0};
  int32_t axis_out_of_range[] = {2};
  int32_t axis_one[] = {1};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunMean(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                CreateTensor(axis_out_of_range, IntArrayFromInts(axis_shape), true),
                                                CreateTensor(output, IntArrayFromInts(out_shape)), false));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunMean(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                CreateTensor(axis_one, IntArrayFromInts(axis_shape), true),
                                                CreateTensor(output, IntArrayFromInts(wrong_out)), false));
  // keep_dims needs the reduced axis kept as size 1.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunMean(CreateTensor(input, IntArrayFromInts(in_shape)),
                                                CreateTensor(axis_one, IntArrayFromInts(axis_shape), true),
                                                CreateTensor(output, IntArrayFromInts(out_shape)), true));
  int32_t input_i32[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunMean(CreateTensor(input_i32, IntArrayFromInts(in_shape)),
                                                CreateTensor(axis_one, IntArrayFromInts(axis_shape), true),
                                                CreateTensor(input_i32, IntArrayFromInts(out_shape)), false));
}

TF_LITE_MICRO_TESTS_END
