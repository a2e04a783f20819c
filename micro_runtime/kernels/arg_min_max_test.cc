// ARG_MAX / ARG_MIN kernel tests: expected indices found by hand (the first
// index wins a tie).
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

// tensors[0] input, tensors[1] axis, tensors[2] output.
TfLiteStatus Run(const TfLiteRegistration& registration, TfLiteTensor* tensors,
                 const TfLiteArgMaxParams* params = nullptr) {
  return RunKernelOnTensors(registration, tensors, 2, params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatLastAxisTiesPickTheFirst) {
  const int32_t in_shape[] = {2, 2, 4};
  const int32_t scalar[] = {0};
  const int32_t out_shape[] = {1, 2};
  float input[] = {1, 3, 3, 0, 0, 0, 1, 1};
  int32_t axis = 1;
  int32_t output[2] = {-1, -1};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(1, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(2, output[1]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(3, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(0, output[1]);
}

TF_LITE_MICRO_TEST(Int8FirstAxisNegativeInt64Output) {
  // input [3, 2], axis -2 (= 0): one index per column.
  const int32_t in_shape[] = {2, 3, 2};
  const int32_t one[] = {1, 1};
  const int32_t out_shape[] = {1, 2};
  int8_t input[] = {-128, 5, 127, 5, 127, -7};
  int32_t axis = -2;
  int64_t output[2] = {-1, -1};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 3),
                            CreateTensor(&axis, IntArrayFromInts(one), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  const TfLiteArgMaxParams params = {kTfLiteInt64};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors, &params));
  TF_LITE_MICRO_EXPECT(output[0] == 1 && output[1] == 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors, &params));
  TF_LITE_MICRO_EXPECT(output[0] == 0 && output[1] == 2);
}

TF_LITE_MICRO_TEST(MiddleAxisInt64AxisTensor) {
  // input [2, 3, 2], axis 1: output [2, 2].
  const int32_t in_shape[] = {3, 2, 3, 2};
  const int32_t scalar[] = {0};
  const int32_t out_shape[] = {2, 2, 2};
  int32_t input[] = {4, 9, 8, 1, 8, 9, -1, 0, -3, 0, -1, -5};
  int64_t axis = 1;
  int32_t output[4] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  const int32_t max_expected[] = {1, 0, 0, 0};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(max_expected[i], output[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors));
  const int32_t min_expected[] = {0, 1, 1, 2};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(min_expected[i], output[i]);
}

TF_LITE_MICRO_TEST(NaNNeverWinsUnlessFirst) {
  const int32_t in_shape[] = {2, 3, 4};
  const int32_t scalar[] = {0};
  const int32_t out_shape[] = {1, 3};
  const float nan = NAN;
  float input[] = {nan, 1, 2, 0, 1, nan, 3, 0, nan, nan, nan, nan};
  int32_t axis = 1;
  int32_t output[3] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  TF_LITE_MICRO_EXPECT(output[0] == 0 && output[1] == 2 && output[2] == 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors));
  TF_LITE_MICRO_EXPECT(output[0] == 0 && output[1] == 3 && output[2] == 0);
}

TF_LITE_MICRO_TEST(BoolAndUint8) {
  const int32_t in_shape[] = {1, 4};
  const int32_t scalar[] = {0};
  const int32_t out_shape[] = {0};
  int32_t axis = 0;
  int32_t output = -1;
  bool flags[] = {false, true, false, true};
  TfLiteTensor tensors[] = {CreateTensor(flags, IntArrayFromInts(in_shape)),
                            CreateTensor(&axis, IntArrayFromInts(scalar), true),
                            CreateTensor(&output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(1, output);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(0, output);
  uint8_t bytes[] = {7, 200, 255, 0};  // unsigned order: 255 is the largest
  tensors[0] = CreateTensor(bytes, IntArrayFromInts(in_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(2, output);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors));
  TF_LITE_MICRO_EXPECT_EQ(3, output);
}

TF_LITE_MICRO_TEST(BadModelsFailInPrepare) {
  const int32_t in_shape[] = {2, 2, 4};
  const int32_t scalar[] = {0};
  const int32_t two[] = {1, 2};
  const int32_t out_shape[] = {1, 2};
  const int32_t wrong_shape[] = {1, 4};
  float input[8] = {};
  int32_t axis[2] = {1, 0};
  int32_t output[4] = {};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(axis, IntArrayFromInts(scalar), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MAX(), tensors));
  const TfLiteArgMaxParams int64_options = {kTfLiteInt64};  // contradicts the int32 output
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors, &int64_options));
  const TfLiteArgMaxParams default_options = {kTfLiteFloat32};  // no output_type recorded
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(Register_ARG_MIN(), tensors, &default_options));
  axis[0] = 2;  // outside [-2, 2)
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  axis[0] = -3;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  axis[0] = 1;
  tensors[1].is_constant = false;  // the output shape depends on it
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  tensors[1] = CreateTensor(axis, IntArrayFromInts(two), true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  tensors[1] = CreateTensor(axis, IntArrayFromInts(scalar), true);
  tensors[2].dims = IntArrayFromInts(wrong_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  float float_output[2] = {};
  tensors[2] = CreateTensor(float_output, IntArrayFromInts(out_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MIN(), tensors));
  tensors[2] = CreateTensor(output, IntArrayFromInts(out_shape));
  int16_t input16[8] = {};
  tensors[0] = CreateQuantizedTensor(input16, IntArrayFromInts(in_shape), 0.1f, 0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
  // An empty axis has no index to give.
  const int32_t empty_axis_shape[] = {2, 2, 0};
  tensors[0] = CreateTensor(input, IntArrayFromInts(empty_axis_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(Register_ARG_MAX(), tensors));
}

TF_LITE_MICRO_TESTS_END
