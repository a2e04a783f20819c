// TANH kernel tests. Float expectations are numpy's tanh(x) in
// double precision; int8 expectations come from the TFLM reference
// interpreter (tflite-micro Python package) on a one-op model (LiteRT
// agrees).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(Register_TANH(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut),
                      nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {2, 1, 11};
  float input[] = {-10, -3, -1, -0.5f, -0.1f, 0, 0.1f, 0.5f, 1, 3, 10};
  float output[11] = {0};
  const float expected[] = {-0.999999996f, -0.995054754f, -0.761594156f, -0.462117157f,
                            -0.0996679961f, 0.0f,         0.0996679961f, 0.462117157f,
                            0.761594156f,   0.995054754f, 0.999999996f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 11; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 1e-6f);
}

TF_LITE_MICRO_TEST(FloatExtremesSaturate) {
  const int32_t shape[] = {1, 2};
  float input[] = {-200.0f, 200.0f};
  float output[2] = {0.5f, 0.5f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  TF_LITE_MICRO_EXPECT_EQ(-1.0f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, output[1]);
}

TF_LITE_MICRO_TEST(Int8) {
  const int32_t shape[] = {2, 3, 4};
  int8_t input[] = {-128, -100, -60, -20, -5, 0, 3, 10, 25, 50, 80, 127};
  int8_t output[12] = {0};
  const int8_t expected[] = {-128, -127, -118, -48, 8, 26, 37, 60, 95, 120, 127, 127};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.03f, -7),
                                         CreateQuantizedTensor(output, dims, 1.0f / 128.0f, 0)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8WrongOutputQuantizationFails) {
  const int32_t shape[] = {1, 2};
  int8_t input[2] = {0};
  int8_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.06f, 5),
                                            CreateQuantizedTensor(output, dims, 1.0f / 256.0f, -128)));
}

TF_LITE_MICRO_TEST(UnsupportedTypeFails) {
  const int32_t shape[] = {1, 2};
  int32_t input[2] = {0};
  int32_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
}

TF_LITE_MICRO_TESTS_END
