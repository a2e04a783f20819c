// SIN kernel tests. Expected values are numpy.sin in double precision of the
// float32 inputs (so pi gives -8.74e-08, the float's distance from pi).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  TfLiteTensor tensors[] = {input, output};
  KernelRunner runner(Register_SIN(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut), nullptr);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {3, 1, 7, 1};
  float input[] = {0.0f, 0.523598776f, 1.57079633f, 3.14159265f, -1.57079633f, 10.0f, -100.5f};
  float output[7] = {0};
  const float expected[] = {0.0f, 0.500000013f, 1.0f, -8.742278e-08f, -1.0f, -0.544021111f, 0.0309599668f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  for (int i = 0; i < 7; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 1e-6f);
}

TF_LITE_MICRO_TEST(NonFloatOrMismatchedShapeFails) {
  const int32_t shape[] = {1, 2};
  const int32_t other[] = {1, 3};
  int8_t q[2] = {0};
  int8_t q_out[2] = {0};
  float f[3] = {0};
  float f_out[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q, IntArrayFromInts(shape), 0.1f, 0),
                                            CreateQuantizedTensor(q_out, IntArrayFromInts(shape), 0.1f, 0)));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(f, IntArrayFromInts(shape)),
                                            CreateTensor(f_out, IntArrayFromInts(other))));
}

TF_LITE_MICRO_TESTS_END
