// Tests of the custom op "Atan". Expected values are numpy.arctan in double
// precision of the float32 inputs.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  // Custom ops get their (here empty) custom options through init.
  const uint8_t custom_options[1] = {0};
  KernelRunner runner(Register_ATAN(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut), nullptr,
                      custom_options, 0);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {2, 7, 1};
  float input[] = {0.0f, 1.0f, -1.0f, 1.73205081f, 1000.0f, -0.5f, 1e-4f};
  float output[7] = {0};
  const float expected[] = {0.0f,         0.785398163f, -0.785398163f,  1.04719754f,
                            1.56979633f, -0.463647609f, 9.99999971e-05f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 7; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 1e-6f);
}

TF_LITE_MICRO_TEST(InPlace) {
  const int32_t shape[] = {1, 2};
  float data[] = {1.0f, -1.0f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(data, dims), CreateTensor(data, dims)));
  TF_LITE_MICRO_EXPECT_NEAR(0.785398163f, data[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(-0.785398163f, data[1], 1e-6f);
}

TF_LITE_MICRO_TEST(NonFloatFails) {
  const int32_t shape[] = {1, 2};
  int32_t in[2] = {0};
  int32_t out[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(in, IntArrayFromInts(shape)),
                                            CreateTensor(out, IntArrayFromInts(shape))));
}

TF_LITE_MICRO_TESTS_END
