// DEPTHWISE_CONV_2D 16x8 eval (int16 input and output, int8 weights, int64
// bias: TFLM reads no other bias type here), portable C++ on every core:
// arm_dsp replaces depthwise_conv_int8.cc only. TFLM's reference arithmetic,
// in its loop order: sum of input * filter over the taps inside the input
// (zero points are 0) in 64 bits, the bias, then RequantizeInt16. Written as
// plain loops (no ForEachOutputPixel): it is linked wherever the op is, int8
// models such as micro_speech on a 64 KB Blue Pill included, so it is kept small.
#include "micro_runtime/kernels/depthwise_conv.h"

namespace micro_runtime {

TfLiteStatus DepthwiseEvalInt16(const DepthwiseOpData& d, const Int16FilterEval& e, const int16_t* input,
                                const int8_t* filter, int16_t* output) {
  const WindowGeometry& g = d.g;
  for (int b = 0; b < g.batches; ++b) {
    for (int oy = 0; oy < g.out_h; ++oy) {
      for (int ox = 0; ox < g.out_w; ++ox) {
        for (int oc = 0; oc < g.out_ch; ++oc) {
          // |input * filter| <= 2^22 and fewer than 2^31 taps: no int64 overflow.
          int64_t sum = 0;
          for (int fy = 0; fy < g.filter_h; ++fy) {
            const int iy = oy * g.stride_h - g.pad_h + fy * g.dilation_h;
            if (iy < 0 || iy >= g.in_h) continue;
            for (int fx = 0; fx < g.filter_w; ++fx) {
              const int ix = ox * g.stride_w - g.pad_w + fx * g.dilation_w;
              if (ix < 0 || ix >= g.in_w) continue;
              sum += input[((b * g.in_h + iy) * g.in_w + ix) * g.in_ch + oc / d.mult] *
                     filter[(fy * g.filter_w + fx) * g.out_ch + oc];
            }
          }
          *output++ = RequantizeInt16(d.q, e, static_cast<uint64_t>(sum), oc);
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
