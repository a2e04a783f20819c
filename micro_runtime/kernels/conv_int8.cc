// CONV_2D int8 eval, portable C++ (any core). Speed: the valid part of each
// window is computed once per output pixel; with dilation_w == 1 a window row
// is one contiguous run of FW' * IC values in both the input and the filter,
// so the work is a few long dot products of (input + offset) with the filter
// (taps outside the input are skipped, as the reference does). Cores with the
// DSP extension use arm_dsp/conv_int8.cc instead (TAGS / board tag arm_dsp).
#include "micro_runtime/kernels/conv.h"

namespace micro_runtime {

namespace {

// sum((a[i] + offset) * b[i]) with unsigned (wrapping) arithmetic: equal to
// the reference's int32 sum modulo 2^32, whatever the order.
inline uint32_t DotWithOffset(const int8_t* a, const int8_t* b, int n, int32_t offset) {
  uint32_t sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<uint32_t>(a[i] + offset) * static_cast<uint32_t>(b[i]);
  return sum;
}

}  // namespace

size_t ConvInt8ScratchBytes(const WindowGeometry&, int) { return 0; }
int ConvInt8LayerClass(const ConvOpData&, const int32_t*) { return -1; }

TfLiteStatus ConvEvalInt8(TfLiteContext*, const ConvOpData& data, const int8_t* input, const int8_t* filter,
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
    const int8_t* in_win = input + p.in_offset;
    const int row_len = p.nx * in_ch;  // contiguous run per window row when dilation_w == 1
    for (int oc = 0; oc < g.out_ch; ++oc) {
      const int8_t* f_win = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
      uint32_t acc = 0;
      const int8_t* in_row = in_win;
      const int8_t* f_row = f_win;
      for (int y = 0; y < p.ny; ++y) {
        if (g.dilation_w == 1) {
          acc += DotWithOffset(in_row, f_row, row_len, input_offset);
        } else {
          for (int x = 0; x < p.nx; ++x) {
            acc += DotWithOffset(in_row + x * in_step_x, f_row + x * in_ch, in_ch, input_offset);
          }
        }
        in_row += in_step_y;
        f_row += f_row_stride;  // filter rows are dense; dilation only spreads the input
      }
      // The (possibly corrupt) model bias is added with WrappingAdd (fuzzing).
      output[oc] = requantize(WrappingAdd(static_cast<int32_t>(acc), bias != nullptr ? bias[oc] : 0), oc);
    }
    output += g.out_ch;
  });
  return kTfLiteOk;
}

}  // namespace micro_runtime
