// SPLIT_V kernel tests: expected outputs are the input's parts taken by hand.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// Inputs tensors[0] (input), [1] (size_splits), [2] (axis); outputs tensors[3 .. count+2].
TfLiteStatus RunSplitV(TfLiteTensor* tensors, int count, const TfLiteSplitVParams* params) {
  const int32_t inputs[] = {3, 0, 1, 2};
  int32_t outputs[5] = {count, 3, 4, 5, 6};
  return RunKernel(Register_SPLIT_V(), tensors, count + 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                   params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(UnequalPartsWithAnUnknownSize) {
  const int32_t in_shape[] = {2, 2, 4};
  const int32_t sizes_shape[] = {1, 3};
  const int32_t scalar[] = {0};
  const int32_t a_shape[] = {2, 2, 1};
  const int32_t b_shape[] = {2, 2, 0};
  const int32_t c_shape[] = {2, 2, 3};
  int16_t input[] = {1, 2, 3, 4, 5, 6, 7, 8};
  int16_t a[2];
  int16_t b[1];
  int16_t c[6];
  for (int unknown = 0; unknown < 2; ++unknown) {
    int32_t sizes[] = {1, 0, unknown ? -1 : 3};
    int32_t axis = unknown ? -1 : 1;
    TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(sizes, IntArrayFromInts(sizes_shape), true),
                              CreateTensor(&axis, IntArrayFromInts(scalar), true),
                              CreateTensor(a, IntArrayFromInts(a_shape)), CreateTensor(b, IntArrayFromInts(b_shape)),
                              CreateTensor(c, IntArrayFromInts(c_shape))};
    TfLiteSplitVParams params = {3};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunSplitV(tensors, 3, &params));
    TF_LITE_MICRO_EXPECT_EQ(1, a[0]);
    TF_LITE_MICRO_EXPECT_EQ(5, a[1]);
    const int16_t ec[] = {2, 3, 4, 6, 7, 8};
    for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(ec[i], c[i]);
  }
}

TF_LITE_MICRO_TEST(BadSizesFailInPrepare) {
  const int32_t in_shape[] = {1, 4};
  const int32_t sizes_shape[] = {1, 2};
  const int32_t scalar[] = {0};
  const int32_t a_shape[] = {1, 1};
  const int32_t b_shape[] = {1, 3};
  float input[4] = {0};
  float a[1];
  float b[3];
  int32_t sizes[] = {1, 3};
  int32_t axis = 0;
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(sizes, IntArrayFromInts(sizes_shape), true),
                            CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(a, IntArrayFromInts(a_shape)), CreateTensor(b, IntArrayFromInts(b_shape))};
  TfLiteSplitVParams params = {2};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunSplitV(tensors, 2, &params));
  sizes[1] = 2;  // sum 3 of 4
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  sizes[0] = -1;  // -1 takes 2 but output 0 has 1
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  sizes[1] = -1;  // two unknowns
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  sizes[0] = 5;  // more than the axis, the other -1
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  sizes[0] = -2;
  sizes[1] = 6;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  sizes[0] = 1;
  sizes[1] = 3;
  axis = 1;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
  axis = 0;
  params.num_splits = 3;  // size_splits has 2 entries
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunSplitV(tensors, 2, &params));
}

TF_LITE_MICRO_TESTS_END
