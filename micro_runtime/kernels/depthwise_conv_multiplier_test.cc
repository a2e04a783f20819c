// DEPTHWISE_CONV_2D int8 with a depth multiplier of 4 or more against the op's
// definition (a plain per-tap loop): the shapes the Cortex-M3 kernel
// (kernels/cortex_m/depthwise_conv_int8.cc) computes with two channels per
// 64-bit multiply-accumulate, on every core. micro_speech's layer with
// micro_speech-like values and with small values and unit scales (the outputs
// are then the accumulators: one off by one shows), and windows of 128 taps
// (that kernel's largest) and 129 (its fallback) whose sums reach
// 128 x 255 x 128 (the bound of its packed sums).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace kernel_cases;  // NOLINT

// micro_speech's layer: input 1x49x40x1, filter 1x10x8x8, stride 2, SAME.
constexpr int kMsH = 49, kMsW = 40, kMsFH = 10, kMsFW = 8, kMsC = 8, kMsOH = 25, kMsOW = 20;
int8_t g_ms_input[kMsH * kMsW];
int8_t g_ms_filter[kMsFH * kMsFW * kMsC];
int32_t g_ms_bias[kMsC];
int8_t g_ms_output[kMsOH * kMsOW * kMsC];
float g_ms_scales[kMsC + 1];

TestRandom g_random(12345u);

// The op's definition, one tap at a time with explicit bounds checks.
int8_t NaiveOutput(int oy, int ox, int c, int32_t input_zp, int32_t output_zp, float input_scale,
                   float output_scale) {
  int32_t acc = g_ms_bias[c];
  for (int fy = 0; fy < kMsFH; ++fy) {
    for (int fx = 0; fx < kMsFW; ++fx) {
      const int iy = oy * 2 - 4 + fy;  // SAME padding: total 9 rows -> 4 before
      const int ix = ox * 2 - 3 + fx;  // total 6 columns -> 3 before
      if (iy < 0 || iy >= kMsH || ix < 0 || ix >= kMsW) continue;
      acc += (g_ms_input[iy * kMsW + ix] - input_zp) * g_ms_filter[(fy * kMsFW + fx) * kMsC + c];
    }
  }
  return RequantizeInt8Reference(acc, static_cast<double>(input_scale) * static_cast<double>(g_ms_scales[c + 1]) /
                                          static_cast<double>(output_scale),
                                 output_zp);
}

// micro_speech's layer, inputs in [zp - in_amp, zp + in_amp] (within int8),
// weights in [-f_amp, f_amp], channel c's filter scale scale0 + (c + 1) * scale_step.
void RunMicroSpeechShape(int in_amp, int f_amp, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                         float scale0, float scale_step) {
  const int in_lo = in_zp - in_amp < -128 ? -128 : in_zp - in_amp;
  const int in_hi = in_zp + in_amp > 127 ? 127 : in_zp + in_amp;
  for (int i = 0; i < kMsH * kMsW; ++i) g_ms_input[i] = static_cast<int8_t>(g_random.Next(in_lo, in_hi));
  for (int i = 0; i < kMsFH * kMsFW * kMsC; ++i) {
    g_ms_filter[i] = static_cast<int8_t>(g_random.Next(-f_amp, f_amp));
  }
  for (int i = 0; i < kMsC; ++i) g_ms_bias[i] = g_random.Next(-3000, 3000) * f_amp / 127;
  g_ms_scales[0] = kMsC;
  for (int i = 1; i <= kMsC; ++i) g_ms_scales[i] = scale0 + scale_step * static_cast<float>(i);
  const int32_t in_dims[] = {4, 1, kMsH, kMsW, 1};
  const int32_t f_dims[] = {4, 1, kMsFH, kMsFW, kMsC};
  const int32_t b_dims[] = {1, kMsC};
  const int32_t out_dims[] = {4, 1, kMsOH, kMsOW, kMsC};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_ms_input, IntArrayFromInts(in_dims), in_scale, in_zp),
      CreatePerChannelQuantizedTensor(g_ms_filter, IntArrayFromInts(f_dims),
                                      FloatArrayFromFloats(g_ms_scales), 3),
      CreateTensor(g_ms_bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(g_ms_output, IntArrayFromInts(out_dims), out_scale, out_zp),
  };
  TfLiteDepthwiseConvParams params = {kTfLitePaddingSame, 2, 2, 8, kTfLiteActNone, 1, 1};
  KernelRunner runner(Register_DEPTHWISE_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  int mismatches = 0;
  for (int oy = 0; oy < kMsOH; ++oy) {
    for (int ox = 0; ox < kMsOW; ++ox) {
      for (int c = 0; c < kMsC; ++c) {
        const int8_t want = NaiveOutput(oy, ox, c, in_zp, out_zp, in_scale, out_scale);
        if (g_ms_output[(oy * kMsOW + ox) * kMsC + c] != want) ++mismatches;
      }
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
}

// Large windows with extreme sums, against the per-tap definition: 4 channels
// (multiplier 4, one input channel), VALID, stride 1, input (fh + 1) x fw so
// the output is 2 x 1. Output row 0 reads extreme inputs only
// (|input - zero point| = 255) and channels 0 and 2 have all weights -128;
// row 1's inputs are random.
void RunExtremeWindow(int fh, int fw, int32_t in_zp) {
  const int taps = fh * fw;
  const int8_t extreme = in_zp < 0 ? 127 : -128;
  for (int i = 0; i < (fh + 1) * fw; ++i) {
    g_ms_input[i] = i < taps ? extreme : static_cast<int8_t>(g_random.Next(-128, 127));
  }
  for (int t = 0; t < taps; ++t) {
    g_ms_filter[4 * t] = -128;
    g_ms_filter[4 * t + 1] = static_cast<int8_t>(g_random.Next(100, 127));
    g_ms_filter[4 * t + 2] = -128;
    g_ms_filter[4 * t + 3] = static_cast<int8_t>(g_random.Next(-128, 127));
  }
  for (int c = 0; c < 4; ++c) g_ms_bias[c] = g_random.Next(-3000, 3000);
  g_ms_scales[0] = 4;
  for (int c = 1; c <= 4; ++c) g_ms_scales[c] = 1.0f / static_cast<float>(c);
  const int32_t in_dims[] = {4, 1, fh + 1, fw, 1};
  const int32_t f_dims[] = {4, 1, fh, fw, 4};
  const int32_t b_dims[] = {1, 4};
  const int32_t out_dims[] = {4, 1, 2, 1, 4};
  const float out_scale = 40000.0f;  // no saturation: |outputs| <= 105
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_ms_input, IntArrayFromInts(in_dims), 1.0f, in_zp),
      CreatePerChannelQuantizedTensor(g_ms_filter, IntArrayFromInts(f_dims), FloatArrayFromFloats(g_ms_scales), 3),
      CreateTensor(g_ms_bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(g_ms_output, IntArrayFromInts(out_dims), out_scale, 0),
  };
  TfLiteDepthwiseConvParams params = {kTfLitePaddingValid, 1, 1, 4, kTfLiteActNone, 1, 1};
  KernelRunner runner(Register_DEPTHWISE_CONV_2D(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  for (int oy = 0; oy < 2; ++oy) {
    for (int c = 0; c < 4; ++c) {
      int32_t acc = g_ms_bias[c];
      for (int t = 0; t < taps; ++t) acc += (g_ms_input[oy * fw + t] - in_zp) * g_ms_filter[4 * t + c];
      const int8_t want =
          RequantizeInt8Reference(acc, static_cast<double>(g_ms_scales[c + 1]) / static_cast<double>(out_scale), 0);
      TF_LITE_MICRO_EXPECT_EQ(want, g_ms_output[oy * 4 + c]);
    }
  }
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(MicroSpeechShape) { RunMicroSpeechShape(255, 127, 0.5f, -20, 1.5f, 6, 0.002f, 0.001f); }

TF_LITE_MICRO_TEST(MicroSpeechShapeExactAccumulators) { RunMicroSpeechShape(2, 3, 1.0f, 5, 1.0f, -3, 1.0f, 0.0f); }

TF_LITE_MICRO_TEST(ExtremeSums128Taps) {
  RunExtremeWindow(16, 8, -128);
  RunExtremeWindow(16, 8, 127);
}

TF_LITE_MICRO_TEST(ExtremeSums129Taps) {
  RunExtremeWindow(3, 43, -128);
  RunExtremeWindow(3, 43, 127);
}

TF_LITE_MICRO_TESTS_END
