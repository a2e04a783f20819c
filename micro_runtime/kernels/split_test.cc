// SPLIT kernel tests: expected outputs are the input's parts taken by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// Inputs tensors[0] (axis), tensors[1] (input); outputs tensors[2 .. count+1].
TfLiteStatus RunSplit(TfLiteTensor* tensors, int count, const TfLiteSplitParams* params) {
  const int32_t inputs[] = {2, 0, 1};
  int32_t outputs[5] = {count, 2, 3, 4, 5};
  return RunKernel(Register_SPLIT(), tensors, count + 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                   params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatMiddleAndNegativeAxis) {
  const int32_t scalar[] = {0};
  const int32_t in_shape[] = {3, 2, 4, 1};
  const int32_t out_shape[] = {3, 2, 2, 1};
  float input[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float a[4];
  float b[4];
  const int32_t axes[] = {1, -2};
  for (int32_t axis : axes) {
    TfLiteTensor tensors[] = {CreateTensor(&axis, IntArrayFromInts(scalar), true),
                              CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(a, IntArrayFromInts(out_shape)), CreateTensor(b, IntArrayFromInts(out_shape))};
    TfLiteSplitParams params = {2};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunSplit(tensors, 2, &params));
    const float ea[] = {1, 2, 5, 6};
    const float eb[] = {3, 4, 7, 8};
    for (int i = 0; i < 4; ++i) {
      TF_LITE_MICRO_EXPECT_EQ(ea[i], a[i]);
      TF_LITE_MICRO_EXPECT_EQ(eb[i], b[i]);
    }
  }
}

TF_LITE_MICRO_TEST(Int8ThreeParts) {
  const int32_t scalar[] = {0};
  const int32_t in_shape[] = {1, 3};
  const int32_t out_shape[] = {1, 1};
  int32_t axis = 0;
  int8_t input[] = {-128, 0, 127};
  int8_t out[3][1];
  TfLiteTensor tensors[] = {CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, -2),
                            CreateQuantizedTensor(out[0], IntArrayFromInts(out_shape), 0.1f, -2),
                            CreateQuantizedTensor(out[1], IntArrayFromInts(out_shape), 0.1f, -2),
                            CreateQuantizedTensor(out[2], IntArrayFromInts(out_shape), 0.1f, -2)};
  TfLiteSplitParams params = {3};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunSplit(tensors, 3, &params));
  TF_LITE_MICRO_EXPECT_EQ(-128, out[0][0]);
  TF_LITE_MICRO_EXPECT_EQ(0, out[1][0]);
  TF_LITE_MICRO_EXPECT_EQ(127, out[2][0]);
  tensors[3].params.zero_point = 0;  // no requantization
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 3, &params));
}

TF_LITE_MICRO_TEST(BadAxesCountsAndShapesFailInPrepare) {
  const int32_t scalar[] = {0};
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t out_shape[] = {2, 1, 3};
  int32_t axis = 0;
  float input[6] = {0};
  float a[3];
  float b[3];
  TfLiteTensor tensors[] = {CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(input, IntArrayFromInts(in_shape)), CreateTensor(a, IntArrayFromInts(out_shape)),
                            CreateTensor(b, IntArrayFromInts(out_shape))};
  TfLiteSplitParams params = {2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunSplit(tensors, 2, &params));
  axis = 1;  // 3 does not split in 2; and the output shapes differ
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
  axis = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
  axis = -3;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
  axis = 0;
  params.num_splits = 3;  // not the output count
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
  params.num_splits = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, nullptr));
  params.num_splits = 2;
  tensors[0].is_constant = false;  // micro_runtime needs a constant axis
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplit(tensors, 2, &params));
}

TF_LITE_MICRO_TESTS_END
