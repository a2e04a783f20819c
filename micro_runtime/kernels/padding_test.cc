// Output sizes and paddings hand-computed from TFLite's formulas.
#include "micro_runtime/kernels/padding.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(OutputSizeAndPadding) {
  // SAME: ceil(in / stride); VALID: ceil((in - eff + 1) / stride).
  TF_LITE_MICRO_EXPECT_EQ(25, ComputeOutSize(kTfLitePaddingSame, 49, 10, 2));
  TF_LITE_MICRO_EXPECT_EQ(20, ComputeOutSize(kTfLitePaddingSame, 40, 8, 2));
  TF_LITE_MICRO_EXPECT_EQ(3, ComputeOutSize(kTfLitePaddingValid, 5, 3, 1));
  TF_LITE_MICRO_EXPECT_EQ(2, ComputeOutSize(kTfLitePaddingValid, 5, 2, 2));
  TF_LITE_MICRO_EXPECT_EQ(1, ComputeOutSize(kTfLitePaddingValid, 5, 3, 1, 2));  // eff 5
  TF_LITE_MICRO_EXPECT_EQ(0, ComputeOutSize(kTfLitePaddingValid, 2, 3, 1));
  int offset = -1;
  // micro_speech height: (25-1)*2 + 10 - 49 = 9 -> 4 before, 5 after.
  TF_LITE_MICRO_EXPECT_EQ(4, ComputePadding(2, 1, 49, 10, 25, &offset));
  TF_LITE_MICRO_EXPECT_EQ(1, offset);
  // width: (20-1)*2 + 8 - 40 = 6 -> 3.
  TF_LITE_MICRO_EXPECT_EQ(3, ComputePadding(2, 1, 40, 8, 20, &offset));
  TF_LITE_MICRO_EXPECT_EQ(0, offset);
  TF_LITE_MICRO_EXPECT_EQ(0, ComputePadding(1, 1, 5, 3, 3, &offset));
  int oh = 0;
  int ow = 0;
  // 4x4 input, 3x3 filter dilated by 2 (eff 5), SAME stride 1: total pad 4 -> 2.
  PaddingValues p = ComputePaddingHeightWidth(1, 1, 2, 2, 4, 4, 3, 3, kTfLitePaddingSame, &oh, &ow);
  TF_LITE_MICRO_EXPECT_EQ(4, oh);
  TF_LITE_MICRO_EXPECT_EQ(4, ow);
  TF_LITE_MICRO_EXPECT_EQ(2, p.height);
  TF_LITE_MICRO_EXPECT_EQ(2, p.width);
}

TF_LITE_MICRO_TEST(ValidFilterRangeSkipsThePadding) {
  int lo = -1;
  int hi = -1;
  ValidFilterRange(-2, 1, 10, 5, &lo, &hi);  // taps at -2..2: the first two are padding
  TF_LITE_MICRO_EXPECT_EQ(2, lo);
  TF_LITE_MICRO_EXPECT_EQ(5, hi);
  ValidFilterRange(8, 1, 10, 5, &lo, &hi);  // taps at 8..12: two fit
  TF_LITE_MICRO_EXPECT_EQ(0, lo);
  TF_LITE_MICRO_EXPECT_EQ(2, hi);
  ValidFilterRange(-3, 2, 10, 3, &lo, &hi);  // taps at -3, -1, 1
  TF_LITE_MICRO_EXPECT_EQ(2, lo);
  TF_LITE_MICRO_EXPECT_EQ(3, hi);
  ValidFilterRange(10, 1, 10, 3, &lo, &hi);  // past the end: empty
  TF_LITE_MICRO_EXPECT_TRUE(lo >= hi);
}

// A 3x3 input, 2x2 filter, SAME, stride 2: 2x2 outputs whose windows lose
// the taps past the right and bottom edges.
TF_LITE_MICRO_TEST(WindowGeometryAndOutputPixels) {
  const int32_t in_dims[] = {4, 1, 3, 3, 2};
  const int32_t out_dims[] = {4, 1, 2, 2, 5};
  float in[18];
  float out[20];
  TfLiteTensor input = CreateTensor(in, IntArrayFromInts(in_dims));
  TfLiteTensor output = CreateTensor(out, IntArrayFromInts(out_dims));
  WindowGeometry g = {};
  g.filter_h = 2;
  g.filter_w = 2;
  g.stride_h = 2;
  g.stride_w = 2;
  g.dilation_h = 1;
  g.dilation_w = 1;
  g.out_ch = 5;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareWindowGeometry("TEST", &input, &output, kTfLitePaddingSame, &g));
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(g.out_h));
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(g.out_w));
  TF_LITE_MICRO_EXPECT_EQ(0, static_cast<int>(g.pad_h));
  int seen = 0;
  int taps = 0;
  int32_t offsets[4] = {-1, -1, -1, -1};
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    offsets[seen++] = p.in_offset;
    taps += p.ny * p.nx;
  });
  TF_LITE_MICRO_EXPECT_EQ(4, seen);
  TF_LITE_MICRO_EXPECT_EQ(4 + 2 + 2 + 1, taps);
  TF_LITE_MICRO_EXPECT_EQ(0, static_cast<int>(offsets[0]));
  TF_LITE_MICRO_EXPECT_EQ(4, static_cast<int>(offsets[1]));   // x = 2
  TF_LITE_MICRO_EXPECT_EQ(12, static_cast<int>(offsets[2]));  // y = 2
  // An output shape that does not follow from the geometry, or an empty filter, is refused.
  const int32_t bad_dims[] = {4, 1, 3, 3, 5};
  TfLiteTensor bad = CreateTensor(out, IntArrayFromInts(bad_dims));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareWindowGeometry("TEST", &input, &bad, kTfLitePaddingSame, &g));
  g.filter_w = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareWindowGeometry("TEST", &input, &output, kTfLitePaddingSame, &g));
}

TF_LITE_MICRO_TESTS_END
