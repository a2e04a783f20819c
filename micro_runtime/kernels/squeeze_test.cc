// SQUEEZE kernel tests: the data is the input's bytes unchanged; what is
// checked is which output shapes prepare accepts.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus Squeeze(const int32_t* in_shape, const int32_t* out_shape, const TfLiteSqueezeParams* params,
                     int8_t* input, int8_t* output) {
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  return RunKernelOnTensors(Register_SQUEEZE(), tensors, 1, params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(SqueezeAllOrGivenAxes) {
  const int32_t in_shape[] = {4, 1, 3, 1, 2};
  const int32_t all[] = {2, 3, 2};
  const int32_t last_one[] = {3, 1, 3, 2};
  int8_t input[] = {-128, -1, 0, 1, 2, 127};
  int8_t output[6] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Squeeze(in_shape, all, nullptr, input, output));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(input[i], output[i]);
  TfLiteSqueezeParams params = {1, {-2}};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Squeeze(in_shape, last_one, &params, input, output));
  // The shape must be exactly the squeezed one.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Squeeze(in_shape, all, &params, input, output));
  // Axis 1 has size 3; axis 4 does not exist.
  params = {1, {1}};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Squeeze(in_shape, all, &params, input, output));
  params = {1, {4}};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Squeeze(in_shape, all, &params, input, output));
}

TF_LITE_MICRO_TESTS_END
