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
// Integer sums are exact and wrap like the portable kernel's, so the outputs
// are bit-exact with it in any summation order.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/conv.h"

namespace {

constexpr int kChannels = 4;

// One filter word's four MACs against the unpacked input pair (x02, x13).
#define DSP_MAC4(acc, w, x02, x13)                            \
  do {                                                        \
    (acc) = dsp::Smlad(dsp::Sxtb16(w), (x02), (acc));         \
    (acc) = dsp::Smlad(dsp::Sxtb16Ror8(w), (x13), (acc));     \
  } while (0)

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
      DSP_MAC4(a[k], w, x02, x13);
      if (kSum) DSP_MAC4(s[k], w, dsp::kOnes16, dsp::kOnes16);
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

// The hot case (4 channels, no filter sums) with the four accumulators and
// filter pointers in named locals, so they all stay in registers.
template <>
inline void DotRows<4, false>(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t* acc,
                              int32_t*) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t* f0 = f;
  const int8_t* f1 = f0 + f_stride;
  const int8_t* f2 = f1 + f_stride;
  const int8_t* f3 = f2 + f_stride;
  int blocks = n >> 2;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  if (blocks > 0) {
    // Per 4 input bytes: 1 load + 2 unpacks of the input, then per channel
    // 1 load + 2 unpacks + 2 SMLAD; 25 instructions for 16 MACs. Written out
    // so that all 14 values stay in registers (GCC 12 spills some of them).
    uint32_t x, x13, w, t;
    __asm__ volatile(
        "1:\n"
        "ldr %[x], [%[in]], #4\n"
        "sxtb16 %[x13], %[x], ror #8\n"
        "sxtb16 %[x], %[x]\n"
        "ldr %[w], [%[f0]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a0], %[t], %[x], %[a0]\n"
        "smlad %[a0], %[w], %[x13], %[a0]\n"
        "ldr %[w], [%[f1]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a1], %[t], %[x], %[a1]\n"
        "smlad %[a1], %[w], %[x13], %[a1]\n"
        "ldr %[w], [%[f2]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a2], %[t], %[x], %[a2]\n"
        "smlad %[a2], %[w], %[x13], %[a2]\n"
        "ldr %[w], [%[f3]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a3], %[t], %[x], %[a3]\n"
        "smlad %[a3], %[w], %[x13], %[a3]\n"
        "subs %[blocks], %[blocks], #1\n"
        "bne 1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [in] "+r"(in), [f0] "+r"(f0),
          [f1] "+r"(f1), [f2] "+r"(f2), [f3] "+r"(f3), [blocks] "+r"(blocks), [x] "=&r"(x),
          [x13] "=&r"(x13), [w] "=&r"(w), [t] "=&r"(t)
        :
        : "cc", "memory");
  }
#else
  for (; blocks > 0; --blocks) {
    const uint32_t x = dsp::Load4(in);
    in += 4;
    const uint32_t x02 = dsp::Sxtb16(x);
    const uint32_t x13 = dsp::Sxtb16Ror8(x);
    const uint32_t w0 = dsp::Load4(f0);
    f0 += 4;
    DSP_MAC4(a0, w0, x02, x13);
    const uint32_t w1 = dsp::Load4(f1);
    f1 += 4;
    DSP_MAC4(a1, w1, x02, x13);
    const uint32_t w2 = dsp::Load4(f2);
    f2 += 4;
    DSP_MAC4(a2, w2, x02, x13);
    const uint32_t w3 = dsp::Load4(f3);
    f3 += 4;
    DSP_MAC4(a3, w3, x02, x13);
  }
#endif
  for (int i = 0; i < (n & 3); ++i) {
    const int32_t x = in[i];
    a0 += x * f0[i];
    a1 += x * f1[i];
    a2 += x * f2[i];
    a3 += x * f3[i];
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
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

}  // namespace

TfLiteStatus ConvEvalInt8(const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data.g;
  const int out_ch = g.out_ch;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const int8_t* in_win = input + p.in_offset;
    int oc = 0;
    for (; oc + kChannels <= out_ch; oc += kChannels) {
      Channels<kChannels>(data, p, in_win, filter, bias, oc, output + oc);
    }
    for (; oc < out_ch; ++oc) Channels<1>(data, p, in_win, filter, bias, oc, output + oc);
    output += out_ch;
  });
  return kTfLiteOk;
}
