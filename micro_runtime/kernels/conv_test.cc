// CONV_2D kernel tests. Cases and expected outputs come from
// testdata/conv_cases.h (TFLM's reference interpreter on the same single-op
// models, see micro_runtime/testing/gen_kernel_cases.py). Each int8 case also
// runs with non-constant weights (a filter computed by an earlier op), which
// the kernels must treat like constant ones.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/conv_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace conv_cases;    // NOLINT
using namespace kernel_cases;  // NOLINT

template <class C>
TfLiteConvParams Params() {
  TfLiteConvParams p;
  p.padding = C::padding;
  p.stride_width = C::stride_w;
  p.stride_height = C::stride_h;
  p.activation = C::activation;
  p.dilation_width_factor = C::dilation_w;
  p.dilation_height_factor = C::dilation_h;
  return p;
}

template <class C>
void RunFloat(bool two_inputs = false) {
  const TfLiteConvParams params = Params<C>();
  RunFloatFilterCase<C>(Register_CONV_2D(), &params, two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

template <class C>
void RunInt8(bool constant_weights, bool two_inputs = false) {
  const TfLiteConvParams params = Params<C>();
  RunInt8FilterCase<C>(Register_CONV_2D(), &params, C::filter_quantized_dimension, constant_weights,
                       two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

// 16x8 (int16 activations, int8 weights) case C, TFLM's outputs exactly.
template <class C>
void RunInt16() {
  const TfLiteConvParams params = Params<C>();
  RunInt16FilterCase<C>(Register_CONV_2D(), &params, 0, BiasForm::kMinusOne);
}

// Random int8 convolutions against the op's definition, one tap at a time: the
// shapes the optimized kernels special-case (input channels a multiple of 4,
// two output pixels per pass, odd output-channel counts whose last channel is
// handled on its own, 1x1 and 3x3 windows with SAME padding and strides).
constexpr int kMaxIn = 16 * 15 * 16;
constexpr int kMaxFilter = 8 * 3 * 3 * 32;
constexpr int kMaxOut = 16 * 15 * 16;
int8_t g_in[kMaxIn];
int8_t g_filter[kMaxFilter];
constexpr int kMaxOutCh = 40;
int32_t g_bias[kMaxOutCh];
int8_t g_out[kMaxOut];
float g_scales[kMaxOutCh + 1];
// Whether ConvMismatches' bias is a constant tensor (prepare then makes the DSP kernel's layer class once) or
// known only at eval (the class found per Invoke, and prepare finds no constant channels).
bool g_bias_constant = true;

TestRandom g_random(2024u);

// Filter scales of output channel c (1-based index into g_scales) for
// ConvMismatches' and the depthwise test's `scales` modes: 0 ordinary (right
// shifts of a few bits); 1 every other channel tiny (right shifts beyond 22,
// the DSP kernels' pre-shifted requantization); 2 tiny, large (a left shift)
// and ordinary channels mixed (their per-channel general form); 3 every other
// channel dead (multiplier 0, as VWW's late layers have); 4 and 5 nearly dead
// channels (NearlyDead) beside ordinary ones.
//
// Nearly dead (VWW's late layers): a scale ratio just above 2^-31 with a bias
// near 2^30, by channel c % 5 (with BiasOf's modes 5 and 6): 0 ordinary (every
// other group right shifts beyond 22); 1 and 2 ratio 6e-10 with biases +-(2^30
// + 128): every output is the zero point +-1; 3 ratio 3e-9, bias 2^30 - 100:
// every output zp + 3; 4 (mode 5 only) ratio 2.5 / (2^30 + 128), bias 2^30 +
// 128: the outputs straddle zp + 2.5, so they depend on the input.
// The scale ratio here is in_scale / out_scale = 1/8 times the filter's.
int NearlyDead(int c, int scales) { return scales == 4 ? c % 4 : c % 5; }
float FilterScale(int c, int scales) {
  const float ordinary = 0.01f + 0.003f * static_cast<float>(c);
  if (scales == 4 || scales == 5) {
    const int kind = NearlyDead(c - 1, scales);  // g_scales[c] is channel c - 1's
    const float ratio[] = {0.0f, 6e-10f, 6e-10f, 3e-9f, 2.5f / 1073741952.0f};
    if (kind != 0) return 8.0f * ratio[kind];
    return ((c - 1) / 5) % 2 == 0 ? ordinary : 3e-8f * static_cast<float>(c);
  }
  if (scales == 3 && c % 2 == 1) return 1e-12f;  // a scale ratio below 2^-32: no multiplier (0)
  if (scales == 1 && c % 2 == 0) return 3e-8f * static_cast<float>(c);
  if (scales == 2 && c % 3 == 0) return 2e-9f * static_cast<float>(c);
  if (scales == 2 && c % 3 == 1) return 0.9f * static_cast<float>(c);
  return ordinary;
}

// A random CONV_2D layer: input h x w x in_ch, out_ch filters of kh x kw,
// strides sh, sw, SAME (or VALID) padding, filter scales by FilterScale's
// `scales` mode, input zero point in_zp (-128 and 127: the int8 extremes of
// the input offset).
struct ConvShape {
  int h, w, in_ch, out_ch, kh, kw, sh, sw;
  int scales;
  int32_t in_zp;
  bool valid;
  int bias_mode;  // BiasOf's
  int32_t out_zp = 5;
  bool relu6 = false;  // the activation (else none)
};

// Output channel c's bias for `taps` products per output: mode 0 small (3
// smaller, for ConvMismatches' tiny accumulators); 1 the
// largest magnitudes whose accumulators stay below 2^30 (the DSP kernels'
// one-instruction SMMULR requantization at its edge); 2 beyond that, up to
// where the definition's int32 sum cannot overflow (their 64-bit form). Signs
// alternate by channel.
int32_t BiasOf(int c, int taps, int mode, TestRandom& random) {
  const int32_t small = random.Next(-2000, 2000);
  if (mode == 0) return small;
  if (mode == 3) return small / 100;  // ConvMismatches' tiny accumulators
  if (mode == 4) {                    // about 2^30 on the channels scales mode 3 kills, small on the others
    if (c % 2 != 0) return small;
    return small < 0 ? -(int32_t{1} << 30) - 128 : (int32_t{1} << 30) + 128;
  }
  if (mode == 5 || mode == 6) {  // scales modes 4 and 5's nearly dead channels (NearlyDead)
    const int32_t big[] = {small, (int32_t{1} << 30) + 128, -(int32_t{1} << 30) - 128, (int32_t{1} << 30) - 100,
                           (int32_t{1} << 30) + 128};
    return big[NearlyDead(c, mode - 1)];
  }
  const int32_t reach = taps * 255 * 128;
  const int32_t most = mode == 1 ? (int32_t{1} << 30) - 1 - reach : INT32_MAX - reach;
  const int32_t b = most - (small < 0 ? -small : small);
  return c % 2 == 0 ? b : -b;
}

// Mismatches of CONV_2D against the per-tap definition.
int ConvMismatches(const ConvShape& s) {
  const int32_t in_zp = s.in_zp;
  const int32_t out_zp = s.out_zp;
  const float in_scale = 0.05f;
  const float out_scale = 0.4f;
  const int h = s.h, w = s.w, in_ch = s.in_ch, out_ch = s.out_ch;
  const int oh = s.valid ? (h - s.kh) / s.sh + 1 : (h + s.sh - 1) / s.sh;
  const int ow = s.valid ? (w - s.kw) / s.sw + 1 : (w + s.sw - 1) / s.sw;
  if (out_ch > kMaxOutCh || h * w * in_ch > kMaxIn || out_ch * s.kh * s.kw * in_ch > kMaxFilter ||
      oh * ow * out_ch > kMaxOut) {
    MicroPrintf("  shape %dx%dx%d -> %d does not fit the test's buffers", h, w, in_ch, out_ch);
    return -1;
  }
  // bias_mode 3: inputs within 1 of the zero point and filters within 2 of 0 (with small biases), so
  // the accumulators stay small and the outputs of every requantization form inside int8.
  const bool tiny = s.bias_mode == 3;
  for (int i = 0; i < h * w * in_ch; ++i) {
    const int32_t v = tiny ? s.in_zp + g_random.Next(-1, 1) : g_random.Next(-128, 127);
    g_in[i] = static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
  for (int i = 0; i < out_ch * s.kh * s.kw * in_ch; ++i) {
    g_filter[i] = static_cast<int8_t>(tiny ? g_random.Next(-2, 2) : g_random.Next(-127, 127));
  }
  for (int c = 0; c < out_ch; ++c) g_bias[c] = BiasOf(c, s.kh * s.kw * in_ch, s.bias_mode, g_random);
  g_scales[0] = static_cast<float>(out_ch);
  for (int c = 1; c <= out_ch; ++c) g_scales[c] = FilterScale(c, s.scales);
  const int32_t in_dims[] = {4, 1, h, w, in_ch};
  const int32_t f_dims[] = {4, out_ch, s.kh, s.kw, in_ch};
  const int32_t b_dims[] = {1, out_ch};
  const int32_t out_dims[] = {4, 1, oh, ow, out_ch};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_in, IntArrayFromInts(in_dims), in_scale, in_zp),
      CreatePerChannelQuantizedTensor(g_filter, IntArrayFromInts(f_dims), FloatArrayFromFloats(g_scales), 0),
      CreateTensor(g_bias, IntArrayFromInts(b_dims), g_bias_constant),
      CreateQuantizedTensor(g_out, IntArrayFromInts(out_dims), out_scale, out_zp),
  };
  TfLiteConvParams params = {s.valid ? kTfLitePaddingValid : kTfLitePaddingSame, s.sw, s.sh,
                             s.relu6 ? kTfLiteActRelu6 : kTfLiteActNone, 1, 1, kTfLiteFloat32};
  // ReLU6's range in the output's quantization: [zp, zp + 6 / scale], inside int8.
  const int32_t act_min = s.relu6 ? (out_zp > -128 ? out_zp : -128) : -128;
  const int32_t six = out_zp + static_cast<int32_t>(6.0f / out_scale + 0.5f);
  const int32_t act_max = s.relu6 ? (six < 127 ? six : 127) : 127;
  KernelRunner runner(Register_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent), FilterOpOutputs(),
                      &params);
  if (runner.InitAndPrepare() != kTfLiteOk || runner.Invoke() != kTfLiteOk) return -1;
  const int pad_total_h = (oh - 1) * s.sh + s.kh - h, pad_total_w = (ow - 1) * s.sw + s.kw - w;
  const int pad_h = !s.valid && pad_total_h > 0 ? pad_total_h / 2 : 0;
  const int pad_w = !s.valid && pad_total_w > 0 ? pad_total_w / 2 : 0;
  int mismatches = 0;
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      for (int c = 0; c < out_ch; ++c) {
        int32_t acc = g_bias[c];
        for (int fy = 0; fy < s.kh; ++fy) {
          for (int fx = 0; fx < s.kw; ++fx) {
            const int iy = oy * s.sh - pad_h + fy;
            const int ix = ox * s.sw - pad_w + fx;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            for (int ic = 0; ic < in_ch; ++ic) {
              acc += (g_in[(iy * w + ix) * in_ch + ic] - in_zp) *
                     g_filter[((c * s.kh + fy) * s.kw + fx) * in_ch + ic];
            }
          }
        }
        const double multiplier = static_cast<double>(in_scale) * static_cast<double>(g_scales[c + 1]) /
                                  static_cast<double>(out_scale);
        int32_t expected = RequantizeInt8Reference(acc, multiplier, out_zp);
        expected = expected < act_min ? act_min : (expected > act_max ? act_max : expected);
        if (g_out[(oy * ow + ox) * out_ch + c] != expected) ++mismatches;
      }
    }
  }
  return mismatches;
}

// Square k x k windows, stride `stride` both ways, SAME padding, input zero point -7.
int ConvMismatches(int h, int w, int in_ch, int out_ch, int k, int stride, int scales = 0) {
  return ConvMismatches({h, w, in_ch, out_ch, k, k, stride, stride, scales, -7, false, 0});
}

}  // namespace

// Rounding ties of the requantization, reached on purpose: a 1x1 layer over 4
// channels whose filter picks input channel 0 (acc = bias + x, x the input, zero
// point 0, one step per pixel over [-128, 127]) with scale ratio 2^-k, so the
// multiplier is exactly 2^30 and the doubling high product acc / 2 sweeps across
// 2^(R-1) (R = k - 1: the rounding shift's tie, and one below it) for biases
// near 2^R (or -2^R). Per output channel the bias is 48 further on, so the four
// channels' sweeps overlap differently. Mismatches against the definition.
int TieMismatches(int k, int32_t bias_center, int32_t out_zp) {
  constexpr int kPixels = 256;
  for (int p = 0; p < kPixels; ++p) {
    for (int i = 0; i < 4; ++i) g_in[p * 4 + i] = static_cast<int8_t>(i == 0 ? p - 128 : 77 - 30 * i);
  }
  for (int c = 0; c < 4; ++c) {
    for (int i = 0; i < 4; ++i) g_filter[c * 4 + i] = static_cast<int8_t>(i == 0 ? 1 : 0);
    g_bias[c] = bias_center + 48 * c - 24;
  }
  const float ratio = 1.0f / static_cast<float>(int64_t{1} << k);
  g_scales[0] = 4.0f;
  for (int c = 1; c <= 4; ++c) g_scales[c] = ratio;
  const int32_t in_dims[] = {4, 1, 1, kPixels, 4};
  const int32_t f_dims[] = {4, 4, 1, 1, 4};
  const int32_t b_dims[] = {1, 4};
  const int32_t out_dims[] = {4, 1, 1, kPixels, 4};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_in, IntArrayFromInts(in_dims), 1.0f, 0),
      CreatePerChannelQuantizedTensor(g_filter, IntArrayFromInts(f_dims), FloatArrayFromFloats(g_scales), 0),
      CreateTensor(g_bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(g_out, IntArrayFromInts(out_dims), 1.0f, out_zp),
  };
  TfLiteConvParams params = {kTfLitePaddingValid, 1, 1, kTfLiteActNone, 1, 1, kTfLiteFloat32};
  KernelRunner runner(Register_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent), FilterOpOutputs(),
                      &params);
  if (runner.InitAndPrepare() != kTfLiteOk || runner.Invoke() != kTfLiteOk) return -1;
  int mismatches = 0;
  for (int p = 0; p < kPixels; ++p) {
    for (int c = 0; c < 4; ++c) {
      const int32_t acc = g_bias[c] + (p - 128);
      if (g_out[p * 4 + c] != RequantizeInt8Reference(acc, static_cast<double>(ratio), out_zp)) ++mismatches;
    }
  }
  return mismatches;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatSame) { RunFloat<ConvFloatSame>(); }
TF_LITE_MICRO_TEST(FloatValidStride2Relu) { RunFloat<ConvFloatValidStride2Relu>(); }
TF_LITE_MICRO_TEST(FloatDilationNoBias) { RunFloat<ConvFloatDilationNoBias>(); }
TF_LITE_MICRO_TEST(FloatDilationNoBiasTwoInputs) { RunFloat<ConvFloatDilationNoBias>(true); }
TF_LITE_MICRO_TEST(Int8PerChannelSame) { RunInt8<ConvInt8PerChannelSame>(true); }
TF_LITE_MICRO_TEST(Int8PerChannelSameNonConstant) { RunInt8<ConvInt8PerChannelSame>(false); }
TF_LITE_MICRO_TEST(Int8Stride2Relu6) { RunInt8<ConvInt8Stride2Relu6>(true); }
TF_LITE_MICRO_TEST(Int8Stride2Relu6NonConstant) { RunInt8<ConvInt8Stride2Relu6>(false); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBias) { RunInt8<ConvInt8DilationValidNoBias>(true); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBiasNonConstant) { RunInt8<ConvInt8DilationValidNoBias>(false); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBiasTwoInputs) { RunInt8<ConvInt8DilationValidNoBias>(true, true); }
TF_LITE_MICRO_TEST(Int8PerTensor) { RunInt8<ConvInt8PerTensor>(true); }
TF_LITE_MICRO_TEST(Int8PerTensorNonConstant) { RunInt8<ConvInt8PerTensor>(false); }
TF_LITE_MICRO_TEST(Int8DilationWidth) { RunInt8<ConvInt8DilationW>(true); }
TF_LITE_MICRO_TEST(Int8DilationWidthNonConstant) { RunInt8<ConvInt8DilationW>(false); }
TF_LITE_MICRO_TEST(Int16Int64BiasSame) { RunInt16<ConvInt16Int64BiasSame>(); }
TF_LITE_MICRO_TEST(Int16Int32BiasStride2) { RunInt16<ConvInt16Int32BiasStride2>(); }
TF_LITE_MICRO_TEST(Int16PerTensorNoBias) { RunInt16<ConvInt16PerTensorNoBias>(); }

TF_LITE_MICRO_TEST(FloatHandComputed1x1) {
  // 1x1 convolution on a 1x1x2x2 input: out[x][oc] = sum_ic in[x][ic] * f[oc][ic] + b[oc].
  float input[] = {1.0f, 2.0f, -3.0f, 0.5f};
  float filter[] = {1.0f, 1.0f, 2.0f, -1.0f};
  float bias[] = {0.5f, -0.5f};
  float out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 2};
  const int32_t f_dims[] = {4, 2, 1, 1, 2};
  const int32_t b_dims[] = {1, 2};
  TfLiteTensor t[4] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                       CreateTensor(filter, IntArrayFromInts(f_dims), true),
                       CreateTensor(bias, IntArrayFromInts(b_dims), true),
                       CreateTensor(out, IntArrayFromInts(in_dims))};
  TfLiteConvParams params = {kTfLitePaddingValid, 1, 1, kTfLiteActNone, 1, 1, kTfLiteFloat32};
  KernelRunner runner(Register_CONV_2D(), t, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_NEAR(3.5f, out[0], 1e-6f);   // 1 + 2 + 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-0.5f, out[1], 1e-6f);  // 2 - 2 - 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-2.0f, out[2], 1e-6f);  // -3 + 0.5 + 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-7.0f, out[3], 1e-6f);  // -6 - 0.5 - 0.5
}

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  float input[8] = {0};
  float filter[16] = {0};
  int8_t input8[8] = {0};
  int8_t filter8[16] = {0};
  float out[8];
  int8_t out8[8];
  const int32_t in_dims[] = {4, 1, 2, 2, 2};
  const int32_t f_dims[] = {4, 2, 1, 1, 2};
  const int32_t grouped_f_dims[] = {4, 2, 1, 1, 1};
  const int32_t out_dims[] = {4, 1, 2, 2, 2};
  const int32_t inputs[] = {2, 0, 1};
  const int32_t outputs[] = {1, 2};
  TfLiteConvParams params = {kTfLitePaddingSame, 1, 1, kTfLiteActNone, 1, 1, kTfLiteFloat32};
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(grouped_f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // channel mismatch
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // float input, int8 filter
  }
  {
    // int8 tensors without quantization parameters (scale 0).
    TfLiteTensor t[3] = {CreateTensor(input8, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out8, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {
    TfLiteConvParams zero_stride = {kTfLitePaddingSame, 0, 1, kTfLiteActNone, 1, 1, kTfLiteFloat32};
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &zero_stride);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());  // the valid baseline
  }
}

TF_LITE_MICRO_TEST(Int8ShapesOfTheOptimizedPathsMatchTheDefinition) {
  // {h, w, in_ch, out_ch, k, stride}: odd output-channel counts (the last channel alone), input
  // channels 4 and 8, 1x1 and 3x3, even and odd output widths (pixel pairs and a lone pixel).
  const int shapes[][6] = {{5, 5, 4, 5, 3, 1}, {6, 6, 8, 7, 3, 2}, {5, 4, 4, 3, 1, 1},
                           {6, 5, 8, 1, 3, 1}, {4, 6, 4, 6, 1, 1}, {5, 5, 8, 5, 1, 2}};
  for (const auto& s : shapes) {
    const int mismatches = ConvMismatches(s[0], s[1], s[2], s[3], s[4], s[5]);
    if (mismatches != 0) MicroPrintf("  shape %dx%dx%d -> %d, k%d s%d", s[0], s[1], s[2], s[3], s[4], s[5]);
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8PointwiseAndRequantizationFormsMatchTheDefinition) {
  // 1x1 stride 1 (the DSP kernel's direct pointwise path: pixel pairs straight through the input,
  // four channels per pass, then a pair and a lone channel) with input channels that leave 1-3
  // bytes after the blocks of 4, an odd pixel count, and every requantization form: ordinary right
  // shifts, right shifts beyond 22, left shifts. {h, w, in_ch, out_ch, k, stride, scales}
  static const int shapes[][7] = {{3, 3, 8, 7, 1, 1, 0}, {5, 3, 3, 6, 1, 1, 0}, {2, 3, 7, 5, 1, 1, 1},
                           {3, 3, 8, 7, 1, 1, 2}, {5, 5, 4, 5, 3, 1, 1}, {6, 6, 8, 7, 3, 2, 2},
                           {4, 5, 5, 4, 1, 1, 2}, {1, 1, 8, 4, 1, 1, 1}};
  for (const auto& s : shapes) {
    const int mismatches = ConvMismatches(s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d -> %d, k%d s%d scales %d", s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8FewInputChannelsMatchTheDefinition) {
  // Input channels 1-3 (the DSP kernel's permuted small windows: whole words of each window row,
  // then the rows' leftover bytes; the filter permuted on the stack, or read from the model when
  // the rows are whole words): VWW's first layer (3x3 stride 2 over 3 channels) and KWS's (10x4
  // stride 2 over 1 channel) in small, SAME padding on every side, VALID, odd sizes and pixel
  // counts (a lone last pixel), odd output channels, every requantization form and the input
  // zero point's int8 extremes. {h, w, in_ch, out_ch, kh, kw, sh, sw, scales, in_zp, valid}
  static const ConvShape shapes[] = {
      {9, 8, 3, 8, 3, 3, 2, 2, 0, -7, false, 0},    {7, 7, 3, 5, 3, 3, 2, 2, 1, -128, false, 0},
      {12, 6, 1, 8, 10, 4, 2, 2, 0, 3, false, 0},   {11, 5, 1, 7, 10, 4, 2, 2, 2, 127, false, 0},
      {6, 5, 2, 6, 3, 3, 1, 1, 0, -128, false, 0},  {5, 7, 3, 3, 2, 2, 1, 2, 2, 127, false, 0},
      {8, 9, 1, 4, 3, 5, 1, 2, 1, 0, true, 0},      {9, 9, 3, 8, 3, 3, 2, 2, 0, -1, true, 0},
      {6, 6, 2, 2, 4, 4, 1, 1, 0, -7, false, 0},    {4, 4, 1, 3, 1, 3, 1, 1, 0, -128, false, 0},
  };
  for (const ConvShape& s : shapes) {
    const int mismatches = ConvMismatches(s);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d -> %d, k%dx%d s%dx%d scales %d zp %d%s", s.h, s.w, s.in_ch, s.out_ch, s.kh,
                  s.kw, s.sh, s.sw, s.scales, static_cast<int>(s.in_zp), s.valid ? " valid" : "");
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8PointwiseTilesMatchTheDefinition) {
  // 1x1 stride 1 with input and output channels multiples of 4 (the DSP kernel's tiles of up to 8
  // pixel pairs dotted one channel pair at a time in chunks of 64 input bytes): full and partial
  // tiles, the lone last pixel, tiles limited by the pair buffer (96 channels: 6 pairs), inputs
  // longer than one chunk (72, 96), every requantization form and the zero point's extremes.
  // {h, w, in_ch, out_ch, kh, kw, sh, sw, scales, in_zp, valid}
  static const ConvShape shapes[] = {
      {3, 5, 96, 8, 1, 1, 1, 1, 0, -7, false, 0},  {5, 7, 8, 4, 1, 1, 1, 1, 1, -128, false, 0},
      {4, 5, 72, 4, 1, 1, 1, 1, 2, 127, false, 0}, {2, 9, 16, 8, 1, 1, 1, 1, 0, 127, false, 0},
      {1, 2, 4, 4, 1, 1, 1, 1, 2, -128, false, 0},
      // 3x3 windows over whole words (IC's layers): tiles of window pairs, border windows with
      // zero taps, an odd pixel count (the lone last pixel), stride 2, VALID, a 576-byte window
      // (one pair per tile), a chunk boundary (window 160: 40 blocks).
      {9, 7, 8, 8, 3, 3, 1, 1, 0, -7, false, 0},    {7, 6, 16, 4, 3, 3, 2, 2, 1, 127, false, 0},
      {5, 5, 8, 12, 3, 3, 1, 1, 2, -128, true, 0},  {3, 3, 64, 4, 3, 3, 1, 1, 0, 3, false, 0},
      {4, 5, 16, 8, 2, 5, 1, 1, 0, -128, false, 1},
      // Scales mode 2 with 8 channels: channel 7's multiplier needs a shift of exactly 0 and no
      // channel a left shift (the right-shift-only requantization must not apply its rounding fix).
      {3, 5, 8, 8, 1, 1, 1, 1, 2, -7, false, 3},    {5, 5, 8, 8, 3, 3, 1, 1, 2, 3, false, 3},
      {3, 3, 8, 7, 1, 1, 1, 1, 2, -7, false, 3},    {9, 8, 3, 8, 3, 3, 2, 2, 2, -7, false, 3},
      // Few-channel windows in tiles of 20 pairs (the stack's tile of 28-byte permuted windows): 240 pixels.
      {16, 15, 3, 8, 3, 3, 1, 1, 1, 5, false, 0},
      // More than 32 output channels: the pair loop's constants built per run of 8 groups (40: 32 + 8; 36).
      {4, 5, 8, 40, 1, 1, 1, 1, 1, -7, false, 0},   {4, 4, 4, 36, 3, 3, 1, 1, 2, 3, false, 1},
      // Dead channels (multiplier 0) with biases of about 2^30 beside ordinary ones: still the fast
      // requantization, whose SMMULR gives 0 for them however large the accumulator.
      {3, 5, 16, 8, 1, 1, 1, 1, 3, -7, false, 4},   {5, 5, 8, 8, 3, 3, 1, 1, 3, 127, false, 4},
      // Output zero point -128 (the DSP kernel's requantization without the rounding fix, whose
      // outputs it changes only below the zero point): right shifts of a few bits and beyond 22, small
      // and edge-of-2^30 biases, dead and nearly dead channels, 4 and 16 blocks, odd pixel counts.
      {3, 5, 16, 8, 1, 1, 1, 1, 0, -7, false, 0, -128},   {3, 3, 64, 8, 1, 1, 1, 1, 1, 127, false, 1, -128},
      {5, 5, 8, 8, 3, 3, 1, 1, 0, -128, false, 1, -128},  {3, 5, 16, 8, 1, 1, 1, 1, 3, -7, false, 4, -128},
      {2, 5, 64, 12, 1, 1, 1, 1, 4, 127, false, 5, -128}, {3, 3, 8, 8, 1, 1, 1, 1, 1, -128, false, 3, -128},
      // ReLU6 (the upper bound only, beside SSAT's -128) with zero points -128 and 5.
      {3, 5, 16, 8, 1, 1, 1, 1, 0, -7, false, 0, -128, true},  {3, 3, 64, 8, 1, 1, 1, 1, 1, 127, false, 1, -128, true},
      {5, 5, 8, 8, 3, 3, 1, 1, 0, -128, false, 0, -128, true}, {3, 5, 16, 8, 1, 1, 1, 1, 0, -7, false, 0, 5, true},
      // Pointwise tiles filled doubled on DSP cores (input and output zero points -128, windows of a multiple
      // of 8 bytes, more output channels than half the window): odd and even pixel counts (the lone last
      // pixel's words doubled apart), 2, 4, 6, 8 and 12 blocks, sums at the 2^30 edge, ReLU6, dead and nearly
      // dead channels with biases of about 2^30 (doubled, they wrap; their outputs do not depend on the sum).
      {3, 3, 8, 8, 1, 1, 1, 1, 0, -128, false, 0, -128},      {5, 7, 16, 12, 1, 1, 1, 1, 1, -128, false, 1, -128},
      {4, 5, 32, 24, 1, 1, 1, 1, 2, -128, false, 0, -128, true}, {3, 5, 48, 32, 1, 1, 1, 1, 3, -128, false, 4, -128},
      {2, 3, 24, 16, 1, 1, 1, 1, 4, -128, false, 5, -128},    {1, 3, 16, 16, 1, 1, 1, 1, 1, -128, false, 1, -128, true},
      // The same shapes where one condition fails: input zero points -7 and 127, windows of 12 bytes,
      // output zero point 5.
      {5, 7, 16, 12, 1, 1, 1, 1, 1, -7, false, 1, -128},      {3, 3, 8, 8, 1, 1, 1, 1, 0, 127, false, 0, -128},
      {3, 3, 12, 8, 1, 1, 1, 1, 0, -128, false, 0, -128},
      {5, 7, 16, 12, 1, 1, 1, 1, 2, -128, false, 0},         {4, 5, 8, 8, 1, 1, 1, 1, 1, -128, false, 3, 5, true},
  };
  // Each shape with a constant bias, then with one known only at eval.
  for (int constant = 1; constant >= 0; --constant) {
    g_bias_constant = constant != 0;
    for (const ConvShape& s : shapes) {
      const int mismatches = ConvMismatches(s);
      if (mismatches != 0) {
        MicroPrintf("  shape %dx%dx%d -> %d, scales %d zp %d, bias %s", s.h, s.w, s.in_ch, s.out_ch, s.scales,
                    static_cast<int>(s.in_zp), constant != 0 ? "constant" : "known at eval");
      }
      TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
    }
  }
  g_bias_constant = true;
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
// The DSP kernel's optional scratch buffer (tiles of 8 pixel pairs where its stack tile holds fewer).
// 576-byte windows: 12 pairs + the unpacked filter take 14 * 576 * 4 bytes, the smaller option (8 pairs) 10 *.
alignas(16) static uint8_t g_scratch_pool[14 * 576 * 4];  // static: the tests are in main()
#endif

TF_LITE_MICRO_TEST(Int8TilesWithAndWithoutTheOptionalScratchBufferMatchTheDefinition) {
  // Windows whose stack tile holds fewer than 8 pixel pairs (96..576 bytes): pointwise over 96 and 128
  // channels, 3x3 over 16, 32 and 64 channels, odd pixel counts; once with the optional scratch buffer
  // (on DSP cores, a pool the test runner hands out) and once without it.
  // {h, w, in_ch, out_ch, kh, kw, sh, sw, scales, in_zp, valid, bias_mode}
  static const ConvShape shapes[] = {
      {3, 5, 96, 8, 1, 1, 1, 1, 0, -7, false, 0},   {3, 3, 128, 4, 1, 1, 1, 1, 1, 127, false, 0},
      {5, 7, 16, 8, 3, 3, 1, 1, 2, -128, false, 0}, {5, 5, 32, 8, 3, 3, 1, 1, 0, 3, false, 1},
      {3, 3, 64, 4, 3, 3, 1, 1, 1, -128, false, 2}, {4, 5, 32, 8, 3, 3, 2, 2, 2, 5, true, 3},
      {3, 3, 140, 4, 1, 1, 1, 1, 0, -7, false, 0},  // 35 blocks: the four-block loop and 3 more
      // Without the scratch buffer the DSP kernel tiles the first pixels in the output's own tail
      // (12 pairs of 64-byte windows, 3 KB, below which 240 - 192 pixels write) and the rest in its stack.
      {16, 15, 16, 16, 2, 2, 1, 1, 0, -128, false, 0},
      // Pointwise layers of more than 16 pairs: the whole layer in one tile where a pool has room for it
      // (28 pairs of 64 channels, the last pixel alone: 7,680 bytes; 55 pairs of 32), else 16 pairs (the
      // 6 KB pool) or the stack's 9 / 18; 132 pixels of 8 channels: one stack tile of 66 pairs.
      {5, 11, 64, 8, 1, 1, 1, 1, 1, 127, false, 0}, {10, 11, 32, 8, 1, 1, 1, 1, 0, -7, false, 1},
      {12, 11, 8, 8, 1, 1, 1, 1, 2, -128, false, 0},
  };
  // Pool: none, room for the smaller option of 576-byte windows, room for the larger; 6 KB (the 16-pair
  // option of the 64-channel pointwise layer, not its whole layer).
  for (int with_pool = 0; with_pool < 4; ++with_pool) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    KernelRunner::SetOptionalScratchPool(with_pool != 0 ? g_scratch_pool : nullptr,
                                         with_pool == 1   ? 10 * 576 * 4
                                         : with_pool == 3 ? 6 * 1024
                                                          : sizeof(g_scratch_pool));
#endif
    for (const ConvShape& s : shapes) {
      const int mismatches = ConvMismatches(s);
      if (mismatches != 0) {
        MicroPrintf("  shape %dx%dx%d -> %d, k%dx%d s%d scales %d zp %d bias mode %d, %s", s.h, s.w, s.in_ch,
                    s.out_ch, s.kh, s.kw, s.sh, s.scales, static_cast<int>(s.in_zp), s.bias_mode,
                    with_pool != 0 ? "with the scratch pool" : "without");
      }
      TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
    }
  }
  KernelRunner::SetOptionalScratchPool(nullptr, 0);
}

TF_LITE_MICRO_TEST(Int8AccumulatorsNearAndBeyondTwoToThe30MatchTheDefinition) {
  // Biases whose accumulators reach just below 2^30 (the DSP kernels requantize with SMMULR on the
  // doubled accumulator) and beyond it (their 64-bit form: VWW's nearly-dead channels have such
  // biases), through the pointwise tiles, the pixel pairs, the few-channel windows and the general
  // windows, with ordinary and beyond-22 right shifts. Then nearly dead channels (NearlyDead):
  // accumulators beyond 2^30 whose outputs are one value for any input (prepare finds them; the DSP
  // kernels keep their one-multiply requantization for the rest of the layer) beside ordinary ones,
  // and with a channel whose outputs do depend on the input (the layer keeps the 64-bit form):
  // pointwise tiles of 4 and 16 blocks with odd pixel counts, 3x3 window tiles, pixel pairs (7
  // channels), few input channels.
  // {h, w, in_ch, out_ch, kh, kw, sh, sw, scales, in_zp, valid, bias_mode}
  static const ConvShape shapes[] = {
      {3, 5, 16, 8, 1, 1, 1, 1, 1, -128, false, 1}, {3, 5, 16, 8, 1, 1, 1, 1, 1, 127, false, 2},
      {3, 3, 8, 7, 1, 1, 1, 1, 0, -128, false, 1},  {3, 3, 8, 7, 1, 1, 1, 1, 1, -128, false, 2},
      {7, 7, 3, 5, 3, 3, 2, 2, 1, -128, false, 1},  {7, 7, 3, 5, 3, 3, 2, 2, 1, 127, false, 2},
      {5, 5, 8, 5, 3, 3, 1, 1, 0, -128, false, 1},  {6, 6, 8, 7, 3, 3, 2, 2, 1, -128, false, 2},
      {3, 5, 16, 8, 1, 1, 1, 1, 4, -7, false, 5},   {3, 3, 64, 8, 1, 1, 1, 1, 4, -128, false, 5},
      {2, 5, 64, 12, 1, 1, 1, 1, 4, 127, false, 5}, {5, 5, 8, 8, 3, 3, 1, 1, 4, -128, false, 5},
      {3, 3, 8, 7, 1, 1, 1, 1, 4, 127, false, 5},   {7, 7, 3, 8, 3, 3, 2, 2, 4, -128, false, 5},
      {3, 5, 16, 10, 1, 1, 1, 1, 5, -7, false, 6},  {3, 3, 64, 10, 1, 1, 1, 1, 5, 127, false, 6},
      {5, 5, 8, 5, 3, 3, 1, 1, 5, -128, false, 6},  {7, 7, 3, 10, 3, 3, 2, 2, 5, 127, false, 6},
  };
  for (const ConvShape& s : shapes) {
    const int mismatches = ConvMismatches(s);
    if (mismatches != 0) {
      MicroPrintf("  shape %dx%dx%d -> %d, k%dx%d s%d scales %d zp %d bias mode %d", s.h, s.w, s.in_ch, s.out_ch,
                  s.kh, s.kw, s.sh, s.scales, static_cast<int>(s.in_zp), s.bias_mode);
    }
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TEST(Int8RequantizationTiesMatchTheDefinition) {
  // {k (scale ratio 2^-k), bias center, output zero point}: right shifts of 9 (kRight) and of 23 and 30
  // (kPre: beyond 22), positive and negative accumulators, output zero points -128 (the forms without
  // the rounding fix) and 5. The outputs at the ties are off by one if any form rounds them otherwise.
  static const int32_t cases[][3] = {
      {10, 1 << 9, -128},  {10, 1 << 9, 5},  {10, -(1 << 9), -128},  {10, -(1 << 9), 5},
      {24, 1 << 23, -128}, {24, 1 << 23, 5}, {24, -(1 << 23), -128}, {24, -(1 << 23), 5},
      {31, 1 << 29, -128}, {31, 1 << 29, 5}, {31, -(1 << 29), 5},
  };
  for (const auto& t : cases) {
    const int mismatches = TieMismatches(t[0], t[1], t[2]);
    if (mismatches != 0) MicroPrintf("  ratio 2^-%d, bias %d, zero point %d", static_cast<int>(t[0]), static_cast<int>(t[1]),
                                         static_cast<int>(t[2]));
    TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
  }
}

TF_LITE_MICRO_TESTS_END
