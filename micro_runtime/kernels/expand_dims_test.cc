// EXPAND_DIMS kernel tests: the data is the input's bytes unchanged; what is
// checked is which axes and output shapes prepare accepts.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus ExpandDims(const int32_t* in_shape, int32_t axis, const int32_t* out_shape, float* input,
                        float* output) {
  static const int32_t kOne[] = {1, 1};
  static int32_t axis_data[1];
  axis_data[0] = axis;
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(axis_data, IntArrayFromInts(kOne), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  return RunKernelOnTensors(Register_EXPAND_DIMS(), tensors, 2);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ExpandDimsAtEveryPosition) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t front[] = {3, 1, 2, 3};
  const int32_t middle[] = {3, 2, 1, 3};
  const int32_t back[] = {3, 2, 3, 1};
  float input[] = {1.5f, -2, 3, 4, 5, 6};
  float output[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ExpandDims(in_shape, 0, front, input, output));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], output[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ExpandDims(in_shape, -2, middle, input, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ExpandDims(in_shape, -1, back, input, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ExpandDims(in_shape, 2, back, input, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, ExpandDims(in_shape, 1, back, input, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, ExpandDims(in_shape, 3, back, input, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, ExpandDims(in_shape, -4, front, input, output));
}

TF_LITE_MICRO_TESTS_END
