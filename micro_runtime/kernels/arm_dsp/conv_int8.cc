// CONV_2D int8 eval for cores with the DSP extension (replaces
// kernels/conv_int8.cc under the arm_dsp tag; prepare and op data are conv.cc's).
//
// Per output pixel, four output channels at a time: a window (or window row)
// is one contiguous run of input bytes dotted with four filter rows (dsp.h's
// DotRows4). Four input bytes are loaded as one word and unpacked once into
// two halfword pairs with the input offset added in the same instruction
// (SXTAB16, SXTAB16 ROR #8: bytes 0,2 and 1,3); each channel's filter word is
// unpacked with SXTB16, so two SMLADs do its four multiply-accumulates: 1
// input load + 2 unpacks shared by 4 channels, then 5 instructions per channel
// per 4 MACs. No per-channel state beyond the requantization is kept.
// Windows are dotted as one run of FH * FW * IC bytes when they can be:
// straight from the input when the whole window is one run there (1x1
// convolutions, or rows that follow each other), else, for windows of at most
// kColumnMax bytes, from a stack copy with the taps outside the input set to
// the zero point ((zp + offset) * f = 0, so border windows cost the same as
// full ones, and short rows such as KWS's first layer, 4 bytes, cost no
// per-row call). Larger windows and dilated rows go row by row (or tap by
// tap) over the valid taps.
// Integer sums are exact and wrap like the portable kernel's, so the outputs
// are bit-exact with it in any summation order.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/conv.h"

namespace {

constexpr int kChannels = 4;

// acc[k] += sum((in[i] + offset) * f[k * f_stride + i]) for i < n, k < K
// (offset: minus an int8 zero point, so the halfword lanes hold it).
template <int K>
inline void DotRows(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t offset, int32_t* acc) {
  const uint32_t off = dsp::Offset16x2(offset);
  int32_t a[K];
  for (int k = 0; k < K; ++k) a[k] = acc[k];
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t x = dsp::Load4(in + i);
    const uint32_t x02 = dsp::Sxtab16(off, x);
    const uint32_t x13 = dsp::Sxtab16Ror8(off, x);
#pragma GCC unroll 4
    for (int k = 0; k < K; ++k) a[k] = dsp::Mac4(a[k], dsp::Load4(f + k * f_stride + i), x02, x13);
  }
  for (; i < n; ++i) {  // wrapping, like SMLAD
    const uint32_t x = static_cast<uint32_t>(in[i] + offset);
    for (int k = 0; k < K; ++k) {
      a[k] = static_cast<int32_t>(static_cast<uint32_t>(a[k]) + x * static_cast<uint32_t>(f[k * f_stride + i]));
    }
  }
  for (int k = 0; k < K; ++k) acc[k] = a[k];
}

// The hot case (4 channels): dsp.h's four-row dot product.
template <>
inline void DotRows<4>(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t offset, int32_t* acc) {
  dsp::DotRows4(in, f, f_stride, n, offset, acc);
}

// K output channels [oc, oc + K) of one output pixel, row by row (tap by tap
// when dilated) over the window's valid taps. Out of line (the rare path):
// inlined into the pixel loop, GCC 12 finds no 14 free registers for DotRows4.
template <int K>
__attribute__((noinline)) void Channels(const ConvOpData& data, const Int8Requantizer& requantize, const WindowPos& p,
                     const int8_t* in_win, const int8_t* filter, const int32_t* bias, int oc, int8_t* out) {
  const WindowGeometry& g = data.g;
  const int32_t offset = data.q.input_offset;
  const int in_ch = g.in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  int32_t acc[K] = {};
  const int8_t* f_row = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
  const int8_t* in_row = in_win;
  for (int y = 0; y < p.ny; ++y) {
    if (g.dilation_w == 1) {
      DotRows<K>(in_row, f_row, f_channel_stride, p.nx * in_ch, offset, acc);
    } else {
      for (int x = 0; x < p.nx; ++x) {
        DotRows<K>(in_row + x * g.dilation_w * in_ch, f_row + x * in_ch, f_channel_stride, in_ch, offset, acc);
      }
    }
    in_row += in_step_y;
    f_row += f_row_stride;
  }
  // As the portable kernel: the model's bias last, with a wrapping add
  // (corrupt biases must not overflow).
  for (int k = 0; k < K; ++k) out[k] = requantize(WrappingAdd(acc[k], bias != nullptr ? bias[oc + k] : 0), oc + k);
}

// Largest window (FH * FW * IC bytes) the column path copies to the stack.
constexpr int kColumnMax = 640;

// The window of output pixel p as one contiguous column of FH * FW * IC
// bytes in filter order, taps outside the input set to the input's zero
// point (-offset): (zp + offset) * f = 0, so every window is a full one.
// Needs dilation_w == 1. Copies word by word (loop pattern recognition off:
// the boards' memcpy/memset go byte by byte).
__attribute__((optimize("no-tree-loop-distribute-patterns"))) inline void FillColumn(const WindowGeometry& g, const WindowPos& p, const int8_t* in_win, int8_t zp,
                       int8_t* col) {
  const int in_ch = g.in_ch;
  const int row_len = g.filter_w * in_ch;
  const int before = p.fx0 * in_ch;
  const int valid = p.nx * in_ch;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  for (int fy = 0; fy < g.filter_h; ++fy, col += row_len) {
    if (fy < p.fy0 || fy >= p.fy1) {
      for (int i = 0; i < row_len; ++i) col[i] = zp;
      continue;
    }
    int i = 0;
    for (; i < before; ++i) col[i] = zp;
    int j = 0;
    for (; j + 4 <= valid; j += 4) {
      const uint32_t w = dsp::Load4(in_win + j);
      __builtin_memcpy(col + i + j, &w, 4);
    }
    for (; j < valid; ++j) col[i + j] = in_win[j];
    for (i += valid; i < row_len; ++i) col[i] = zp;
    in_win += in_step_y;
  }
}

// All output channels of one pixel from a contiguous window of n bytes (a
// whole window in one run, or a column). The requantizer is a local object,
// so its fields stay in registers across the int8 stores.
inline void ChannelsOfColumn(const ConvOpData& data, const int8_t* col, int n, const int8_t* filter,
                             const int32_t* bias, int8_t* out) {
  const Int8Requantizer requantize(data.q);
  const int32_t offset = data.q.input_offset;
  const int out_ch = data.g.out_ch;
  int oc = 0;
  // The sums start at the bias: they wrap, so a corrupt model bias cannot
  // overflow, and the result equals the portable kernel's bias-last sum.
  for (; oc + kChannels <= out_ch; oc += kChannels) {
    int32_t acc[kChannels] = {0, 0, 0, 0};
    if (bias != nullptr) {
      for (int k = 0; k < kChannels; ++k) acc[k] = bias[oc + k];
    }
    dsp::DotRows4(col, filter + oc * n, n, n, offset, acc);
    for (int k = 0; k < kChannels; ++k) out[oc + k] = requantize(acc[k], oc + k);
  }
  for (; oc < out_ch; ++oc) {
    int32_t acc = bias != nullptr ? bias[oc] : 0;
    DotRows<1>(col, filter + oc * n, n, n, offset, &acc);
    out[oc] = requantize(acc, oc);
  }
}

}  // namespace

TfLiteStatus ConvEvalInt8(const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const int out_ch = g.out_ch;
  const int window = g.filter_h * g.filter_w * g.in_ch;
  const int32_t offset = data.q.input_offset;
  const Int8Requantizer requantize(data.q);
  // Contiguous window rows: whole windows as one run (1x1, or rows that
  // follow each other in the input), others through a zero-point-filled
  // column when it is small.
  const bool rows = g.dilation_w == 1;
  const bool one_run = rows && (g.filter_h == 1 || (g.filter_w == g.in_w && g.dilation_h == 1));
  const bool use_column = rows && window <= kColumnMax;
  int8_t column[kColumnMax];
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const int8_t* in_win = input + p.in_offset;
    const bool full = p.ny == g.filter_h && p.nx == g.filter_w;
    if (full && one_run) {
      ChannelsOfColumn(data, in_win, window, filter, bias, output);
    } else if (use_column) {
      FillColumn(g, p, in_win, static_cast<int8_t>(-offset), column);
      ChannelsOfColumn(data, column, window, filter, bias, output);
    } else {
      int oc = 0;
      for (; oc + kChannels <= out_ch; oc += kChannels) {
        Channels<kChannels>(data, requantize, p, in_win, filter, bias, oc, output + oc);
      }
      for (; oc < out_ch; ++oc) Channels<1>(data, requantize, p, in_win, filter, bias, oc, output + oc);
    }
    output += out_ch;
  });
  return kTfLiteOk;
}
