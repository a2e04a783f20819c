// STRIDED_SLICE kernel tests: expected outputs are numpy slices of the inputs
// (TFLite's clamping of out-of-range indices written out by hand).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kTwo[] = {1, 2};

// input [3, 4] holding 0..11 sliced by begin/end/strides into output `out_shape`.
TfLiteStatus Slice3x4(int32_t* begin, int32_t* end, int32_t* strides, const TfLiteStridedSliceParams& params,
                      const int32_t* out_shape, float* output) {
  static const int32_t in_shape[] = {2, 3, 4};
  static float input[12];
  for (int i = 0; i < 12; ++i) input[i] = static_cast<float>(i);
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(begin, IntArrayFromInts(kTwo), true),
                            CreateTensor(end, IntArrayFromInts(kTwo), true),
                            CreateTensor(strides, IntArrayFromInts(kTwo), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  return RunKernelOnTensors(Register_STRIDED_SLICE(), tensors, 4, &params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatNegativeStrideAndClampedIndices) {
  // x[-10:2, ::-2] = rows 0..1, columns 3, 1.
  int32_t begin[] = {-10, 0};
  int32_t end[] = {2, 0};
  int32_t strides[] = {1, -2};
  const TfLiteStridedSliceParams params = {/*begin_mask=*/2, /*end_mask=*/2, 0, 0, 0, false};
  const int32_t out_shape[] = {2, 2, 2};
  float output[4];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Slice3x4(begin, end, strides, params, out_shape, output));
  const float expected[] = {3, 1, 7, 5};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(FloatShrinkAxis) {
  // x[-1, 1:100:2] = row 2, columns 1, 3.
  int32_t begin[] = {-1, 1};
  int32_t end[] = {0, 100};
  int32_t strides[] = {1, 2};
  const TfLiteStridedSliceParams params = {0, 0, 0, 0, /*shrink_axis_mask=*/1, false};
  const int32_t out_shape[] = {1, 2};
  float output[2];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Slice3x4(begin, end, strides, params, out_shape, output));
  TF_LITE_MICRO_EXPECT_EQ(9.0f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(11.0f, output[1]);
}

TF_LITE_MICRO_TEST(Int8And16FiveDimensions) {
  const int32_t in_shape[] = {5, 1, 2, 1, 2, 3};
  const int32_t out_shape[] = {5, 1, 1, 1, 2, 2};
  const int32_t five[] = {1, 5};
  int32_t begin[] = {0, 1, 0, 0, 1};
  int32_t end[] = {1, 2, 1, 2, 3};
  int32_t strides[] = {1, 1, 1, 1, 1};
  const TfLiteStridedSliceParams params = {0, 0, 0, 0, 0, false};
  int8_t input[12];
  int16_t input16[12];
  for (int i = 0; i < 12; ++i) {
    input[i] = static_cast<int8_t>(i - 6);
    input16[i] = static_cast<int16_t>(i * 1000 - 6000);
  }
  int8_t output[4];
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0),
                            CreateTensor(begin, IntArrayFromInts(five), true),
                            CreateTensor(end, IntArrayFromInts(five), true),
                            CreateTensor(strides, IntArrayFromInts(five), true),
                            CreateQuantizedTensor(output, IntArrayFromInts(out_shape), 0.1f, 0)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_STRIDED_SLICE(), tensors, 4, &params));
  // Elements 7, 8, 10, 11 of 0..11.
  const int8_t expected[] = {1, 2, 4, 5};
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  int16_t output16[4];
  tensors[0] = CreateTensor(input16, IntArrayFromInts(in_shape));
  tensors[4] = CreateTensor(output16, IntArrayFromInts(out_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_STRIDED_SLICE(), tensors, 4, &params));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i] * 1000, output16[i]);
}

TF_LITE_MICRO_TEST(BadSlicesFailInPrepare) {
  int32_t begin[] = {0, 0};
  int32_t end[] = {3, 4};
  int32_t strides[] = {1, 1};
  const int32_t full[] = {2, 3, 4};
  const int32_t wrong[] = {2, 3, 3};
  float output[12];
  const TfLiteStridedSliceParams none = {0, 0, 0, 0, 0, false};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Slice3x4(begin, end, strides, none, full, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(begin, end, strides, none, wrong, output));
  int32_t zero_stride[] = {1, 0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(begin, end, zero_stride, none, full, output));
  // Masks TFLM ignores are refused.
  const TfLiteStridedSliceParams ellipsis = {0, 0, 1, 0, 0, false};
  const TfLiteStridedSliceParams new_axis = {0, 0, 0, 2, 0, false};
  const TfLiteStridedSliceParams offset = {0, 0, 0, 0, 0, true};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(begin, end, strides, ellipsis, full, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(begin, end, strides, new_axis, full, output));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(begin, end, strides, offset, full, output));
  // A shrunk axis needs its element: row 3 of 3 does not exist.
  int32_t past[] = {3, 0};
  const TfLiteStridedSliceParams shrink = {0, 0, 0, 0, 1, false};
  const int32_t row[] = {1, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Slice3x4(past, end, strides, shrink, row, output));
}

TF_LITE_MICRO_TESTS_END
