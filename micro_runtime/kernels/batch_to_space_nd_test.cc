// BATCH_TO_SPACE_ND kernel tests: expected outputs laid out by hand (the
// inverse of the SPACE_TO_BATCH_ND examples, then cropped).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// tensors[0] input, tensors[1] block_shape, tensors[2] crops, tensors[3] output.
TfLiteStatus Run(TfLiteTensor* tensors) { return RunKernelOnTensors(Register_BATCH_TO_SPACE_ND(), tensors, 3); }

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBlocksWithoutCrops) {
  const int32_t in_shape[] = {4, 4, 2, 2, 1};
  const int32_t two[] = {1, 2};
  const int32_t crops_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 1, 4, 4, 1};
  float input[] = {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
  int32_t block[] = {2, 2};
  int32_t crops[] = {0, 0, 0, 0};
  float output[16] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(crops, IntArrayFromInts(crops_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  for (int i = 0; i < 16; ++i) TF_LITE_MICRO_EXPECT_EQ(static_cast<float>(i + 1), output[i]);
}

TF_LITE_MICRO_TEST(Int8Crops) {
  // Four 2 x 2 batches interleave to 4 x 4; one row cropped above and below
  // and one column right leave 2 x 3.
  const int32_t in_shape[] = {4, 4, 2, 2, 1};
  const int32_t two[] = {1, 2};
  const int32_t crops_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 1, 2, 3, 1};
  int8_t input[16];
  for (int i = 0; i < 16; ++i) input[i] = static_cast<int8_t>(i + 1);
  int32_t block[] = {2, 2};
  int32_t crops[] = {1, 1, 0, 1};
  int8_t output[6] = {};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.25f, 4),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(crops, IntArrayFromInts(crops_shape), true),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.25f, 4)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  const int8_t expected[] = {9, 13, 10, 3, 7, 4};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  // The interleaved 4 x 4 is {1, 5, 2, 6}, {9, 13, 10, 14}, {3, 7, 4, 8}, {11, 15, 12, 16}: crop one column left.
  crops[2] = 1;
  crops[3] = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  const int8_t left_cropped[] = {13, 10, 14, 7, 4, 8};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(left_cropped[i], output[i]);
}

TF_LITE_MICRO_TEST(ThreeDimensionalAndBatchOrder) {
  // Batch 0 holds rows 0 and 2, batch 1 rows 1 and 3 (NHC, block {2}).
  const int32_t in_shape[] = {3, 2, 2, 2};
  const int32_t one[] = {1, 1};
  const int32_t crops_shape[] = {2, 1, 2};
  const int32_t out_shape[] = {3, 1, 4, 2};
  int64_t input[] = {1, 2, 5, 6, 3, 4, 7, 8};
  int32_t block[] = {2};
  int32_t crops[] = {0, 0};
  int64_t output[8] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(one), true),
                            CreateTensor(crops, IntArrayFromInts(crops_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT(output[i] == i + 1);
  // Four input batches, block {2, 1}: input batch = shift * 2 + output batch.
  const int32_t in4[] = {4, 4, 1, 2, 1};
  const int32_t two[] = {1, 2};
  const int32_t crops4[] = {2, 2, 2};
  const int32_t out4[] = {4, 2, 2, 2, 1};
  int16_t data[] = {1, 2, 5, 6, 3, 4, 7, 8};
  int32_t block4[] = {2, 1};
  int32_t crop_values[] = {0, 0, 0, 0};
  int16_t result[8] = {};
  TfLiteTensor batched[] = {CreateQuantizedTensor(data, IntArrayFromInts(in4), 0.5f, 0),
                            CreateTensor(block4, IntArrayFromInts(two), true),
                            CreateTensor(crop_values, IntArrayFromInts(crops4), true),
                            CreateQuantizedTensor(result, IntArrayFromInts(out4), 0.5f, 0)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(batched));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(i + 1, result[i]);
}

TF_LITE_MICRO_TEST(BadModelsFailInPrepare) {
  const int32_t in_shape[] = {4, 4, 2, 2, 1};
  const int32_t two[] = {1, 2};
  const int32_t crops_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 1, 4, 4, 1};
  const int32_t wrong_shape[] = {4, 1, 4, 3, 1};
  float input[16] = {};
  int32_t block[] = {2, 2};
  int32_t crops[] = {0, 0, 0, 0};
  float output[16] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(crops, IntArrayFromInts(crops_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  block[0] = 3;  // 4 batches are not a multiple of 6
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  block[0] = -2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  block[0] = 2;
  crops[1] = -1;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  crops[1] = 3;  // with crops[0] = 2: more than the 4 rows
  crops[0] = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  crops[0] = 0;
  crops[1] = 0;
  tensors[3].dims = IntArrayFromInts(wrong_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[3].dims = IntArrayFromInts(out_shape);
  tensors[2].is_constant = false;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[2].is_constant = true;
  int32_t output32[16] = {};
  tensors[3] = CreateTensor(output32, IntArrayFromInts(out_shape));  // another type
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
}

TF_LITE_MICRO_TESTS_END
