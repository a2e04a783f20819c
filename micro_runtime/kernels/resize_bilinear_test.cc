// RESIZE_BILINEAR kernel tests. float32 expectations are hand-computed from
// TFLite's interpolation; int8 expectations come from the TFLM reference
// interpreter (tflite-micro Python package) running the same one-op models.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kSizeShape[] = {1, 2};

TfLiteStatus Resize(TfLiteTensor input, int32_t* size, TfLiteTensor output, bool align_corners,
                    bool half_pixel_centers) {
  const TfLiteResizeBilinearParams params = {align_corners, half_pixel_centers};
  TfLiteTensor tensors[] = {input, CreateTensor(size, IntArrayFromInts(kSizeShape), true), output};
  return RunKernelOnTensors(Register_RESIZE_BILINEAR(), tensors, 2, &params);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatUpscale) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {4, 1, 3, 3, 1};
  float input[] = {1, 2, 3, 4};
  int32_t size[] = {3, 3};
  float out[9] = {0};
  // Sources 0, 2/3, 4/3 along both axes (the last clamped to the last pixel).
  const float expected[] = {1, 5.0f / 3, 2, 7.0f / 3, 3, 10.0f / 3, 3, 11.0f / 3, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateTensor(input, IntArrayFromInts(in_shape)), size,
                                            CreateTensor(out, IntArrayFromInts(out_shape)), false, false));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], out[i], 1e-6f);
  // align_corners: sources 0, 1/2, 1.
  const float aligned[] = {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateTensor(input, IntArrayFromInts(in_shape)), size,
                                            CreateTensor(out, IntArrayFromInts(out_shape)), true, false));
  for (int i = 0; i < 9; ++i) TF_LITE_MICRO_EXPECT_NEAR(aligned[i], out[i], 1e-6f);
}

TF_LITE_MICRO_TEST(FloatHalfPixelCenters) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {4, 1, 4, 4, 1};
  float input[] = {1, 2, 3, 4};
  int32_t size[] = {4, 4};
  float out[16] = {0};
  // Sources (x + 0.5) / 2 - 0.5 = -0.25 (the first pixel), 0.25, 0.75, 1.25 (the last pixel).
  const float expected[] = {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateTensor(input, IntArrayFromInts(in_shape)), size,
                                            CreateTensor(out, IntArrayFromInts(out_shape)), false, true));
  for (int i = 0; i < 16; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], out[i], 1e-6f);
}

// TFLM's integer interpolation (10-bit positions, 20-bit sums rounded half away from zero), two channels.
TF_LITE_MICRO_TEST(Int8EveryOption) {
  const int32_t in_shape[] = {4, 1, 2, 3, 2};
  const int32_t out_shape[] = {4, 1, 3, 4, 2};
  int8_t input[] = {-128, 127, -1, 0, 50, -77, 33, 100, 7, -9, -50, 120};
  int32_t size[] = {3, 4};
  int8_t out[24] = {0};
  const int8_t expected[3][24] = {
      {-128, 127, -33, 32, 25, -39, 50, -77, -21, 109, -2, 23, -6, 24, -17, 54, 33, 100, 14, 18, -22, 56, -50, 120},
      {-128, 127, -43, 42, 16, -26, 50, -77, -48, 114, -14, 35, 2, 4, 0, 22, 33, 100, 16, 27, -12, 34, -50, 120},
      {-128, 127, -49, 48, 18, -29, 50, -77, -48, 114, -16, 40, 2, 5, 0, 22, 33, 100, 17, 32, -14, 39, -50, 120}};
  const bool options[3][2] = {{false, false}, {true, false}, {false, true}};
  for (int o = 0; o < 3; ++o) {
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                            Resize(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.05f, -3), size,
                                   CreateQuantizedTensor(out, IntArrayFromInts(out_shape), 0.05f, -3), options[o][0],
                                   options[o][1]));
    for (int i = 0; i < 24; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[o][i], out[i]);
  }
}

TF_LITE_MICRO_TEST(Int8Downscale) {
  const int32_t in_shape[] = {4, 1, 4, 4, 1};
  const int32_t out_shape[] = {4, 1, 3, 2, 1};
  int8_t input[16];
  for (int i = 0; i < 16; ++i) input[i] = static_cast<int8_t>(-128 + 16 * i);
  int32_t size[] = {3, 2};
  int8_t out[6] = {0};
  const int8_t plain[] = {-128, -96, -43, -11, 43, 75};
  const int8_t half_pixel[] = {-109, -77, -24, 8, 61, 93};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0), size,
                                            CreateQuantizedTensor(out, IntArrayFromInts(out_shape), 0.1f, 0), false,
                                            false));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(plain[i], out[i]);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0), size,
                                            CreateQuantizedTensor(out, IntArrayFromInts(out_shape), 0.1f, 0), false,
                                            true));
  for (int i = 0; i < 6; ++i) TF_LITE_MICRO_EXPECT_EQ(half_pixel[i], out[i]);
}

TF_LITE_MICRO_TEST(BadTensorsAndOptionsFailInPrepare) {
  const int32_t in_shape[] = {4, 1, 2, 2, 1};
  const int32_t out_shape[] = {4, 1, 3, 3, 1};
  int8_t input[4] = {0};
  int8_t out[9] = {0};
  int32_t size[] = {3, 3};
  const TfLiteIntArray* in_dims = IntArrayFromInts(in_shape);
  const TfLiteIntArray* out_dims = IntArrayFromInts(out_shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateQuantizedTensor(input, in_dims, 0.1f, 1), size,
                                            CreateQuantizedTensor(out, out_dims, 0.1f, 1), false, false));
  // TFLite allows only one of align_corners and half_pixel_centers.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Resize(CreateQuantizedTensor(input, in_dims, 0.1f, 1), size,
                                               CreateQuantizedTensor(out, out_dims, 0.1f, 1), true, true));
  // No requantization.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Resize(CreateQuantizedTensor(input, in_dims, 0.1f, 1), size,
                                               CreateQuantizedTensor(out, out_dims, 0.2f, 1), false, false));
  // int16: TFLM has no int16 RESIZE_BILINEAR.
  int16_t in16[4] = {0};
  int16_t out16[9] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Resize(CreateQuantizedTensor(in16, in_dims, 0.1f, 0), size,
                                               CreateQuantizedTensor(out16, out_dims, 0.1f, 0), false, false));
}

// One input column to 55: the 10-bit scale round(1024 / 55) = 19 puts the last output's source at 54 * 19 / 1024,
// column 1, past the input (TFLM reads out of bounds there and weights the stray value by 1022/1024). 54 columns
// (53 * 19 < 1024) and the float32 arithmetic stay inside.
TF_LITE_MICRO_TEST(Int8SourcePastTheInputFailsInPrepare) {
  const int32_t in_shape[] = {4, 1, 1, 1, 1};
  const int32_t too_wide[] = {4, 1, 1, 55, 1};
  const int32_t wide[] = {4, 1, 1, 54, 1};
  int8_t input[1] = {-77};
  int8_t out[55] = {0};
  int32_t size[] = {1, 55};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Resize(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0),
                                               size, CreateQuantizedTensor(out, IntArrayFromInts(too_wide), 0.1f, 0),
                                               false, false));
  float in_f[1] = {2.5f};
  float out_f[55] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateTensor(in_f, IntArrayFromInts(in_shape)), size,
                                            CreateTensor(out_f, IntArrayFromInts(too_wide)), false, false));
  for (int i = 0; i < 55; ++i) TF_LITE_MICRO_EXPECT_NEAR(2.5f, out_f[i], 1e-6f);
  size[1] = 54;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Resize(CreateQuantizedTensor(input, IntArrayFromInts(in_shape), 0.1f, 0), size,
                                            CreateQuantizedTensor(out, IntArrayFromInts(wide), 0.1f, 0), false, false));
  for (int i = 0; i < 54; ++i) TF_LITE_MICRO_EXPECT_EQ(-77, out[i]);
}

TF_LITE_MICRO_TESTS_END
