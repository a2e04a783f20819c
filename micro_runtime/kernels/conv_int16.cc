// CONV_2D 16x8 eval (int16 input and output, int8 weights, int64 or int32
// bias), portable C++ on every core: arm_dsp replaces conv_int8.cc only, so
// int16 always runs here. TFLM's reference arithmetic: sum of input * filter
// over the valid taps (zero points are 0), the bias, then RequantizeInt16
// (int64 accumulator and 15-bit multiplier, or int32 with an int32 bias).
#include "micro_runtime/kernels/conv.h"

namespace micro_runtime {

TfLiteStatus ConvEvalInt16(const ConvOpData& data, const Int16FilterEval& e, const int16_t* input,
                           const int8_t* filter, int16_t* output) {
  const WindowGeometry& g = data.g;
  const int in_ch = g.in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  const int in_step_x = g.dilation_w * in_ch;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    for (int oc = 0; oc < g.out_ch; ++oc) {
      const int8_t* f_row = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
      const int16_t* in_row = input + p.in_offset;
      uint64_t sum = 0;  // wrapping: the reference's sum modulo 2^64
      for (int y = 0; y < p.ny; ++y) {
        for (int x = 0; x < p.nx; ++x) {
          const int16_t* in_px = in_row + x * in_step_x;
          const int8_t* f_px = f_row + x * in_ch;
          // |input * filter| <= 2^22: 2^8 products fit an int32 partial sum.
          for (int i0 = 0; i0 < in_ch; i0 += 256) {
            const int i1 = in_ch - i0 < 256 ? in_ch : i0 + 256;
            int32_t part = 0;
            for (int i = i0; i < i1; ++i) part += in_px[i] * f_px[i];
            sum += static_cast<uint64_t>(static_cast<int64_t>(part));
          }
        }
        in_row += in_step_y;
        f_row += f_row_stride;
      }
      output[oc] = RequantizeInt16(data.q, e, sum, oc);
    }
    output += g.out_ch;
  });
  return kTfLiteOk;
}

}  // namespace micro_runtime
