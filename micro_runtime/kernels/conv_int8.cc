// CONV_2D int8 eval, portable C++ (any core). Speed: the valid part of each
// window is computed once per output pixel; with dilation_w == 1 a window row
// is one contiguous run of FW' * IC values in both the input and the filter,
// so the work is a few long dot products. sum((in + offset) * f) =
// sum(in * f) + offset * sum(f); for windows that lie fully inside the input
// the second term is a per-channel constant folded into the bias in prepare
// (constant filters only). Cores with the DSP extension use
// arm_dsp/conv_int8.cc instead (TAGS / board tag arm_dsp).
#include "micro_runtime/kernels/conv.h"

namespace {

inline int32_t Dot(const int8_t* a, const int8_t* b, int n) {
  int32_t sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<int32_t>(a[i]) * b[i];
  return sum;
}

// sum(a * b) and sum(b) together, for windows that need the offset term.
inline int32_t DotWithOffset(const int8_t* a, const int8_t* b, int n, int32_t offset) {
  int32_t sum = 0;
  int32_t b_sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += static_cast<int32_t>(a[i]) * b[i];
    b_sum += b[i];
  }
  return sum + offset * b_sum;
}

}  // namespace

TfLiteStatus ConvEvalInt8(const ConvOpData& data, const int8_t* input, const int8_t* filter,
                      const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const Int8ChannelQuant& q = data.q;
  const int in_ch = g.in_ch;
  const int in_row_stride = g.in_w * in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * in_row_stride;
  const int in_step_x = g.dilation_w * in_ch;
  const int32_t input_offset = q.input_offset;
  const Int8Requantizer requantize(q);
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const bool full = p.ny == g.filter_h && p.nx == g.filter_w;
    const bool use_folded = full && q.folded_bias != nullptr;
    const int8_t* in_win = input + p.in_offset;
    const int row_len = p.nx * in_ch;  // contiguous run per window row when dilation_w == 1
    for (int oc = 0; oc < g.out_ch; ++oc) {
      const int8_t* f_win = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
      // The (possibly corrupt) model bias is added last with WrappingAdd, so
      // only the bounded int8 products go through plain int32 sums (fuzzing).
      int32_t base;
      if (use_folded) {
        base = q.folded_bias[oc];
      } else {
        base = bias != nullptr ? bias[oc] : 0;
      }
      int32_t acc = 0;
      const int8_t* in_row = in_win;
      const int8_t* f_row = f_win;
      for (int y = 0; y < p.ny; ++y) {
        if (g.dilation_w == 1) {
          acc += use_folded ? Dot(in_row, f_row, row_len)
                            : DotWithOffset(in_row, f_row, row_len, input_offset);
        } else {
          for (int x = 0; x < p.nx; ++x) {
            acc += use_folded ? Dot(in_row + x * in_step_x, f_row + x * in_ch, in_ch)
                              : DotWithOffset(in_row + x * in_step_x, f_row + x * in_ch, in_ch,
                                              input_offset);
          }
        }
        in_row += in_step_y;
        f_row += f_row_stride;  // filter rows are dense; dilation only spreads the input
      }
      output[oc] = requantize(WrappingAdd(acc, base), oc);
    }
    output += g.out_ch;
  });
  return kTfLiteOk;
}
