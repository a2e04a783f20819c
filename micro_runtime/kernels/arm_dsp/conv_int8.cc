// CONV_2D int8 eval for cores with the DSP extension (replaces
// kernels/conv_int8.cc under the arm_dsp tag; prepare and op data are conv.cc's).
//
// Per output pixel, four output channels at a time: each window row is one
// contiguous run of FW' * IC input bytes (dilation_w == 1) dotted with four
// filter rows. Four input bytes are loaded as one word and unpacked once into
// two halfword pairs (SXTB16, SXTB16 ROR #8: bytes 0,2 and 1,3); each
// channel's filter word is unpacked the same way, so two SMLADs do its four
// multiply-accumulates: 1 input load + 2 unpacks shared by 4 channels, then 5
// instructions per channel per 4 MACs. Windows fully inside the input use the
// folded bias (bias + offset * sum(filter), from prepare); other windows also
// sum their valid filter values (SMLAD with 1,1) for the offset term.
// With constant filters (folded bias) and windows of at most kColumnMax bytes,
// windows are instead dotted as one run of FH * FW * IC bytes: straight from
// the input when the window is one run there (1x1 convolutions), else from a
// stack copy with the taps outside the input set to the zero point (so the
// folded bias holds for border windows too, and short rows such as KWS's
// first layer, 4 bytes, cost no per-row call).
// Integer sums are exact and wrap like the portable kernel's, so the outputs
// are bit-exact with it in any summation order.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/conv.h"

namespace {

constexpr int kChannels = 4;

// acc[k] += sum(in[i] * f_k[i]) for i < n, f_k = f + k * f_stride; with
// kSum also sums[k] += sum(f_k[i]). The general form (any K, filter sums).
template <int K, bool kSum>
inline void DotRows(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t* acc, int32_t* sums) {
  int32_t a[K];
  int32_t s[K];
  for (int k = 0; k < K; ++k) {
    a[k] = acc[k];
    s[k] = kSum ? sums[k] : 0;
  }
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t x = dsp::Load4(in + i);
    const uint32_t x02 = dsp::Sxtb16(x);
    const uint32_t x13 = dsp::Sxtb16Ror8(x);
#pragma GCC unroll 4
    for (int k = 0; k < K; ++k) {
      const uint32_t w = dsp::Load4(f + k * f_stride + i);
      a[k] = dsp::Mac4(a[k], w, x02, x13);
      if (kSum) s[k] = dsp::Mac4(s[k], w, dsp::kOnes16, dsp::kOnes16);
    }
  }
  for (; i < n; ++i) {
    const int32_t x = in[i];
    for (int k = 0; k < K; ++k) {
      const int32_t w = f[k * f_stride + i];
      a[k] += x * w;
      if (kSum) s[k] += w;
    }
  }
  for (int k = 0; k < K; ++k) {
    acc[k] = a[k];
    if (kSum) sums[k] = s[k];
  }
}

// The hot case (4 channels, no filter sums): dsp.h's four-row dot product.
template <>
inline void DotRows<4, false>(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t* acc,
                              int32_t*) {
  dsp::DotRows4(in, f, f_stride, n, acc);
}

// K output channels [oc, oc + K) of one output pixel.
template <int K>
inline void Channels(const ConvOpData& data, const WindowPos& p, const int8_t* in_win, const int8_t* filter,
                     const int32_t* bias, int oc, int8_t* out) {
  const WindowGeometry& g = data.g;
  const Int8ChannelQuant& q = data.q;
  const int in_ch = g.in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  const bool folded = p.ny == g.filter_h && p.nx == g.filter_w && q.folded_bias != nullptr;
  int32_t acc[K] = {};
  int32_t sums[K] = {};
  const int8_t* f_row = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
  const int8_t* in_row = in_win;
  for (int y = 0; y < p.ny; ++y) {
    if (g.dilation_w == 1) {
      if (folded) {
        DotRows<K, false>(in_row, f_row, f_channel_stride, p.nx * in_ch, acc, sums);
      } else {
        DotRows<K, true>(in_row, f_row, f_channel_stride, p.nx * in_ch, acc, sums);
      }
    } else {
      for (int x = 0; x < p.nx; ++x) {
        DotRows<K, true>(in_row + x * g.dilation_w * in_ch, f_row + x * in_ch, f_channel_stride, in_ch, acc,
                         sums);
      }
    }
    in_row += in_step_y;
    f_row += f_row_stride;
  }
  for (int k = 0; k < K; ++k) {
    // As the portable kernel: products (+ offset * filter sum), then the
    // model's bias with a wrapping add (corrupt biases must not overflow).
    int32_t base;
    int32_t total = acc[k];
    if (folded) {
      base = q.folded_bias[oc + k];
    } else {
      base = bias != nullptr ? bias[oc + k] : 0;
      total = WrappingAdd(total, static_cast<int32_t>(static_cast<uint32_t>(q.input_offset) *
                                                      static_cast<uint32_t>(sums[k])));
    }
    out[k] = RequantizeToInt8(q, WrappingAdd(total, base), oc + k);
  }
}

// Largest window (FH * FW * IC bytes) the column path copies to the stack.
constexpr int kColumnMax = 640;

// The window of output pixel p as one contiguous column of FH * FW * IC
// bytes in filter order, taps outside the input set to the input's zero
// point (-offset): (zp + offset) * f = 0, so every window is a full one and
// uses the folded bias. Needs dilation_w == 1. Copies word by word (loop
// pattern recognition off: the boards' memcpy/memset go byte by byte).
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

// All output channels of one pixel from a contiguous window of n bytes that
// the folded bias applies to (a full window in one run, or a column).
inline void ChannelsOfColumn(const ConvOpData& data, const int8_t* col, int n, const int8_t* filter,
                             int8_t* out) {
  const Int8ChannelQuant& q = data.q;
  const Int8Requantizer requantize(q);
  const int32_t* folded = q.folded_bias;
  const int out_ch = data.g.out_ch;
  int oc = 0;
  for (; oc + kChannels <= out_ch; oc += kChannels) {
    int32_t acc[kChannels] = {0, 0, 0, 0};
    dsp::DotRows4(col, filter + oc * n, n, n, acc);
    for (int k = 0; k < kChannels; ++k) {
      out[oc + k] = requantize(WrappingAdd(acc[k], folded[oc + k]), oc + k);
    }
  }
  for (; oc < out_ch; ++oc) {
    int32_t acc = 0;
    DotRows<1, false>(col, filter + oc * n, n, n, &acc, nullptr);
    out[oc] = requantize(WrappingAdd(acc, folded[oc]), oc);
  }
}

}  // namespace

TfLiteStatus ConvEvalInt8(const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const int out_ch = g.out_ch;
  const int window = g.filter_h * g.filter_w * g.in_ch;
  const int32_t offset = data.q.input_offset;
  // Constant filters (folded bias), contiguous window rows and an int8 zero
  // point: whole windows as one run (1x1, or rows that follow each other in
  // the input), others through a zero-point-filled column when it is small.
  const bool folded = data.q.folded_bias != nullptr && g.dilation_w == 1 && offset >= -127 && offset <= 128;
  const bool one_run = g.filter_h == 1 || (g.filter_w == g.in_w && g.dilation_h == 1);
  const bool use_column = folded && window <= kColumnMax;
  int8_t column[kColumnMax];
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const int8_t* in_win = input + p.in_offset;
    const bool full = p.ny == g.filter_h && p.nx == g.filter_w;
    if (folded && full && one_run) {
      ChannelsOfColumn(data, in_win, window, filter, output);
    } else if (use_column) {
      FillColumn(g, p, in_win, static_cast<int8_t>(-offset), column);
      ChannelsOfColumn(data, column, window, filter, output);
    } else {
      int oc = 0;
      for (; oc + kChannels <= out_ch; oc += kChannels) {
        Channels<kChannels>(data, p, in_win, filter, bias, oc, output + oc);
      }
      for (; oc < out_ch; ++oc) Channels<1>(data, p, in_win, filter, bias, oc, output + oc);
    }
    output += out_ch;
  });
  return kTfLiteOk;
}
