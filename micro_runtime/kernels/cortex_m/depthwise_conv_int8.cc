// DEPTHWISE_CONV_2D int8 accumulators for Cortex-M cores without the DSP
// extension (Cortex-M3: board tag cortex_m; cores with it take
// arm_dsp/depthwise_conv_int8.cc first). Replaces kernels/depthwise_conv_int8.cc;
// prepare and op data are depthwise_conv.h's / depthwise_conv.cc's.
//
// Depth multiplier a multiple of 4 (micro_speech: 1 x 8), filter of at most
// kMaxTaps taps: two channels per 32x32->64 multiply-accumulate (SMLAL, which
// ARMv7-M has without the DSP extension). Channel-major: for each block of 4
// output channels (one input channel) the filter taps are packed once into a
// stack buffer, two channels per word:
//   p = f0 + f1 * 2^23     (|p| < 2^31)
// and for every output pixel each tap costs one LDRSB of the input value v
// (+ input offset), one LDRD of the two packed words and two SMLALs into
// 64-bit sums s = S0 + S1 * 2^23, where S0, S1 are the exact per-channel sums
// of v * f. |v| <= 255 (input offset in [-127, 128], checked here) and
// |f| <= 128, so over at most 128 taps |S0| <= 128 * 255 * 128 < 2^22: S0 is
// the low 23 bits of s sign-extended and S1 = (s - S0) / 2^23, both exact.
// The bias (wrapping, as the portable kernel) and Int8Requantizer follow
// (constants hoisted per channel block would save ~50k instructions per
// micro_speech Invoke but cost ~230 B of flash, which micro_speech_test lacks).
// Integer sums are exact, so the outputs are bit-exact with the portable kernel.
// micro_speech on bluepill: 1,853,862 -> 1,112,116 instructions per Invoke.
//
// Other shapes take depthwise_conv.h's block loop: multiplier 1 with the
// portable kernel's accumulators, other multipliers, windows of more than
// kMaxTaps taps or an offset beyond the bound one channel at a time
// (depthwise::AccumulateRest, the smallest code).
#include "micro_runtime/kernels/depthwise_conv.h"

namespace micro_runtime {

namespace {

using depthwise::kLanes;
using depthwise::Window;

constexpr int kMaxTaps = 128;  // filter_h * filter_w (stack: 8 bytes per tap)
constexpr int kFieldBits = 23;

// Two channels' packed filter value: f0 + f1 * 2^23.
inline int32_t Pack(int8_t f0, int8_t f1) {
  return static_cast<int32_t>(static_cast<uint32_t>(f1) * (1u << kFieldBits) + static_cast<uint32_t>(f0));
}

// The exact sums (S0, S1) of s = S0 + S1 * 2^23 with |S0| < 2^22.
inline void Unpack(int64_t s, int32_t* s0, int32_t* s1) {
  const int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(s) << (32 - kFieldBits)) >> (32 - kFieldBits);
  *s0 = lo;
  *s1 = static_cast<int32_t>((s - lo) >> kFieldBits);
}

// s01 += sum v * q[2t], s23 += sum v * q[2t + 1] over n > 0 taps along x
// (input p, p + sx, ...; packed taps q[0..2n)), v = input + offset. On
// Thumb-2, 8 instructions per tap (4 MACs): LDRSB, ADD (step), ADD (offset),
// LDRD (post-indexed), SMLAL x 2, SUBS, BNE; the compiler spills in this loop.
inline void WindowRow(const int8_t* p, const int32_t* q, int n, int32_t sx, int32_t offset, int64_t& s01,
                      int64_t& s23) {
#if defined(__thumb2__)
  uint32_t a_lo = static_cast<uint32_t>(s01), a_hi = static_cast<uint32_t>(static_cast<uint64_t>(s01) >> 32);
  uint32_t b_lo = static_cast<uint32_t>(s23), b_hi = static_cast<uint32_t>(static_cast<uint64_t>(s23) >> 32);
  int32_t v, f0, f1;
  __asm__ volatile(
      "1:\n"
      "ldrsb %[v], [%[p]]\n"
      "add %[p], %[p], %[sx]\n"
      "add %[v], %[v], %[off]\n"
      "ldrd %[f0], %[f1], [%[q]], #8\n"
      "smlal %[alo], %[ahi], %[v], %[f0]\n"
      "smlal %[blo], %[bhi], %[v], %[f1]\n"
      "subs %[n], %[n], #1\n"
      "bne 1b\n"
      : [alo] "+r"(a_lo), [ahi] "+r"(a_hi), [blo] "+r"(b_lo), [bhi] "+r"(b_hi), [p] "+r"(p), [q] "+r"(q),
        [n] "+r"(n), [v] "=&r"(v), [f0] "=&r"(f0), [f1] "=&r"(f1)
      : [sx] "r"(sx), [off] "r"(offset)
      : "cc", "memory");
  s01 = static_cast<int64_t>((static_cast<uint64_t>(a_hi) << 32) | a_lo);
  s23 = static_cast<int64_t>((static_cast<uint64_t>(b_hi) << 32) | b_lo);
#else
  int64_t a = s01, b = s23;
  for (; n > 0; --n, p += sx, q += 2) {
    const int32_t v = *p + offset;
    a += static_cast<int64_t>(v) * q[0];
    b += static_cast<int64_t>(v) * q[1];
  }
  s01 = a;
  s23 = b;
#endif
}

void EvalShared(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                int8_t* output) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& qd = d.q;
  const int fw = g.filter_w;
  const int taps = g.filter_h * fw;
  const int out_ch = g.out_ch;
  const int32_t sx = g.dilation_w * g.in_ch;
  const int32_t sy = g.dilation_h * g.in_w * g.in_ch;
  const int32_t offset = qd.input_offset;
  const Int8Requantizer requantize(qd);
  int32_t fbuf[2 * kMaxTaps];
  for (int c0 = 0; c0 < out_ch; c0 += 4) {
    const int8_t* in_c = input + c0 / d.mult;
    for (int t = 0; t < taps; ++t) {
      const int8_t* f = filter + t * out_ch + c0;
      fbuf[2 * t] = Pack(f[0], f[1]);
      fbuf[2 * t + 1] = Pack(f[2], f[3]);
    }
    int8_t* out = output + c0;
    ForEachOutputPixel(g, [&](const WindowPos& pos) {
      int64_t s01 = 0, s23 = 0;
      const int8_t* p = in_c + pos.in_offset;
      const int32_t* q = fbuf + 2 * (pos.fy0 * fw + pos.fx0);
      if (pos.nx > 0) {
        for (int y = 0; y < pos.ny; ++y, p += sy, q += 2 * fw) WindowRow(p, q, pos.nx, sx, offset, s01, s23);
      }
      int32_t acc[4];
      Unpack(s01, &acc[0], &acc[1]);
      Unpack(s23, &acc[2], &acc[3]);
      for (int j = 0; j < 4; ++j) {
        const int c = c0 + j;
        out[j] = requantize(bias != nullptr ? WrappingAdd(acc[j], bias[c]) : acc[j], c);
      }
      out += out_ch;
    });
  }
}

}  // namespace

int DepthwiseInt8LayerClass(const DepthwiseOpData&, const int32_t*) { return -1; }

TfLiteStatus DepthwiseEvalInt8(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                               const int32_t* bias, int8_t* output) {
  const int32_t offset = d.q.input_offset;
  if (d.mult % 4 == 0 && d.g.filter_h * d.g.filter_w <= kMaxTaps && offset >= -127 && offset <= 128) {
    EvalShared(d, input, filter, bias, output);
    return kTfLiteOk;
  }
  auto shared = [](const Window& w, int32_t o, int32_t* acc) { depthwise::AccumulateRest(w, o, true, kLanes, acc); };
  return depthwise::EvalInt8Blocks(d, input, filter, bias, output, depthwise::AccumulateOwnPortable<kLanes>, shared);
}

}  // namespace micro_runtime
