// DEPTHWISE_CONV_2D kernel tests. Cases and expected outputs come from
// testdata/depthwise_conv_cases.h (TFLM's reference interpreter on the same
// single-op models, see micro_runtime/testing/gen_kernel_cases.py). The
// micro_speech-shaped test compares against a plain per-tap loop written
// below from the op's definition.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/filter_op_util.h"  // MICRO_RUNTIME_LAYER_CLASS
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/depthwise_conv_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace depthwise_conv_cases;  // NOLINT
using namespace kernel_cases;          // NOLINT

template <class C>
TfLiteDepthwiseConvParams Params() {
  TfLiteDepthwiseConvParams p;
  p.padding = C::padding;
  p.stride_width = C::stride_w;
  p.stride_height = C::stride_h;
  p.depth_multiplier = C::depth_multiplier;
  p.activation = C::activation;
  p.dilation_width_factor = C::dilation_w;
  p.dilation_height_factor = C::dilation_h;
  return p;
}

template <class C>
void RunFloat(bool two_inputs = false) {
  const TfLiteDepthwiseConvParams params = Params<C>();
  RunFloatFilterCase<C>(Register_DEPTHWISE_CONV_2D(), &params,
                        two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

template <class C>
void RunInt8(bool two_inputs = false, TfLiteRegistration registration = Register_DEPTHWISE_CONV_2D()) {
  const TfLiteDepthwiseConvParams params = Params<C>();
  RunInt8FilterCase<C>(registration, &params, C::filter_quantized_dimension, true,
                       two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

// Prepare of a float32 1x1 depthwise over [1,1,1,2] through `registration`.
TfLiteStatus PrepareFloat(TfLiteRegistration registration) {
  static float input[2];
  static float filter[2];
  static float unused[2];
  static float out[2];
  const int32_t dims[] = {4, 1, 1, 1, 2};
  TfLiteTensor tensors[4] = {CreateTensor(input, IntArrayFromInts(dims)),
                             CreateTensor(filter, IntArrayFromInts(dims), true),
                             CreateTensor(unused, IntArrayFromInts(dims)),
                             CreateTensor(out, IntArrayFromInts(dims))};
  TfLiteDepthwiseConvParams params = {kTfLitePaddingValid, 1, 1, 1, kTfLiteActNone, 1, 1};
  KernelRunner runner(registration, tensors, 4, FilterOpInputs(BiasForm::kAbsent), FilterOpOutputs(), &params);
  return runner.InitAndPrepare();
}

// 16x8 (int16 activations, int8 weights) case C, TFLM's outputs exactly; a
// case without bias has 2 inputs, as TFLM's depthwise kernel needs.
template <class C>
void RunInt16() {
  const TfLiteDepthwiseConvParams params = Params<C>();
  RunInt16FilterCase<C>(Register_DEPTHWISE_CONV_2D(), &params, 3, BiasForm::kAbsent);
}

// Depthwise filter [1, 1, 2, 2]: channel c's taps are at c and 2 + c (channel is the last dimension).
// Channel 0 = {127, 127}, channel 1 = {1, 1}; input zero point -128 (|input + offset| up to 255).
TfLiteStatus PrepareDepthwiseWithBias1(int32_t bias1) {
  static int8_t input[4];
  static int8_t filter[] = {127, 1, 127, 1};
  static int32_t bias[2];
  static int8_t out[4];
  bias[0] = 0;
  bias[1] = bias1;
  const int32_t in_dims[] = {4, 1, 1, 2, 2};
  const int32_t f_dims[] = {4, 1, 1, 2, 2};
  const int32_t b_dims[] = {1, 2};
  const int32_t o_dims[] = {4, 1, 1, 2, 2};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 1.0f, -128),
      CreateQuantizedTensor(filter, IntArrayFromInts(f_dims), 1.0f, 0, true),
      CreateTensor(bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(out, IntArrayFromInts(o_dims), 1e9f, 0),
  };
  TfLiteDepthwiseConvParams params = {kTfLitePaddingSame, 1, 1, 1, kTfLiteActNone, 1, 1};
  KernelRunner runner(Register_DEPTHWISE_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  return runner.InitAndPrepare();
}

// Random int8 depthwise convolutions (multiplier 1, SAME padding) against the
// op's definition, one tap at a time: the DSP kernel's channel-major path
// (channels a multiple of 4; interior pixels straight through, border pixels
// over their valid taps; 3x3 layers through a zero-point-padded buffer) with
// per-channel scales whose requantization needs ordinary right shifts (scales
// 0), right shifts beyond 22 (1), some left shifts (2) or some shifts of 0
// (3); inputs and filters at the int8 extremes.
constexpr int kDwMaxIn = 2400;
constexpr int kDwMaxCh = 20;
int8_t g_dw_in[kDwMaxIn];
int8_t g_dw_filter[3 * 3 * kDwMaxCh];
int32_t g_dw_bias[kDwMaxCh];
int8_t g_dw_out[kDwMaxIn];
float g_dw_scales[kDwMaxCh + 1];
TestRandom g_dw_random(77u);

float DwFilterScale(int c, int scales) {
  if (scales == 1 && c % 2 == 0) return 3e-8f * static_cast<float>(c);
  if (scales == 2 && c % 3 == 0) return 2e-9f * static_cast<float>(c);
  if (scales == 2 && c % 3 == 1) return 0.9f * static_cast<float>(c);
  // Effective scale 0.05 * 6 / 0.4 = 0.75: a multiplier with shift 0 (no right shift) beside right shifts.
  if (scales == 3 && c % 4 == 1) return 6.0f;
  // A scale ratio below 2^-32: no multiplier (0, shift 0: output = zero point), beside right shifts.
  if (scales == 5 && c % 2 == 1) return 1e-12f;
  // Nearly dead channels (with DwBias mode 3): scale ratios (filter scale / 8) of 6e-10 and 3e-9 with
  // biases near 2^30, so every output of such a channel is one value, beside ordinary channels.
  if (scales == 6 && (c - 1) % 4 != 0) return (c - 1) % 4 == 3 ? 8 * 3e-9f : 8 * 6e-10f;
  return 0.01f + 0.003f * static_cast<float>(c);
}

// Channel c's bias: small (mode 0), or the largest magnitude whose
// accumulators stay below 2^30 (1: the DSP kernel's SMMULR requantization at
// its edge) or beyond (2: its 64-bit form), signs alternating by channel.
int32_t DwBias(int c, int taps, int mode) {
  const int32_t small = g_dw_random.Next(-3000, 3000);
  if (mode == 0) return small;
  if (mode == 3) {  // DwFilterScale's scales 6: zp + 1, zp - 1, zp + 3 whatever the input
    const int32_t nearly_dead[] = {small, (int32_t{1} << 30) + 128, -(int32_t{1} << 30) - 128,
                                   (int32_t{1} << 30) - 100};
    return nearly_dead[c % 4];
  }
  const int32_t reach = taps * 255 * 128;
  const int32_t most = mode == 1 ? (int32_t{1} << 30) - 1 - reach : INT32_MAX - reach;
  const int32_t b = most - (small < 0 ? -small : small);
  return c % 2 == 0 ? b : -b;
}

// Whether DwMismatches' bias is a constant tensor (prepare then makes the DSP kernel's layer class once) or
// known only at eval (the class found per Invoke).
bool g_dw_bias_constant = true;

int DwMismatches(int h, int w, int ch, int k, int stride, int scales, int32_t in_zp, TfLiteFusedActivation act,
                 int bias_mode = 0, bool valid = false, int32_t out_zp = -3) {
  const float in_scale = 0.05f;
  const float out_scale = 0.4f;
  const int oh = valid ? (h - k) / stride + 1 : (h + stride - 1) / stride;
  const int ow = valid ? (w - k) / stride + 1 : (w + stride - 1) / stride;
  for (int i = 0; i < h * w * ch; ++i) {
    const int32_t r = g_dw_random.Next(0, 9);
    g_dw_in[i] = static_cast<int8_t>(r == 0 ? -128 : (r == 1 ? 127 : g_dw_random.Next(-128, 127)));
  }
  for (int i = 0; i < k * k * ch; ++i) {
    const int32_t r = g_dw_random.Next(0, 9);
    g_dw_filter[i] = static_cast<int8_t>(r == 0 ? -127 : (r == 1 ? 127 : g_dw_random.Next(-127, 127)));
  }
  for (int c = 0; c < ch; ++c) g_dw_bias[c] = DwBias(c, k * k, bias_mode);
  if (scales == 3 && bias_mode == 0) {
    // Small accumulators, so that the shift-0 channels' outputs (0.75 acc) are not all saturated and the
    // rounding of negative values shows.
    for (int i = 0; i < h * w * ch; ++i) {
      const int32_t v = in_zp + g_dw_random.Next(-3, 3);
      g_dw_in[i] = static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
    for (int i = 0; i < k * k * ch; ++i) g_dw_filter[i] = static_cast<int8_t>(g_dw_random.Next(-2, 2));
    for (int c = 0; c < ch; ++c) g_dw_bias[c] = g_dw_random.Next(-40, 40);
  }
  // Scales 4: one filter scale for every channel (per-tensor quantization).
  const bool per_tensor = scales == 4;
  g_dw_scales[0] = static_cast<float>(per_tensor ? 1 : ch);
  for (int c = 1; c <= ch; ++c) g_dw_scales[c] = DwFilterScale(per_tensor ? 1 : c, scales);
  const int32_t in_dims[] = {4, 1, h, w, ch};
  const int32_t f_dims[] = {4, 1, k, k, ch};
  const int32_t b_dims[] = {1, ch};
  const int32_t out_dims[] = {4, 1, oh, ow, ch};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_dw_in, IntArrayFromInts(in_dims), in_scale, in_zp),
      CreatePerChannelQuantizedTensor(g_dw_filter, IntArrayFromInts(f_dims), FloatArrayFromFloats(g_dw_scales), 3),
      CreateTensor(g_dw_bias, IntArrayFromInts(b_dims), g_dw_bias_constant),
      CreateQuantizedTensor(g_dw_out, IntArrayFromInts(out_dims), out_scale, out_zp),
  };
  TfLiteDepthwiseConvParams params = {valid ? kTfLitePaddingValid : kTfLitePaddingSame, stride, stride, 1, act, 1, 1};
  KernelRunner runner(Register_DEPTHWISE_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  if (runner.InitAndPrepare() != kTfLiteOk || runner.Invoke() != kTfLiteOk) return -1;
  // ReLU: outputs below the zero point clamp to it (the activation range inside int8).
  const int32_t lo = act == kTfLiteActRelu ? out_zp : -128;
  const int pad_h = !valid && ((oh - 1) * stride + k - h) / 2 > 0 ? ((oh - 1) * stride + k - h) / 2 : 0;
  const int pad_w = !valid && ((ow - 1) * stride + k - w) / 2 > 0 ? ((ow - 1) * stride + k - w) / 2 : 0;
  int mismatches = 0;
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      for (int c = 0; c < ch; ++c) {
        int32_t acc = g_dw_bias[c];
        for (int fy = 0; fy < k; ++fy) {
          for (int fx = 0; fx < k; ++fx) {
            const int iy = oy * stride - pad_h + fy;
            const int ix = ox * stride - pad_w + fx;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            acc += (g_dw_in[(iy * w + ix) * ch + c] - in_zp) * g_dw_filter[(fy * k + fx) * ch + c];
          }
        }
        const float filter_scale = g_dw_scales[per_tensor ? 1 : c + 1];
        const double multiplier = static_cast<double>(in_scale) * static_cast<double>(filter_scale) /
                                  static_cast<double>(out_scale);
        int32_t expected = RequantizeInt8Reference(acc, multiplier, out_zp);
        if (expected < lo) expected = lo;
        if (g_dw_out[(oy * ow + ox) * ch + c] != expected) ++mismatches;
      }
    }
  }
  return mismatches;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Int8Multiplier1ShapesAndRequantizationFormsMatchTheDefinition) {
  // {h, w, channels, k, stride, scales, input zero point, relu}: 3x3 stride 1 and 2 (interior and
  // border pixels, odd sizes), a 5x5 window (the row-by-row path), a 1-pixel-wide input (no interior
  // pixel), 4 to 12 channels; input zero points at both int8 ends (offsets 128 and -127).
  static const int shapes[][8] = {{6, 7, 8, 3, 1, 0, -128, 0}, {7, 5, 4, 3, 2, 1, 127, 1}, {5, 6, 12, 3, 1, 2, 3, 0},
                           {5, 5, 4, 5, 1, 2, -128, 1}, {1, 6, 8, 3, 1, 1, -1, 0}, {4, 4, 8, 3, 2, 0, 0, 1}};
  for (const auto& s : shapes) {
    const int mismatches =
        DwMismatches(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7] != 0 ? kTfLiteActRelu : kTfLiteActNone);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d k%d s%d scales %d zp %d relu %d", s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8Multiplier1AccumulatorsNearAndBeyondTwoToThe30MatchTheDefinition) {
  // Biases whose accumulators reach just below 2^30 (SMMULR on the doubled accumulator) and beyond
  // (the 64-bit form), ordinary and beyond-22 right shifts, both input zero point extremes; nearly
  // dead channels (accumulators beyond 2^30, one output value whatever the input) beside ordinary ones.
  // {h, w, channels, k, stride, scales, input zero point, bias mode}
  static const int shapes[][8] = {{6, 7, 8, 3, 1, 0, -128, 1}, {6, 7, 8, 3, 1, 1, 127, 1}, {7, 5, 4, 3, 2, 1, -128, 2},
                           {5, 6, 12, 3, 1, 1, 127, 2}, {5, 5, 4, 5, 1, 1, -128, 1}, {6, 7, 8, 3, 1, 6, -128, 3},
                           {5, 6, 12, 3, 1, 6, 127, 3},  {7, 5, 4, 3, 2, 6, -128, 3}, {9, 8, 16, 3, 1, 6, 127, 3}};
  for (const auto& s : shapes) {
    const int mismatches = DwMismatches(s[0], s[1], s[2], s[3], s[4], s[5], s[6], kTfLiteActNone, s[7]);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d k%d s%d scales %d zp %d bias mode %d", s[0], s[1], s[2], s[3], s[4], s[5], s[6],
                  s[7]);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8Multiplier1PaddedBufferPathMatchesTheDefinition) {
  // The 3x3 path through the zero-point-padded row buffer (50 words per row, bands of 15 input rows;
  // 8 words for inputs up to 8 columns with the padding, 93 rows):
  // rows of 1 to 48 pixels (48 fills the row: 50 words; 49 and 50 do not fit and take the general
  // path), heights crossing bands (stride 1: bands of 12 output rows in pairs, 13 for an odd last
  // band whose last pair overlaps the one before, a lone row for a height of 1; stride 2: 7),
  // inputs 1 and 2 pixels wide or high (no interior pixel), 4, 8 and 12 channels, both input zero
  // point extremes, ReLU, biases at the SMMULR edge (bias mode 1) and beyond (2), shifts of 0
  // (scales 3), one filter scale for all channels (scales 4), dead channels (scales 5).
  // {h, w, channels, stride, scales, input zero point, relu, bias mode}
  static const int shapes[][8] = {
      {6, 48, 4, 1, 0, -128, 1, 0},  {5, 49, 4, 1, 0, 127, 0, 0},   {4, 50, 4, 2, 0, -128, 0, 1},
      {5, 48, 8, 2, 0, 127, 1, 1},   {5, 47, 4, 2, 0, 5, 0, 0},     {33, 18, 4, 1, 0, -128, 0, 1},
      {31, 9, 8, 2, 0, 127, 1, 0},   {30, 5, 12, 1, 0, -128, 1, 1}, {1, 1, 8, 1, 0, 127, 0, 0},
      {2, 2, 4, 1, 0, -128, 0, 1},   {1, 7, 12, 2, 0, 127, 0, 0},   {9, 1, 4, 2, 0, -128, 1, 1},
      {2, 9, 8, 2, 0, -7, 0, 0},     {3, 3, 12, 1, 0, 127, 1, 1},   {6, 6, 8, 1, 0, -128, 1, 0},
      {6, 6, 12, 2, 0, 127, 0, 0},   {25, 5, 8, 1, 0, -128, 1, 0},  {7, 7, 8, 1, 3, -128, 0, 0},
      {7, 6, 4, 2, 3, 127, 1, 1},    {5, 5, 8, 1, 1, 127, 0, 2},    {8, 8, 4, 2, 0, -128, 0, 2},
      {13, 6, 8, 1, 0, 127, 1, 0},   {14, 5, 4, 1, 0, -128, 0, 1},  {26, 3, 4, 1, 0, 127, 0, 0},
      {27, 4, 8, 1, 0, -128, 1, 1},  {1, 9, 4, 1, 0, 127, 1, 0},
      // Narrow rows (up to 8 buffer words: whole images, up to 4 groups' at once; 20 channels: a batch
      // of 4 groups and one of 1), and a wide image that fits whole (12 output rows).
      {23, 5, 20, 1, 0, -128, 0, 0}, {6, 6, 20, 1, 0, 127, 1, 1},   {3, 3, 20, 1, 1, -128, 0, 1},
      {6, 6, 20, 2, 0, -128, 1, 0},  {1, 6, 16, 1, 0, 127, 0, 0},   {90, 5, 4, 1, 0, 127, 1, 0},
      {12, 12, 8, 1, 0, -128, 0, 1}, {12, 12, 12, 2, 0, 127, 1, 0}, {2, 5, 20, 2, 0, -128, 0, 2},
      {24, 5, 20, 1, 0, 127, 1, 1},  {7, 9, 8, 1, 4, -128, 1, 0},   {9, 7, 12, 2, 4, 127, 0, 1},
      {5, 5, 4, 1, 4, 3, 0, 0},
      // Dead channels (scales 5: multiplier 0) beside live ones: the 3x3 paths refuse them, the general
      // channel-major path keeps the fast requantization (exact for them: the product is 0).
      {6, 7, 8, 1, 5, -128, 0, 0},   {7, 6, 12, 2, 5, 127, 1, 0},
  };
  // Each shape with a constant bias, then with one known only at eval.
  for (int constant = 1; constant >= 0; --constant) {
    g_dw_bias_constant = constant != 0;
    for (const auto& s : shapes) {
      const TfLiteFusedActivation act = s[6] != 0 ? kTfLiteActRelu : kTfLiteActNone;
      const int mismatches = DwMismatches(s[0], s[1], s[2], 3, s[3], s[4], s[5], act, s[7]);
      if (mismatches != 0) {
        MicroPrintf("  shape %dx%dx%d s%d scales %d zp %d relu %d bias mode %d, bias %s", s[0], s[1], s[2], s[3],
                    s[4], s[5], s[6], s[7], constant != 0 ? "constant" : "known at eval");
      }
      TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
    }
  }
  g_dw_bias_constant = true;
}

TF_LITE_MICRO_TEST(Int8Multiplier1PaddedBufferPathValidPaddingMatchesTheDefinition) {
  // VALID padding: no zero-point columns or rows; input columns and rows past the last window unused
  // (stride 2 over even sizes), narrow and wide pitches, pairs and single pixels.
  // {h, w, channels, stride, relu}
  static const int shapes[][5] = {{7, 7, 8, 1, 0}, {8, 9, 4, 2, 1}, {6, 6, 12, 2, 0}, {5, 20, 4, 1, 1},
                                  {10, 22, 8, 2, 0}, {3, 3, 4, 1, 1}, {4, 12, 8, 2, 1}};
  for (const auto& s : shapes) {
    const TfLiteFusedActivation act = s[4] != 0 ? kTfLiteActRelu : kTfLiteActNone;
    const int mismatches = DwMismatches(s[0], s[1], s[2], 3, s[3], 0, -128, act, 0, true);
    if (mismatches != 0) MicroPrintf("  shape %dx%dx%d s%d relu %d", s[0], s[1], s[2], s[3], s[4]);
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8Multiplier1ChannelPlanesPathMatchesTheDefinition) {
  // Stride 1 with the output zero point -128 (ReLU or none: int8's bounds) and rows of up to 48 pixels:
  // the channel-plane path (two pixel columns per pass, an odd last column, an odd last row of single
  // pixels) at each plane pitch (rows of up to 6, 12, 24 and 48 pixels), SAME and VALID padding,
  // heights 1 to 45, images in bands of pair rows where the buffer holds fewer (a band of the lone last
  // row alone, or with the last pairs), both input zero point extremes, biases at the SMMULR edge, one
  // filter scale for all channels.
  // {h, w, channels, scales, input zero point, relu, bias mode, valid}
  static const int shapes[][8] = {
      {25, 5, 8, 0, -128, 1, 0, 0}, {25, 5, 4, 0, 127, 0, 1, 0},  {24, 6, 12, 0, -128, 0, 0, 0},
      {1, 1, 4, 0, 127, 1, 0, 0},   {1, 6, 8, 0, -128, 0, 1, 0},  {2, 1, 4, 0, 127, 0, 0, 0},
      {3, 2, 20, 0, -128, 1, 0, 0}, {5, 3, 8, 4, 127, 1, 0, 0},   {6, 4, 4, 0, -7, 0, 1, 0},
      {44, 5, 4, 0, 127, 1, 0, 0},  {45, 5, 4, 0, -128, 0, 0, 0}, {7, 7, 8, 0, -128, 1, 0, 0},
      {9, 8, 4, 0, 127, 0, 0, 1},   {8, 7, 8, 4, -128, 1, 1, 1},  {3, 3, 4, 0, 5, 0, 0, 1},
      {12, 5, 16, 0, 127, 0, 0, 0},  {12, 48, 4, 0, -128, 1, 0, 0}, {11, 48, 4, 0, 127, 0, 1, 0},
      {9, 47, 4, 4, -7, 1, 0, 0},    {24, 24, 4, 0, -128, 0, 0, 0}, {25, 12, 8, 0, 127, 1, 1, 0},
      {10, 26, 4, 0, -128, 0, 0, 1}, {13, 13, 8, 0, 127, 1, 0, 0},  {5, 7, 12, 4, -128, 0, 1, 0},
  };
  for (const auto& s : shapes) {
    const TfLiteFusedActivation act = s[5] != 0 ? kTfLiteActRelu : kTfLiteActNone;
    const int mismatches = DwMismatches(s[0], s[1], s[2], 3, 1, s[3], s[4], act, s[6], s[7] != 0, -128);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d scales %d zp %d relu %d bias mode %d valid %d", s[0], s[1], s[2], s[3], s[4],
                  s[5], s[6], s[7]);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(FloatSameMultiplier2) { RunFloat<DwFloatSameMult2>(); }
TF_LITE_MICRO_TEST(FloatDilationStride2Relu) { RunFloat<DwFloatDilationStride2Relu>(); }
TF_LITE_MICRO_TEST(FloatValidNoBiasRelu6) { RunFloat<DwFloatValidNoBias>(); }
TF_LITE_MICRO_TEST(FloatValidNoBiasTwoInputs) { RunFloat<DwFloatValidNoBias>(true); }
TF_LITE_MICRO_TEST(Int8Multiplier1Stride2) { RunInt8<DwInt8Mult1Stride2>(); }
TF_LITE_MICRO_TEST(Int8Multiplier4ValidRelu) { RunInt8<DwInt8Mult4ValidRelu>(); }
TF_LITE_MICRO_TEST(Int8MicroSpeechLike) { RunInt8<DwInt8MicroSpeechLike>(); }
// The int8-only registration (no float32/int16 eval linked) computes the same
// and refuses other input types in prepare.
TF_LITE_MICRO_TEST(Int8OnlyRegistration) {
  RunInt8<DwInt8MicroSpeechLike>(false, Register_DEPTHWISE_CONV_2D_INT8());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_DEPTHWISE_CONV_2D()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareFloat(Register_DEPTHWISE_CONV_2D_INT8()));
}
TF_LITE_MICRO_TEST(Int8DilationNoBiasRelu6) { RunInt8<DwInt8DilationNoBias>(); }
TF_LITE_MICRO_TEST(Int8DilationNoBiasTwoInputs) { RunInt8<DwInt8DilationNoBias>(true); }
TF_LITE_MICRO_TEST(Int8Multiplier1TenChannels) { RunInt8<DwInt8Mult1Channels10>(); }
TF_LITE_MICRO_TEST(Int8Multiplier12) { RunInt8<DwInt8Mult12>(); }
TF_LITE_MICRO_TEST(Int16Multiplier2Same) { RunInt16<DwInt16Mult2Same>(); }
TF_LITE_MICRO_TEST(Int16DilationStride2Relu) { RunInt16<DwInt16DilationStride2Relu>(); }
TF_LITE_MICRO_TEST(Int16NoBiasRelu6) { RunInt16<DwInt16NoBias>(); }

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  float input[8] = {0};
  float filter[8] = {0};
  int8_t filter8[8] = {0};
  float out[8];
  const int32_t in_dims[] = {4, 1, 2, 2, 2};
  const int32_t f_dims[] = {4, 1, 1, 1, 4};
  const int32_t bad_f_dims[] = {4, 1, 1, 1, 3};  // 3 is not a multiple of 2 input channels
  const int32_t out_dims[] = {4, 1, 2, 2, 4};
  const int32_t bad_out_dims[] = {4, 1, 1, 2, 4};
  const int32_t inputs[] = {2, 0, 1};
  const int32_t outputs[] = {1, 2};
  TfLiteDepthwiseConvParams params = {kTfLitePaddingSame, 1, 1, 2, kTfLiteActNone, 1, 1};
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());  // the valid baseline
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // float input, int8 filter
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(bad_f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(bad_out_dims))};
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // wrong output height
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    t[0].type = kTfLiteUInt8;
    t[2].type = kTfLiteUInt8;
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // uint8 unsupported
  }
  {
    // A depth multiplier beyond int16 (one input channel, 32,768 output channels) where the op data keeps it
    // as int16 (builds with the DSP kernels): refused by name, not truncated (prepare reads no weights
    // before it); elsewhere a float layer of that shape prepares.
    const int32_t one_ch_dims[] = {4, 1, 2, 2, 1};
    const int32_t wide_f_dims[] = {4, 1, 1, 1, 32768};
    const int32_t wide_out_dims[] = {4, 1, 2, 2, 32768};
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(one_ch_dims)),
                         CreateTensor(filter, IntArrayFromInts(wide_f_dims), true),
                         CreateTensor(out, IntArrayFromInts(wide_out_dims))};
    KernelRunner runner(Register_DEPTHWISE_CONV_2D(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(MICRO_RUNTIME_LAYER_CLASS ? kTfLiteError : kTfLiteOk, runner.InitAndPrepare());
  }
}


TF_LITE_MICRO_TEST(AccumulatorRangeIsPerOutputChannel) {
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareDepthwiseWithBias1(INT32_MAX - 255 * 2));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareDepthwiseWithBias1(INT32_MAX - 255 * 2 + 1));
}

TF_LITE_MICRO_TESTS_END
