// FILL kernel tests.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatAndInt8) {
  const int32_t dims_shape[] = {1, 2};
  const int32_t scalar[] = {0};
  const int32_t out_shape[] = {2, 2, 3};
  int32_t dims[] = {2, 3};
  float value = -2.5f;
  float output[6] = {0};
  TfLiteTensor tensors[] = {CreateTensor(dims, IntArrayFromInts(dims_shape), true),
                            CreateTensor(&value, IntArrayFromInts(scalar)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_FILL(), tensors, 2));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(-2.5f, output[i]);

  int8_t qvalue = -7;
  int8_t qoutput[6] = {0};
  TfLiteTensor quantized[] = {CreateTensor(dims, IntArrayFromInts(dims_shape), true),
                              CreateQuantizedTensor(&qvalue, IntArrayFromInts(scalar), 0.5f, 3),
                              CreateQuantizedTensor(qoutput, IntArrayFromInts(out_shape), 0.5f, 3)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_FILL(), quantized, 2));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(-7, qoutput[i]);
  quantized[2].params.zero_point = 0;  // no requantization
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_FILL(), quantized, 2));
}

TF_LITE_MICRO_TEST(BadDimsAndValuesFailInPrepare) {
  const int32_t dims_shape[] = {1, 2};
  const int32_t scalar[] = {0};
  const int32_t pair[] = {1, 2};
  const int32_t out_shape[] = {2, 2, 3};
  int32_t dims[] = {3, 2};  // not the output's shape
  float value[2] = {1, 2};
  float output[6] = {0};
  TfLiteTensor tensors[] = {CreateTensor(dims, IntArrayFromInts(dims_shape), true),
                            CreateTensor(value, IntArrayFromInts(scalar)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_FILL(), tensors, 2));
  dims[0] = 2;
  dims[1] = 3;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_FILL(), tensors, 2));
  tensors[1] = CreateTensor(value, IntArrayFromInts(pair));  // not a scalar
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_FILL(), tensors, 2));
  tensors[1] = CreateTensor(value, IntArrayFromInts(scalar));
  tensors[0].is_constant = false;  // micro_runtime needs static shapes
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_FILL(), tensors, 2));
}

TF_LITE_MICRO_TESTS_END
