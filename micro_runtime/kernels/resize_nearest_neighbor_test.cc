// RESIZE_NEAREST_NEIGHBOR kernel tests. Expected pixels are hand-computed
// from TFLite's GetNearestNeighbor (and agree with TFLM's interpreter on the
// same one-op models): the source index is (x [+ 0.5]) * scale, floored, or
// rounded with align_corners.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kSizeShape[] = {1, 2};

// Resizes a float [1, h, w, 1] image to `size`; returns the kernel's status.
TfLiteStatus ResizeFloat(const int32_t* in_shape, float* input, int32_t* size, const int32_t* out_shape,
                         float* output, bool align_corners, bool half_pixel_centers) {
  const TfLiteResizeNearestNeighborParams params = {align_corners, half_pixel_centers};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(size, IntArrayFromInts(kSizeShape), true),
                            CreateTensor(output, IntArrayFromInts(out_shape))};
  return RunKernelOnTensors(Register_RESIZE_NEAREST_NEIGHBOR(), tensors, 2, &params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatUpscaleEveryOption) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {4, 1, 3, 3, 1};
  float input[] = {1, 2, 3, 4};
  int32_t size[] = {3, 3};
  float out[9] = {0};
  // scale 2/3: sources 0, floor(0.67) = 0, floor(1.33) = 1.
  const float plain[] = {1, 1, 2, 1, 1, 2, 3, 3, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ResizeFloat(in_shape, input, size, out_shape, out, false, false));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_EQ(plain[i], out[i]);
  // align_corners: scale 1/2, round(0.5) = 1 (half away from zero).
  const float aligned[] = {1, 2, 2, 3, 4, 4, 3, 4, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ResizeFloat(in_shape, input, size, out_shape, out, true, false));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_EQ(aligned[i], out[i]);
  // half_pixel_centers: floor(0.33) = 0, floor(1.0) = 1, floor(1.67) = 1.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, ResizeFloat(in_shape, input, size, out_shape, out, false, true));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_EQ(aligned[i], out[i]);
}

TF_LITE_MICRO_TEST(FloatDownscaleEveryOption) {
  const int32_t in_shape[] = {4, 1, 1, 4, 1};
  const int32_t out_shape[] = {4, 1, 1, 2, 1};
  float input[] = {1, 2, 3, 4};
  int32_t size[] = {1, 2};
  float out[2] = {0};
  const bool options[4][2] = {{false, false}, {false, true}, {true, false}, {true, true}};
  // scale 2: 0, 2 | (0.5, 1.5) * 2 = 1, 3 | align scale 3: 0, 3 | both: round(1.5) = 2, round(4.5) = 5 -> 3.
  const float expected[4][2] = {{1, 3}, {2, 4}, {1, 4}, {3, 4}};
  for (int o = 0; o < 4; ++o) {
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                            ResizeFloat(in_shape, input, size, out_shape, out, options[o][0], options[o][1]));
    TF_LITE_MICRO_EXPECT_EQ(expected[o][0], out[0]);
    TF_LITE_MICRO_EXPECT_EQ(expected[o][1], out[1]);
  }
}

// Quantized pixels are copied whole: two batches, two channels; int8 and int16.
TF_LITE_MICRO_TEST(QuantizedPixelsAreCopied) {
  const int32_t in_shape[] = {4, 2, 1, 2, 2};
  const int32_t out_shape[] = {4, 2, 2, 3, 2};
  int32_t size[] = {2, 3};
  // Columns 0, 0, 1 (floor of 0, 0.67, 1.33); both output rows read input row 0.
  const int expected[] = {1, -2, 1, -2, 3, -4, 1, -2, 1, -2, 3, -4,
                          -128, 127, -128, 127, 60, -61, -128, 127, -128, 127, 60, -61};
  int8_t in8[] = {1, -2, 3, -4, -128, 127, 60, -61};
  int8_t out8[24] = {0};
  const TfLiteResizeNearestNeighborParams params = {false, false};
  TfLiteTensor tensors[] = {CreateQuantizedTensor(in8, IntArrayFromInts(in_shape), 0.5f, -3),
                            CreateTensor(size, IntArrayFromInts(kSizeShape), true),
                            CreateQuantizedTensor(out8, IntArrayFromInts(out_shape), 0.5f, -3)};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_RESIZE_NEAREST_NEIGHBOR(), tensors, 2, &params));
  for (int i = 0; i < 24; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out8[i]);
  // Another output quantization would need a requantization TFLite does not do.
  tensors[2].params.zero_point = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(Register_RESIZE_NEAREST_NEIGHBOR(), tensors, 2, &params));

  int16_t in16[] = {1, -2, 3, -4, -32768, 32767, 60, -61};
  int16_t out16[24] = {0};
  const int expected16[] = {1, -2, 1, -2, 3, -4, 1, -2, 1, -2, 3, -4,
                            -32768, 32767, -32768, 32767, 60, -61, -32768, 32767, -32768, 32767, 60, -61};
  tensors[0] = kernel_cases::Int16Tensor(in16, in_shape, 0.001f);
  tensors[2] = kernel_cases::Int16Tensor(out16, out_shape, 0.001f);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(Register_RESIZE_NEAREST_NEIGHBOR(), tensors, 2, &params));
  for (int i = 0; i < 24; ++i) TF_LITE_MICRO_EXPECT_EQ(expected16[i], out16[i]);
}

TF_LITE_MICRO_TEST(BadTensorsFailInPrepare) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {4, 1, 3, 3, 1};
  const int32_t three[] = {1, 3};
  const int32_t in_3d[] = {3, 2, 2, 1};
  float input[4] = {0};
  float out[9] = {0};
  int32_t size[] = {3, 3, 1};
  const TfLiteResizeNearestNeighborParams params = {false, false};
  TfLiteTensor tensors[] = {CreateTensor(input, IntArrayFromInts(in_shape)),
                            CreateTensor(size, IntArrayFromInts(kSizeShape), true),
                            CreateTensor(out, IntArrayFromInts(out_shape))};
  const TfLiteRegistration op = Register_RESIZE_NEAREST_NEIGHBOR();
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunKernelOnTensors(op, tensors, 2, &params));
  tensors[1].is_constant = false;  // micro_runtime needs static shapes
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
  tensors[1] = CreateTensor(size, IntArrayFromInts(three), true);  // three entries
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
  tensors[1] = CreateTensor(size, IntArrayFromInts(kSizeShape), true);
  size[1] = 2;  // the output is 3x3
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
  size[1] = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
  size[1] = 3;
  tensors[0] = CreateTensor(input, IntArrayFromInts(in_3d));  // not NHWC
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
  int32_t ints[4] = {0};
  int32_t int_out[9] = {0};
  tensors[0] = CreateTensor(ints, IntArrayFromInts(in_shape));  // int32 is not a TFLM type of this op
  tensors[2] = CreateTensor(int_out, IntArrayFromInts(out_shape));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunKernelOnTensors(op, tensors, 2, &params));
}

TF_LITE_MICRO_TESTS_END
