// SPACE_TO_BATCH_ND kernel tests: expected outputs laid out by hand from the
// padded input's blocks.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// tensors[0] input, tensors[1] block_shape, tensors[2] paddings, tensors[3] output.
TfLiteStatus Run(TfLiteTensor* tensors) { return RunKernelOnTensors(Register_SPACE_TO_BATCH_ND(), tensors, 3); }

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBlocksWithoutPadding) {
  const int32_t in_shape[] = {4, 1, 4, 4, 1};
  const int32_t two[] = {1, 2};
  const int32_t pads_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 4, 2, 2, 1};
  float input[16];
  for (int i = 0; i < 16; ++i) input[i] = static_cast<float>(i + 1);
  int32_t block[] = {2, 2};
  int32_t pads[] = {0, 0, 0, 0};
  float output[16] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(pads, IntArrayFromInts(pads_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  const float expected[] = {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
  for (int i = 0; i < 16; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8PaddingIsTheZeroPoint) {
  // [1, 2, 3, 1] padded by one row above and below and one column right to
  // 4 x 4, in 2 x 2 blocks: four batches of 2 x 2.
  const int32_t in_shape[] = {4, 1, 2, 3, 1};
  const int32_t two[] = {1, 2};
  const int32_t pads_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 4, 2, 2, 1};
  int8_t input[] = {1, 2, 3, 4, 5, 6};
  int32_t block[] = {2, 2};
  int32_t pads[] = {1, 1, 0, 1};
  int8_t output[16] = {};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.25f, -9),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(pads, IntArrayFromInts(pads_shape), true),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.25f, -9)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  const int8_t z = -9;
  const int8_t expected[] = {z, z, 4, 6, z, z, 5, z, 1, 3, z, z, 2, z, z, z};
  for (int i = 0; i < 16; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(ThreeDimensionalAndBatchOrder) {
  // 3-D [1, 4, 2] (NHC), block {2}: rows 0 and 2 go to batch 0, rows 1 and 3 to batch 1.
  const int32_t in_shape[] = {3, 1, 4, 2};
  const int32_t one[] = {1, 1};
  const int32_t pads_shape[] = {2, 1, 2};
  const int32_t out_shape[] = {3, 2, 2, 2};
  int16_t input[] = {1, 2, 3, 4, 5, 6, 7, 8};
  int32_t block[] = {2};
  int32_t pads[] = {0, 0};
  int16_t output[8] = {};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0),
                            CreateTensor(block, IntArrayFromInts(one), true),
                            CreateTensor(pads, IntArrayFromInts(pads_shape), true),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.1f, 0)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  const int16_t expected[] = {1, 2, 5, 6, 3, 4, 7, 8};
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  // Two input batches, block {2, 1}: output batch = shift * 2 + input batch.
  const int32_t in4[] = {4, 2, 2, 2, 1};
  const int32_t two[] = {1, 2};
  const int32_t pads4[] = {2, 2, 2};
  const int32_t out4[] = {4, 4, 1, 2, 1};
  int32_t data[] = {1, 2, 3, 4, 5, 6, 7, 8};
  int32_t block4[] = {2, 1};
  int32_t pads_values[] = {0, 0, 0, 0};
  int32_t result[8] = {};
  TfLiteTensor batched[] = {CreateTensor(data, IntArrayFromInts(in4)),
                            CreateTensor(block4, IntArrayFromInts(two), true),
                            CreateTensor(pads_values, IntArrayFromInts(pads4), true),
                            CreateTensor(result, IntArrayFromInts(out4))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(batched));
  const int32_t expected4[] = {1, 2, 5, 6, 3, 4, 7, 8};
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected4[i], result[i]);
}

TF_LITE_MICRO_TEST(AllPaddingInput) {
  // A zero-height input padded to two rows: every output pixel is padding.
  const int32_t in_shape[] = {3, 1, 0, 2};
  const int32_t one[] = {1, 1};
  const int32_t pads_shape[] = {2, 1, 2};
  const int32_t out_shape[] = {3, 2, 1, 2};
  float input[1] = {};
  int32_t block[] = {2};
  int32_t pads[] = {1, 1};
  float output[4] = {5, 5, 5, 5};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(one), true),
                            CreateTensor(pads, IntArrayFromInts(pads_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(0.0f, output[i]);
}

TF_LITE_MICRO_TEST(BadModelsFailInPrepare) {
  const int32_t in_shape[] = {4, 1, 4, 4, 1};
  const int32_t two[] = {1, 2};
  const int32_t pads_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {4, 4, 2, 2, 1};
  const int32_t wrong_shape[] = {4, 2, 4, 2, 1};
  const int32_t two_d[] = {2, 4, 4};
  const int32_t five_d[] = {5, 1, 4, 4, 1, 1};
  float input[16] = {};
  int32_t block[] = {2, 2};
  int32_t pads[] = {0, 0, 0, 0};
  float output[16] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(block, IntArrayFromInts(two), true),
                            CreateTensor(pads, IntArrayFromInts(pads_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  block[1] = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  block[1] = 3;  // 4 is not a multiple of 3, even with the output shape of a floor division
  const int32_t floor_shape[] = {4, 6, 2, 1, 1};
  tensors[3].dims = IntArrayFromInts(floor_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[3].dims = IntArrayFromInts(out_shape);
  block[1] = 2;
  pads[2] = -2;  // with pads[3] = 2 the size would still divide
  pads[3] = 2;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  pads[2] = 0;
  pads[3] = 0;
  tensors[1].is_constant = false;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[1].is_constant = true;
  tensors[3].dims = IntArrayFromInts(wrong_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[3].dims = IntArrayFromInts(out_shape);
  tensors[0].dims = IntArrayFromInts(two_d);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  tensors[0].dims = IntArrayFromInts(five_d);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  // int8 input and output must share one quantization.
  int8_t qin[16] = {};
  int8_t qout[16] = {};
  tensors[0] = CreateQuantizedTensor(qin, IntArrayFromInts(in_shape), 0.5f, 0);
  tensors[3] = CreateQuantizedTensor(qout, IntArrayFromInts(out_shape), 0.5f, 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(tensors));
  tensors[3].params.scale = 0.25f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  // A block whose batch count leaves int32.
  int32_t huge[] = {65536, 65536};
  int32_t huge_pads[] = {0, 65535, 0, 65535};
  const int32_t huge_in[] = {4, 1, 1, 1, 1};
  const int32_t huge_out[] = {4, 1, 1, 1, 1};
  tensors[0] = CreateTensor(input, IntArrayFromInts(huge_in));
  tensors[1] = CreateTensor(huge, IntArrayFromInts(two), true);
  tensors[2] = CreateTensor(huge_pads, IntArrayFromInts(pads_shape), true);
  tensors[3] = CreateTensor(output, IntArrayFromInts(huge_out));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
  huge[0] = 1;  // 65536 batches: fits, but not this output
  huge_pads[1] = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(tensors));
}

TF_LITE_MICRO_TESTS_END
