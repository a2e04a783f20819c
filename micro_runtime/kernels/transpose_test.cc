// TRANSPOSE kernel tests: expected outputs are numpy transposes written out.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float3D) {
  const int32_t in_shape[] = {3, 2, 3, 2};
  const int32_t out_shape[] = {3, 2, 2, 3};
  const int32_t perm_shape[] = {1, 3};
  int32_t perm[] = {2, 0, 1};
  float input[12];
  for (int i = 0; i < 12; ++i) input[i] = static_cast<float>(i);
  float output[12];
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(perm, IntArrayFromInts(perm_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
  // out[k][i][j] = in[i][j][k] = 6i + 2j + k.
  const float expected[] = {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11};
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8And16SixDimensions) {
  const int32_t in_shape[] = {6, 2, 1, 1, 1, 1, 3};
  const int32_t out_shape[] = {6, 3, 1, 1, 1, 1, 2};
  const int32_t perm_shape[] = {1, 6};
  int32_t perm[] = {5, 1, 2, 3, 4, 0};
  int8_t input[] = {1, 2, 3, 4, 5, 6};
  int8_t output[6];
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(perm, IntArrayFromInts(perm_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
  const int8_t expected[] = {1, 4, 2, 5, 3, 6};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  int16_t input16[] = {-1000, 2000, 3, 4, 5, 32767};
  int16_t output16[6];
  tensors[0] = CreateTensor(input16, IntArrayFromInts(in_shape));
  tensors[2] = CreateTensor(output16, IntArrayFromInts(out_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
  const int16_t expected16[] = {-1000, 4, 2000, 5, 3, 32767};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected16[i], output16[i]);
}

TF_LITE_MICRO_TEST(BadPermutationsFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 3};
  const int32_t out_shape[] = {2, 3, 2};
  const int32_t perm_shape[] = {1, 2};
  float input[6] = {0};
  float output[6] = {0};
  int32_t repeated[] = {1, 1};
  int32_t out_of_range[] = {2, 0};
  int32_t identity[] = {0, 1};  // the output shape is not the input's
  int32_t swap[] = {1, 0};
  int32_t* perms[] = {repeated, out_of_range, identity};
  for (int32_t* perm : perms) {
    TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                              CreateTensor(perm, IntArrayFromInts(perm_shape), true),
                              CreateTensor(output, IntArrayFromInts(out_shape))};
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
  }
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(swap, IntArrayFromInts(perm_shape), false),  // not constant
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
  tensors[1].is_constant = true;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_TRANSPOSE(), tensors, 2));
}

TF_LITE_MICRO_TESTS_END
