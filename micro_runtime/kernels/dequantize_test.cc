// DEQUANTIZE kernel tests. Expected values come from the TFLM reference
// interpreter (tflite-micro Python package) on a one-op model; they equal
// 0.1 * (q + 5) rounded to float.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(Register_DEQUANTIZE(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut),
                      nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Int8ToFloatBitExact) {
  const int32_t shape[] = {2, 2, 4};
  int8_t input[] = {-128, -77, -1, 0, 1, 33, 90, 127};
  float output[8] = {0};
  const float expected[] = {-12.3000002f, -7.20000029f, 0.400000006f, 0.5f,
                            0.600000024f, 3.79999995f,  9.5f,         13.1999998f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.1f, -5), CreateTensor(output, dims)));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int16ToFloat) {
  const int32_t shape[] = {1, 3};
  int16_t input[] = {-32768, 0, 1000};
  float output[3] = {0};
  TfLiteTensor in = CreateTensor(input, IntArrayFromInts(shape));
  in.params.scale = 0.25f;
  in.params.zero_point = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(in, CreateTensor(output, IntArrayFromInts(shape))));
  TF_LITE_MICRO_EXPECT_EQ(-8192.0f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(0.0f, output[1]);
  TF_LITE_MICRO_EXPECT_EQ(250.0f, output[2]);
}

TF_LITE_MICRO_TEST(Uint8ToFloat) {
  // Expected values from TFLM on the same one-op model.
  const int32_t shape[] = {1, 6};
  uint8_t input[] = {0, 1, 100, 128, 200, 255};
  float output[6] = {0};
  const float expected[] = {-5.119999885559082f, -5.079999923706055f, -1.1200000047683716f, 0.0f, 2.879999876022339f,
                            5.079999923706055f};
  TfLiteTensor in = CreateTensor(input, IntArrayFromInts(shape));
  in.params.scale = 0.04f;
  in.params.zero_point = 128;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(in, CreateTensor(output, IntArrayFromInts(shape))));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(BadTensorsFail) {
  const int32_t shape[] = {1, 4};
  const int32_t other[] = {1, 2};
  int8_t q[4] = {0};
  int8_t q_out[4] = {0};
  float f[4] = {0};
  float f_out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, dims), CreateTensor(f_out, dims)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          Run(CreateQuantizedTensor(q, dims, 0.1f, 0), CreateQuantizedTensor(q_out, dims, 0.1f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError,
                          Run(CreateQuantizedTensor(q, dims, 0.1f, 0), CreateTensor(f_out, IntArrayFromInts(other))));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q, dims, 0.0f, 0), CreateTensor(f_out, dims)));
}

TF_LITE_MICRO_TESTS_END
