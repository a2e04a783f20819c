// PAD and PADV2 kernel tests: the expected outputs are the inputs with the
// pad value around them, written out by hand.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatPadsWithZero) {
  const int32_t in_shape[] = {2, 2, 2};
  const int32_t out_shape[] = {2, 3, 5};
  const int32_t pad_shape[] = {2, 2, 2};
  int32_t paddings[] = {1, 0, 2, 1};
  float input[] = {1, 2, 3, 4};
  float output[15];
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(paddings, IntArrayFromInts(pad_shape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PAD(), tensors, 2));
  const float expected[] = {0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 4, 0};
  for (int i = 0; i < 15; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8PadsWithTheOutputZeroPoint) {
  const int32_t in_shape[] = {4, 1, 1, 2, 1};
  const int32_t out_shape[] = {4, 1, 2, 3, 2};
  const int32_t pad_shape[] = {2, 4, 2};
  int32_t paddings[] = {0, 0, 1, 0, 0, 1, 1, 0};
  int8_t input[] = {-100, 77};
  int8_t output[12];
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, -9),
                            CreateTensor(paddings, IntArrayFromInts(pad_shape), true),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.1f, -9)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PAD(), tensors, 2));
  const int8_t expected[] = {-9, -9, -9, -9, -9, -9, -9, -100, -9, 77, -9, -9};
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int16PadV2WithConstantValueIn5D) {
  const int32_t in_shape[] = {5, 1, 1, 1, 1, 2};
  const int32_t out_shape[] = {5, 2, 1, 1, 1, 3};
  const int32_t pad_shape[] = {2, 5, 2};
  const int32_t scalar[] = {0};
  int32_t paddings[] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  int16_t input[] = {-32768, 32767};
  int16_t value[] = {1234};
  int16_t output[6];
  TfLiteTensor tensors[] = {kernel_cases::Int16Tensor(input, in_shape, 1e-3f),
                            CreateTensor(paddings, IntArrayFromInts(pad_shape), true),
                            kernel_cases::Int16Tensor(value, scalar, 1e-3f),
                            kernel_cases::Int16Tensor(output, out_shape, 1e-3f)};
  tensors[2].is_constant = true;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_PADV2(), tensors, 3));
  const int16_t expected[] = {1234, 1234, 1234, -32768, 32767, 1234};
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(BadPaddingsFailInPrepare) {
  const int32_t in_shape[] = {1, 2};
  const int32_t out_shape[] = {1, 4};
  const int32_t pad_shape[] = {2, 1, 2};
  float input[2] = {0};
  float output[4] = {0};
  int32_t negative[] = {3, -1};
  int32_t wrong_size[] = {1, 2};  // output would be 5
  int32_t right[] = {1, 1};
  const TfLiteRegistration reg = Register_PAD();
  TfLiteTensor a[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                      CreateTensor(negative, IntArrayFromInts(pad_shape), true),
                      CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(reg, a, 2));
  a[1] = CreateTensor(wrong_size, IntArrayFromInts(pad_shape), true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(reg, a, 2));
  a[1] = CreateTensor(right, IntArrayFromInts(pad_shape), false);  // not constant
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(reg, a, 2));
  a[1] = CreateTensor(right, IntArrayFromInts(pad_shape), true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(reg, a, 2));
  // A 6-D input is beyond TFLite's 5.
  const int32_t six[] = {6, 1, 1, 1, 1, 1, 2};
  const int32_t six_out[] = {6, 1, 1, 1, 1, 1, 2};
  const int32_t six_pad_shape[] = {2, 6, 2};
  int32_t zeros[12] = {0};
  TfLiteTensor b[] = {CreateTensor(input, IntArrayFromInts(six)),
                      CreateTensor(zeros, IntArrayFromInts(six_pad_shape), true),
                      CreateTensor(output, IntArrayFromInts(six_out))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(reg, b, 2));
}

TF_LITE_MICRO_TESTS_END
