// DEPTHWISE_CONV_2D int8 accumulators for cores with the DSP extension
// (replace kernels/depthwise_conv_int8.cc under the arm_dsp tag; the loop,
// prepare and op data are depthwise_conv.h's / depthwise_conv.cc's).
//
// Blocks of 8 output channels; per tap, each 4 channels' filter bytes are one
// word unpacked with SXTB16 / SXTB16 ROR #8 into halfword pairs (channels 0,2
// and 1,3), and each channel's product is one SMLAxy on the right halves:
//   multiplier 1: the 4 input bytes are unpacked the same way and get the
//     input offset with one SADD16 per pair: 12 instructions per 4 MACs;
//   multiplier > 1, one input channel (micro_speech): four taps along x per
//     input word, each tap's value (+ offset) a halfword, SMLAxB / SMLAxT per
//     product: about 2.4 instructions per MAC; several input channels: the
//     portable one-channel-at-a-time loop.
// Multiplier 1 with 3x3 windows, strides 1 or 2 and right-shift requantization
// (KWS, VWW) takes the zero-point-padded buffer path below instead (every
// pixel interior, whole rows in asm, requantization in 4 instructions per
// value); other multiplier-1 layers EvalMult1.
// Integer sums are exact, so outputs are bit-exact with the portable kernel.
#include <type_traits>

#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/depthwise_conv.h"

namespace micro_runtime {

namespace {

using depthwise::kLanes;
using depthwise::Window;

static_assert(kLanes == 8, "the accumulators below are written for 8 channels");

// acc[0..3] += (x + offset) * f per channel, channels in bytes 0..3 of both words.
inline void Own4(uint32_t x, uint32_t f, uint32_t offset2, int32_t* a) {
  const uint32_t x02 = dsp::Sadd16(dsp::Sxtb16(x), offset2);
  const uint32_t x13 = dsp::Sadd16(dsp::Sxtb16Ror8(x), offset2);
  const uint32_t f02 = dsp::Sxtb16(f);
  const uint32_t f13 = dsp::Sxtb16Ror8(f);
  a[0] = dsp::Smlabb(x02, f02, a[0]);
  a[1] = dsp::Smlabb(x13, f13, a[1]);
  a[2] = dsp::Smlatt(x02, f02, a[2]);
  a[3] = dsp::Smlatt(x13, f13, a[3]);
}

void AccumulateOwn(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[kLanes];
  for (int j = 0; j < kLanes; ++j) a[j] = acc[j];
  // Offsets are in [-128, 128] (checked by the caller): both halves hold it.
  const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x00010001u;
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
      Own4(dsp::Load4(in), dsp::Load4(f), offset2, a);
      Own4(dsp::Load4(in + 4), dsp::Load4(f + 4), offset2, a + 4);
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < kLanes; ++j) acc[j] = a[j];
}

// One tap for four channels sharing one input value: `fw` holds the four
// filter bytes, the value (+ offset) is the low (kHigh false) or high half of `in`.
template <bool kHigh>
inline void SharedTap(uint32_t fw, uint32_t in, int32_t& a0, int32_t& a1, int32_t& a2, int32_t& a3) {
  const uint32_t f02 = dsp::Sxtb16(fw);
  const uint32_t f13 = dsp::Sxtb16Ror8(fw);
  a0 = kHigh ? dsp::Smlabt(f02, in, a0) : dsp::Smlabb(f02, in, a0);
  a1 = kHigh ? dsp::Smlabt(f13, in, a1) : dsp::Smlabb(f13, in, a1);
  a2 = kHigh ? dsp::Smlatt(f02, in, a2) : dsp::Smlatb(f02, in, a2);
  a3 = kHigh ? dsp::Smlatt(f13, in, a3) : dsp::Smlatb(f13, in, a3);
}

// Output channels [0, 4) of a block sharing one input channel whose taps along
// x are adjacent bytes (input channels 1, no x dilation: micro_speech): four
// taps per input word, SXTB16 / SXTB16 ROR #8 + SADD16 give taps (0, 2) and
// (1, 3) with the offset as halfwords, and each tap's product with the four
// channels' filter halfwords is one SMLAxB / SMLAxT: about 2.4 instructions
// per MAC. Scalar accumulators so that they stay in registers.
inline void SharedAdjacent4(const Window& w, uint32_t offset2, int32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int fs = w.f_step_x;
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = w.ny; y > 0; --y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    int x = w.nx;
    for (; x >= 4; x -= 4) {
      const uint32_t iw = dsp::Load4(in);
      in += 4;
      const uint32_t i02 = dsp::Sadd16(dsp::Sxtb16(iw), offset2);
      const uint32_t i13 = dsp::Sadd16(dsp::Sxtb16Ror8(iw), offset2);
      const int8_t* f2 = f + 2 * fs;
      SharedTap<false>(dsp::Load4(f), i02, a0, a1, a2, a3);
      SharedTap<false>(dsp::Load4(f + fs), i13, a0, a1, a2, a3);
      SharedTap<true>(dsp::Load4(f2), i02, a0, a1, a2, a3);
      SharedTap<true>(dsp::Load4(f2 + fs), i13, a0, a1, a2, a3);
      f = f2 + 2 * fs;
    }
    for (; x > 0; --x) {
      const uint32_t v = static_cast<uint32_t>(*in++ + offset);
      SharedTap<false>(dsp::Load4(f), v, a0, a1, a2, a3);
      f += fs;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

void AccumulateShared(const Window& w, int32_t offset, int32_t* acc) {
  if (w.in_step_x == 1) {
    const uint32_t offset2 = (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x00010001u;
    Window half = w;
    SharedAdjacent4(half, offset2, offset, acc);
    half.filter += 4;
    SharedAdjacent4(half, offset2, offset, acc + 4);
    return;
  }
  // Input channels > 1 (taps along x not adjacent): one channel at a time
  // (no benchmark model has a multiplier > 1 with several input channels).
  depthwise::AccumulateRest(w, offset, true, kLanes, acc);
}

// ---- Multiplier 1, channels a multiple of 4, fast requantization (KWS, VWW) ----
//
// Channel-major: for each group of four channels the filter taps are unpacked
// once into a stack buffer (per tap: channels 0,2 and 1,3 as halfword pairs),
// then every output pixel of the group is computed: per tap one input word
// loaded and unpacked with the offset (SXTAB16, SXTAB16 ROR #8), the two
// filter words loaded with one LDRD, and one SMLABB / SMLATT per channel:
// 8 instructions per 4 MACs. Full 3x3 windows run straight-line (no loop);
// border windows (and other filter sizes) loop over their valid taps. The
// requantization constants of the four channels are hoisted out of the pixel
// loop. Integer sums are exact, so the outputs are bit-exact.

constexpr int kMaxTaps = 64;  // filter_h * filter_w handled here (stack: 8 bytes per tap)


#if MR_DSP_ASM
#define MR_DW_TAP(ADDR)                                   \
  "ldrd %[f02], %[f13], [%[q]], #8\n"                     \
  "ldr %[x], " ADDR "\n"                                  \
  "sxtab16 %[x13], %[off], %[x], ror #8\n"                \
  "sxtab16 %[x], %[off], %[x]\n"                          \
  "smlabb %[a0], %[x], %[f02], %[a0]\n"                   \
  "smlatt %[a2], %[x], %[f02], %[a2]\n"                   \
  "smlabb %[a1], %[x13], %[f13], %[a1]\n"                 \
  "smlatt %[a3], %[x13], %[f13], %[a3]\n"
#endif

// acc[0..3] += the 3x3 window at p (taps p + ky * sy + kx * sx) times the
// unpacked taps q[0..17].
__attribute__((always_inline)) inline void Window3x3(const int8_t* p, const uint32_t* q, int32_t sx, int32_t sy, uint32_t off, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if MR_DSP_ASM
  // The third tap of a row at [p, sx, LSL #1]: 13 registers, so the
  // window fits the pixel loop with the border path beside it.
  uint32_t x, x13, f02, f13;
  __asm__ volatile(
      MR_DW_TAP("[%[p]]") MR_DW_TAP("[%[p], %[sx]]") MR_DW_TAP("[%[p], %[sx], lsl #1]")
      "add %[p], %[p], %[sy]\n"
      MR_DW_TAP("[%[p]]") MR_DW_TAP("[%[p], %[sx]]") MR_DW_TAP("[%[p], %[sx], lsl #1]")
      "add %[p], %[p], %[sy]\n"
      MR_DW_TAP("[%[p]]") MR_DW_TAP("[%[p], %[sx]]") MR_DW_TAP("[%[p], %[sx], lsl #1]")
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [p] "+r"(p), [q] "+r"(q), [off] "+r"(off),
        [sx] "+r"(sx), [sy] "+r"(sy), [x] "=&r"(x), [x13] "=&r"(x13), [f02] "=&r"(f02),
        [f13] "=&r"(f13)
      :
      : "memory");
#else
  for (int y = 0; y < 3; ++y, p += sy) {
    for (int k = 0; k < 3; ++k, q += 2) {
      const uint32_t w = dsp::Load4(p + k * sx);
      const uint32_t x02 = dsp::Sxtab16(off, w), x13 = dsp::Sxtab16Ror8(off, w);
      a0 = dsp::Smlabb(x02, q[0], a0);
      a2 = dsp::Smlatt(x02, q[0], a2);
      a1 = dsp::Smlabb(x13, q[1], a1);
      a3 = dsp::Smlatt(x13, q[1], a3);
    }
  }
#endif
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// acc[0..3] += n taps along x (p, p + sx, ...) times the unpacked taps q[0..2n).
__attribute__((always_inline)) inline void WindowRow(const int8_t* p, const uint32_t* q, int n, int32_t sx, uint32_t off, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if MR_DSP_ASM
  uint32_t x, x13, f02, f13;
  __asm__ volatile(
      "1:\n"
      MR_DW_TAP("[%[p]]")
      "add %[p], %[p], %[sx]\n"
      "subs %[n], %[n], #1\n"
      "bne 1b\n"
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [p] "+r"(p), [q] "+r"(q), [off] "+r"(off),
        [sx] "+r"(sx), [n] "+r"(n), [x] "=&r"(x), [x13] "=&r"(x13), [f02] "=&r"(f02), [f13] "=&r"(f13)
      :
      : "cc", "memory");
#else
  for (; n > 0; --n, p += sx, q += 2) {
    const uint32_t w = dsp::Load4(p);
    const uint32_t x02 = dsp::Sxtab16(off, w), x13 = dsp::Sxtab16Ror8(off, w);
    a0 = dsp::Smlabb(x02, q[0], a0);
    a2 = dsp::Smlatt(x02, q[0], a2);
    a1 = dsp::Smlabb(x13, q[1], a1);
    a3 = dsp::Smlatt(x13, q[1], a3);
  }
#endif
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// Int8Requantizer's fast path with one channel's constants hoisted:
// m the multiplier, rb = ((2 zp + 1) << r) / 2, r the right shift.
inline int8_t FastRequantize(int32_t acc, int32_t m, int32_t rb, int r, int32_t lo, int32_t hi) {
  const int64_t ab = static_cast<int64_t>(acc) * m;
  const int32_t x = static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
  const int32_t t = SaturatingAddInt32(x - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31), rb);
  return static_cast<int8_t>(ClampInt32(t >> r, lo, hi));
}

// Channels c0..c0+3's accumulators -> four int8 outputs (one word store).
template <dsp::RequantKind kKind>
inline void Requantize4(const int32_t* acc, const dsp::ChannelRequant* rq, const Int8Requantizer& general, int c0,
                        uint32_t lo4, uint32_t hi4, int8_t* out) {
  int32_t v[4];
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    v[j] = dsp::RequantizeShifted<kKind>(acc[j], rq[j], general, c0 + j);
  }
  dsp::Store4(out, dsp::PackClamp4(v[0], v[1], v[2], v[3], lo4, hi4));
}

// Channel-major, four channels at a time: the filter taps unpacked once per
// group, the requantization constants hoisted; per output row the pixels whose
// window lies inside the input (computed once per layer, no division per
// pixel) run straight through (a 3x3 window without a loop), the border ones
// over their valid taps.
template <dsp::RequantKind kKind>
void EvalMult1(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter, const int32_t* bias,
               int8_t* output) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& qd = d.q;
  const int ch = g.in_ch;
  const int fw = g.filter_w;
  const int taps = g.filter_h * fw;
  const int32_t sx = g.dilation_w * ch;
  const int32_t sy = g.dilation_h * g.in_w * ch;
  const int32_t in_row = g.in_w * ch;
  const uint32_t off = dsp::Offset16x2(qd.input_offset);
  const bool full3x3 = g.filter_h == 3 && fw == 3;
  const uint32_t lo4 = dsp::Bytes4(qd.act_min), hi4 = dsp::Bytes4(qd.act_max);
  const Int8Requantizer general(qd);
  int ox_lo, ox_hi;
  dsp::FullWindowRange(g.out_w, g.stride_w, g.pad_w, g.in_w, fw, g.dilation_w, &ox_lo, &ox_hi);
  uint32_t fbuf[2 * kMaxTaps];
  for (int b = 0; b < g.batches; ++b) {
    const int8_t* in_b = input + b * g.in_h * in_row;
    int8_t* out_b = output + b * g.out_h * g.out_w * ch;
    for (int c0 = 0; c0 < ch; c0 += 4) {
      for (int t = 0; t < taps; ++t) {
        const uint32_t w = dsp::Load4(filter + t * ch + c0);
        fbuf[2 * t] = dsp::Sxtb16(w);
        fbuf[2 * t + 1] = dsp::Sxtb16Ror8(w);
      }
      dsp::ChannelRequant rq[4];
      for (int j = 0; j < 4; ++j) rq[j] = dsp::LayerChannelRequant<kKind>(qd, c0 + j);
      int32_t b0[4];
      for (int j = 0; j < 4; ++j) b0[j] = bias != nullptr ? bias[c0 + j] : 0;
      int8_t* out = out_b + c0;
      for (int oy = 0; oy < g.out_h; ++oy) {
        const int origin_y = oy * g.stride_h - g.pad_h;
        int fy0, fy1;
        ValidFilterRange(origin_y, g.dilation_h, g.in_h, g.filter_h, &fy0, &fy1);
        const int ny = fy1 - fy0;
        const int8_t* in_y = in_b + (origin_y + fy0 * g.dilation_h) * in_row + c0;
        // One loop for the row, one requantization after either window
        // form: the interior pixels' straight-line windows and the border
        // pixels' valid taps alternate within a row (KWS's rows are 5 pixels),
        // so the loop's code must fit the 1 KB instruction cache of
        // flash-based cores such as the L4R5 (one copy of each part).
        const bool full_rows = ny == g.filter_h;
        const int run_lo = full_rows ? ox_lo : g.out_w;
        const int run_hi = full_rows ? ox_hi : g.out_w;
        int origin_x = -g.pad_w;
        int8_t* o = out;
        for (int ox = 0; ox < g.out_w; ++ox, origin_x += g.stride_w, o += ch) {
          int32_t acc[4] = {b0[0], b0[1], b0[2], b0[3]};
          if (ox >= run_lo && ox < run_hi) {
            const int8_t* p = in_y + origin_x * ch;
            if (full3x3) {
              Window3x3(p, fbuf, sx, sy, off, acc);
            } else {
              const uint32_t* q = fbuf;
              for (int y = 0; y < g.filter_h; ++y, p += sy, q += 2 * fw) WindowRow(p, q, fw, sx, off, acc);
            }
          } else {
            int fx0, fx1;
            ValidFilterRange(origin_x, g.dilation_w, g.in_w, fw, &fx0, &fx1);
            const int nx = fx1 - fx0;
            if (nx > 0 && ny > 0) {
              const int8_t* p = in_y + (origin_x + fx0 * g.dilation_w) * ch;
              const uint32_t* q = fbuf + 2 * (fy0 * fw + fx0);
              for (int y = 0; y < ny; ++y, p += sy, q += 2 * fw) WindowRow(p, q, nx, sx, off, acc);
            }
          }
          Requantize4<kKind>(acc, rq, general, c0, lo4, hi4, o);
        }
        out += g.out_w * ch;
      }
    }
  }
}

// ---- Multiplier 1, 3x3 windows, stride 1 or 2, right-shift requantization (KWS, VWW) ----
//
// Per group of four channels, the input rows a band of output rows reads are
// copied into a stack buffer of fixed pitch with the padding filled with the
// input zero point, so every output pixel is an interior one: its 9 taps are
// at fixed offsets from one pointer (immediates), and one loop without
// branches runs a whole band (no border path beside it to share the
// instruction cache with): stride 1 two pixels one above the other per pass
// of two channels (PairBand, about 118 cycles per pixel and 4 channels on the
// M4), stride 2 two pixels side by side (HPairBand, about 123; rows of an
// odd number of pixels or the narrow pitch: one pixel and 4 channels per
// pass, PadBand, about 134). Narrow layers
// (KWS, VWW's 6x6 and 3x3) take a buffer pitch of 8 words and whole images,
// several groups at once (their setup and copy code apart from the loop's in
// the 1 KB instruction cache of flash-based cores). The input offset is folded into the bias
// (bias + offset * sum of the taps: a zero point in the padding contributes
// zero, as the reference's skipped taps), so the input words are only
// sign-extended, and the filter taps and the bias are doubled, so the sum is
// 2 * acc, the doubling high multiply's operand (|acc| < 2^30 for kRight
// layers: no overflow). Integer sums are exact, so the outputs are bit-exact.
//
// Requantization per value (right shift r in [1, 22], multiplier m >= 0):
//   t = SMMLAR(2 acc, m, rb - (acc < 0)) >> r, SSAT 8
// SMMLAR(2a, m, c) = c + ((2a * m + 2^31) >> 32) = c + x, the doubling high
// multiply x (exact for |a| < 2^30). The reference adds rb to x - (x < 0)
// (saturating: |x| < 2^30 and |rb| < 2^29, so it never does) and shifts by r.
// With m >= 0, acc < 0 and x < 0 differ only where x = 0 (2am in
// [-2^31, 0)), and there the -1 cannot change (x + rb) >> r: that needs
// x = 2^(r-1) mod 2^r, and 0 is not (r >= 1).

inline int32_t Lo16s(uint32_t v) { return static_cast<int16_t>(v & 0xFFFFu); }
inline int32_t Hi16s(uint32_t v) { return static_cast<int16_t>(v >> 16); }

// Buffer rows of kPadWords words (output rows up to (50 - 3) / stride + 1
// pixels), or of kNarrowWords for narrow layers (up to 8 input columns: KWS,
// VWW's 6x6 and 3x3), whose whole images fit the buffer, several groups'
// at once; the row pitch is the assembly's immediates.
constexpr int kPadWords = 50;
constexpr int kNarrowWords = 8;
constexpr int kBufWords = 750;  // 3000 bytes of stack
constexpr int kMaxBatch = 4;    // groups whose images the buffer holds at once

// What the row loop reads, at fixed offsets (the assembly's immediates).
struct PadCtx {
  int32_t bias[4];    // 0: 2 * (bias + offset * sum of the channel's taps)
  uint32_t taps[18];  // 16: tap t = 3 ky + kx: channels 0,2 and 1,3 as doubled halfwords
  int32_t rq[8];      // 88: rb0, m0, rb1, m1, rb2, m2, rb3, m3
  int32_t shift[4];   // 120: r per channel
  uint32_t lo4, hi4;  // 136, 140: the activation bounds in every byte
  int32_t row_jump;   // 144: buffer bytes from a row's end to the next row's first window
  int32_t width;      // 148: output pixels per row
  int32_t rows;       // 152: output rows left in the band (the loop counts it down)
};
static_assert(__builtin_offsetof(PadCtx, taps) == 16 && __builtin_offsetof(PadCtx, rq) == 88 &&
                  __builtin_offsetof(PadCtx, shift) == 120 && __builtin_offsetof(PadCtx, lo4) == 136 &&
                  __builtin_offsetof(PadCtx, row_jump) == 144 && __builtin_offsetof(PadCtx, rows) == 152,
              "the assembly below addresses PadCtx by these offsets");

#if MR_DSP_ASM
// One tap: filter words at ctx + F, F + 4; input word at p + I.
#define MR_PT(F, F4, I)                                   \
  "ldr %[f], [%[ctx], #" #F "]\n"                         \
  "ldr %[g], [%[ctx], #" #F4 "]\n"                        \
  "ldr %[x], [%[p], #" I "]\n"                            \
  "sxtb16 %[y], %[x], ror #8\n"                           \
  "sxtb16 %[x], %[x]\n"                                   \
  "smlabb %[a0], %[x], %[f], %[a0]\n"                     \
  "smlatt %[a2], %[x], %[f], %[a2]\n"                     \
  "smlabb %[a1], %[y], %[g], %[a1]\n"                     \
  "smlatt %[a3], %[y], %[g], %[a3]\n"
// Channels j, k: rb - (acc < 0) + the doubling high multiply (RB, M, RB2, M2: offsets).
#define MR_RQ2(RBJ, MJ, RBK, MK, AJ, AK)                  \
  "ldr %[x], [%[ctx], #" #RBJ "]\n"                       \
  "ldr %[y], [%[ctx], #" #MJ "]\n"                        \
  "ldr %[f], [%[ctx], #" #RBK "]\n"                       \
  "ldr %[g], [%[ctx], #" #MK "]\n"                        \
  "add %[x], %[x], %[" AJ "], asr #31\n"                  \
  "smmlar %[" AJ "], %[" AJ "], %[y], %[x]\n"             \
  "add %[f], %[f], %[" AK "], asr #31\n"                  \
  "smmlar %[" AK "], %[" AK "], %[g], %[f]\n"
// The activation bounds (lo4, hi4) on the four packed bytes.
#define MR_PAD_CLAMP                                       \
  "ldr %[x], [%[ctx], #136]\n"                             \
  "ldr %[y], [%[ctx], #140]\n"                             \
  "ssub8 %[f], %[a0], %[x]\n"                              \
  "sel %[a0], %[a0], %[x]\n"                               \
  "ssub8 %[f], %[y], %[a0]\n"                              \
  "sel %[a0], %[a0], %[y]\n"
// A band: ctx->rows rows of ctx->width (= n) output pixels; STEP: the input
// bytes per pixel; CLAMP: MR_PAD_CLAMP, or nothing where the bounds are
// int8's (SSAT's).
#define MR_PAD_BAND(STEP, CLAMP, PB)                       \
  "1:\n"                                                   \
  "ldr %[a0], [%[ctx], #0]\n"                              \
  "ldr %[a1], [%[ctx], #4]\n"                              \
  "ldr %[a2], [%[ctx], #8]\n"                              \
  "ldr %[a3], [%[ctx], #12]\n"                             \
  MR_PT(24, 28, "4") MR_PT(32, 36, "8")                    \
  MR_PT(40, 44, PB) MR_PT(48, 52, PB "+4")                 \
  MR_PT(56, 60, PB "+8") MR_PT(64, 68, "2*" PB)            \
  MR_PT(72, 76, "2*" PB "+4") MR_PT(80, 84, "2*" PB "+8")  \
  "ldr %[f], [%[ctx], #16]\n"                              \
  "ldr %[g], [%[ctx], #20]\n"                              \
  "ldr %[x], [%[p]], #" STEP "\n"                          \
  "sxtb16 %[y], %[x], ror #8\n"                            \
  "sxtb16 %[x], %[x]\n"                                    \
  "smlabb %[a0], %[x], %[f], %[a0]\n"                      \
  "smlatt %[a2], %[x], %[f], %[a2]\n"                      \
  "smlabb %[a1], %[y], %[g], %[a1]\n"                      \
  "smlatt %[a3], %[y], %[g], %[a3]\n"                      \
  MR_RQ2(88, 92, 96, 100, "a0", "a1")                      \
  MR_RQ2(104, 108, 112, 116, "a2", "a3")                   \
  "ldr %[x], [%[ctx], #120]\n"                             \
  "ldr %[y], [%[ctx], #124]\n"                             \
  "ldr %[f], [%[ctx], #128]\n"                             \
  "ldr %[g], [%[ctx], #132]\n"                             \
  "asr %[a0], %[a0], %[x]\n"                               \
  "asr %[a1], %[a1], %[y]\n"                               \
  "asr %[a2], %[a2], %[f]\n"                               \
  "asr %[a3], %[a3], %[g]\n"                               \
  "ssat %[a0], #8, %[a0]\n"                                \
  "ssat %[a1], #8, %[a1]\n"                                \
  "ssat %[a2], #8, %[a2]\n"                                \
  "ssat %[a3], #8, %[a3]\n"                                \
  "bfi %[a0], %[a1], #8, #8\n"                             \
  "bfi %[a0], %[a2], #16, #8\n"                            \
  "bfi %[a0], %[a3], #24, #8\n"                            \
  CLAMP                                                    \
  "str %[a0], [%[out]]\n"                                  \
  "add %[out], %[out], %[ostep]\n"                         \
  "subs %[n], %[n], #1\n"                                  \
  "bne 1b\n"                                               \
  "ldr %[x], [%[ctx], #144]\n"                             \
  "ldr %[n], [%[ctx], #148]\n"                             \
  "ldr %[y], [%[ctx], #152]\n"                             \
  "add %[p], %[p], %[x]\n"                                 \
  "subs %[y], %[y], #1\n"                                  \
  "str %[y], [%[ctx], #152]\n"                             \
  "bne 1b\n"
#define MR_PAD_BAND_OPERANDS                                                                              \
  : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [p] "+r"(p), [out] "+r"(out),        \
    [n] "+r"(n), [x] "=&r"(x), [y] "=&r"(y), [f] "=&r"(f), [g] "=&r"(g), [ctx] "+r"(c), [ostep] "+r"(ostep) \
  :                                                                                                       \
  : "cc", "memory"
#endif

// A band of ctx->rows output rows of ctx->width pixels (both >= 1): the
// window of the first at p (the buffer), the next ones kStride words on and
// ctx->row_jump bytes more at each row's end; the four output bytes of the
// pixels one after another at out, ostep bytes apart (the rows are
// consecutive in the output).
#if !MR_DSP_ASM
// The C forms of the padded-buffer loops: a 3x3 window at p (rows `pitch`
// words apart) added to a[0..3], the doubled taps t = 3 ky + kx of channels
// 0, 2 at t02[t * step] and of channels 1, 3 at t13[t * step].
inline void Window3x3C(const uint32_t* p, int pitch, const uint32_t* t02, const uint32_t* t13, int step, int32_t* a) {
  for (int t = 0; t < 9; ++t) {
    const uint32_t w = p[(t / 3) * pitch + t % 3];
    const uint32_t x02 = dsp::Sxtb16(w), x13 = dsp::Sxtb16Ror8(w);
    a[0] = dsp::Smlabb(x02, t02[t * step], a[0]);
    a[2] = dsp::Smlatt(x02, t02[t * step], a[2]);
    a[1] = dsp::Smlabb(x13, t13[t * step], a[1]);
    a[3] = dsp::Smlatt(x13, t13[t * step], a[3]);
  }
}

// Four channels' doubled sums requantized and stored as one word (without
// `clamp` the bounds are int8's: PackClamp4's saturation alone).
inline void StoreDoubled4(const int32_t* a, const dsp::ChannelRequant* rq, const Int8Requantizer& general, int c0,
                          bool clamp, uint32_t lo4, uint32_t hi4, int8_t* out) {
  int32_t v[4];
  for (int j = 0; j < 4; ++j) v[j] = dsp::RequantizeShifted<dsp::kRight>(a[j] >> 1, rq[j], general, c0 + j);
  dsp::Store4(out, dsp::PackClamp4(v[0], v[1], v[2], v[3], clamp ? lo4 : 0x80808080u, clamp ? hi4 : 0x7F7F7F7Fu));
}
#endif

template <int kStride, bool kClamp, int kW>
__attribute__((noinline)) void PadBand(PadCtx& ctx, const dsp::ChannelRequant* rq,
                                                   const Int8Requantizer& general, int c0, const uint32_t* p,
                                                   int8_t* out, int32_t ostep) {
#if MR_DSP_ASM
  (void)rq;
  (void)general;
  (void)c0;
  int32_t a0, a1, a2, a3;
  uint32_t x, y, f, g;
  PadCtx* c = &ctx;
  int n = ctx.width;
  static_assert(kStride == 2 && (kW == kPadWords || kW == kNarrowWords), "stride 1 takes PairBand");
  if (kW == kPadWords && kClamp) {
    __asm__ volatile(MR_PAD_BAND("8", MR_PAD_CLAMP, "200") MR_PAD_BAND_OPERANDS);
  } else if (kW == kPadWords) {
    __asm__ volatile(MR_PAD_BAND("8", "", "200") MR_PAD_BAND_OPERANDS);
  } else if (kClamp) {
    __asm__ volatile(MR_PAD_BAND("8", MR_PAD_CLAMP, "32") MR_PAD_BAND_OPERANDS);
  } else {
    __asm__ volatile(MR_PAD_BAND("8", "", "32") MR_PAD_BAND_OPERANDS);
  }
#else
  for (; ctx.rows > 0; --ctx.rows) {
    for (int n = ctx.width; n > 0; --n, p += kStride, out += ostep) {
      int32_t a[4] = {ctx.bias[0], ctx.bias[1], ctx.bias[2], ctx.bias[3]};
      Window3x3C(p, kW, ctx.taps, ctx.taps + 1, 2, a);
      StoreDoubled4(a, rq, general, c0, kClamp, ctx.lo4, ctx.hi4, out);
    }
    p += ctx.row_jump / 4;
  }
#endif
}

// ---- Stride 1: two pixels one above the other, two channels at a time ----
//
// Pixel A at (y, x) and B at (y + 1, x) read buffer rows 0..2 and 1..3 of
// the same column: per filter column the four input words are loaded once
// and serve both pixels (7 loads for 12 MACs instead of 9), and each
// requantization constant serves both. Two passes per pair: channels 0, 2
// (the input words' bytes 0, 2: SXTB16 of the word at p) and channels 1, 3
// (bytes 1, 3: SXTB16 of the word at p + 1), each pass with its own block of
// taps and constants; the first pass's bytes wait in a register.
struct PairPass {
  int32_t bias[2];   // +0: the channels' 2 * (bias + offset * sum of taps)
  uint32_t taps[9];  // +8: tap t = 3 ky + kx: the two channels' doubled taps as halfwords
  int32_t rq[4];     // +44: rb, m of the low channel, then of the high one
  int32_t shift[2];  // +60
};
struct PairCtx {
  PairPass pass[2];   // 0, 68
  uint32_t spare[2];  // 136: unused (the offsets below are the assembly's)
  uint32_t lo4, hi4;  // 144, 148
  int32_t row_jump;   // 152: buffer bytes from a pair row's end to the next one's first window
  int32_t width;      // 156
  int32_t rows;       // 160: pair rows left
  int32_t out_jump;   // 164: output bytes from a pair row's end to the next one's start (B's row)
  int32_t last_row_jump, last_out_jump;  // 168, 172: the same before the last pair row
};
static_assert(sizeof(PairPass) == 68 && __builtin_offsetof(PairCtx, spare) == 136 &&
                  __builtin_offsetof(PairCtx, lo4) == 144 && __builtin_offsetof(PairCtx, row_jump) == 152 &&
                  __builtin_offsetof(PairCtx, rows) == 160 && __builtin_offsetof(PairCtx, last_out_jump) == 172,
              "the assembly below addresses PairCtx by these offsets");

#if MR_DSP_ASM
// Filter column KX of pass block B, input byte offset X: taps (0..2, KX)
// with input rows 0..3.
// The first tap's four products: B's first (its accumulators start from A's,
// the biases, so only A's are loaded), or in the usual order.
#define MR_PMAC_FIRST                                       \
  "smlabb %[bl], %[xb], %[f], %[al]\n"                      \
  "smlatt %[bh], %[xb], %[f], %[ah]\n"                      \
  "smlabb %[al], %[xa], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xa], %[f], %[ah]\n"
#define MR_PMAC                                             \
  "smlabb %[al], %[xa], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xa], %[f], %[ah]\n"                      \
  "smlabb %[bl], %[xb], %[f], %[bl]\n"                      \
  "smlatt %[bh], %[xb], %[f], %[bh]\n"
#define MR_PCOL(B, X, KX, PB, MAC)                          \
  "ldr %[f], [%[ctx], #" B "+8+4*" KX "]\n"                 \
  "ldr %[xa], [%[p], #" X "+4*" KX "]\n"                    \
  "ldr %[xb], [%[p], #" X "+" PB "+4*" KX "]\n"             \
  "sxtb16 %[xa], %[xa]\n"                                   \
  "sxtb16 %[xb], %[xb]\n"                                   \
  MAC                                                       \
  "ldr %[f], [%[ctx], #" B "+8+4*(3+" KX ")]\n"             \
  "ldr %[xa], [%[p], #" X "+2*" PB "+4*" KX "]\n"           \
  "sxtb16 %[xa], %[xa]\n"                                   \
  "smlabb %[al], %[xb], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xb], %[f], %[ah]\n"                      \
  "smlabb %[bl], %[xa], %[f], %[bl]\n"                      \
  "smlatt %[bh], %[xa], %[f], %[bh]\n"                      \
  "ldr %[f], [%[ctx], #" B "+8+4*(6+" KX ")]\n"             \
  "ldr %[xb], [%[p], #" X "+3*" PB "+4*" KX "]\n"           \
  "sxtb16 %[xb], %[xb]\n"                                   \
  "smlabb %[al], %[xa], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xa], %[f], %[ah]\n"                      \
  "smlabb %[bl], %[xb], %[f], %[bl]\n"                      \
  "smlatt %[bh], %[xb], %[f], %[bh]\n"
// The four values of a pass requantized (as MR_RQ2), A's two bytes at bytes
// 0 and 2 of al, B's of bl.
#define MR_PRQ(B)                                           \
  "ldr %[xa], [%[ctx], #" B "+44]\n"                        \
  "ldr %[xb], [%[ctx], #" B "+48]\n"                        \
  "add %[f], %[xa], %[al], asr #31\n"                       \
  "smmlar %[al], %[al], %[xb], %[f]\n"                      \
  "add %[f], %[xa], %[bl], asr #31\n"                       \
  "smmlar %[bl], %[bl], %[xb], %[f]\n"                      \
  "ldr %[xa], [%[ctx], #" B "+52]\n"                        \
  "ldr %[xb], [%[ctx], #" B "+56]\n"                        \
  "add %[f], %[xa], %[ah], asr #31\n"                       \
  "smmlar %[ah], %[ah], %[xb], %[f]\n"                      \
  "add %[f], %[xa], %[bh], asr #31\n"                       \
  "smmlar %[bh], %[bh], %[xb], %[f]\n"                      \
  "ldr %[xa], [%[ctx], #" B "+60]\n"                        \
  "ldr %[xb], [%[ctx], #" B "+64]\n"                        \
  "asr %[al], %[al], %[xa]\n"                               \
  "asr %[bl], %[bl], %[xa]\n"                               \
  "asr %[ah], %[ah], %[xb]\n"                               \
  "asr %[bh], %[bh], %[xb]\n"                               \
  "ssat %[al], #8, %[al]\n"                                 \
  "ssat %[bl], #8, %[bl]\n"                                 \
  "ssat %[ah], #8, %[ah]\n"                                 \
  "ssat %[bh], #8, %[bh]\n"                                 \
  "pkhbt %[al], %[al], %[ah], lsl #16\n"                    \
  "pkhbt %[bl], %[bl], %[bh], lsl #16\n"                    \
  "uxtb16 %[al], %[al]\n"                                   \
  "uxtb16 %[bl], %[bl]\n"
// One pass: the window, then the four values requantized (as MR_RQ2), A's
// two bytes at bytes 0 and 2 of al, B's of bl.
#define MR_PPASS(B, X, PB)                                  \
  "ldr %[al], [%[ctx], #" B "+0]\n"                         \
  "ldr %[ah], [%[ctx], #" B "+4]\n"                         \
  MR_PCOL(B, X, "0", PB, MR_PMAC_FIRST)                     \
  MR_PCOL(B, X, "1", PB, MR_PMAC) MR_PCOL(B, X, "2", PB, MR_PMAC) \
  MR_PRQ(B)
#define MR_PAIR_CLAMP1(R)                                   \
  "ssub8 %[f], %[" R "], %[xa]\n"                           \
  "sel %[" R "], %[" R "], %[xa]\n"                         \
  "ssub8 %[f], %[xb], %[" R "]\n"                           \
  "sel %[" R "], %[" R "], %[xb]\n"
#define MR_PAIR_CLAMP                                       \
  "ldr %[xa], [%[ctx], #144]\n"                             \
  "ldr %[xb], [%[ctx], #148]\n"                             \
  MR_PAIR_CLAMP1("al") MR_PAIR_CLAMP1("bl")
// ctx->rows pair rows of n = ctx->width pairs; B's bytes at out + rowb,
// stored before A's (rowb 0: B is a row past the band, A's bytes stay).
// Between pair rows the buffer and output pointers move by row_jump and
// out_jump, before the last one by last_row_jump and last_out_jump.
#define MR_PAIR_BAND(CLAMP, PB)                             \
  "1:\n"                                                    \
  MR_PPASS("0", "0", PB)                                    \
  "orr %[s], %[al], %[bl], lsl #8\n"                        \
  MR_PPASS("68", "1", PB)                                   \
  "uxtb16 %[xa], %[s]\n"                                    \
  "uxtb16 %[xb], %[s], ror #8\n"                            \
  "orr %[al], %[xa], %[al], lsl #8\n"                       \
  "orr %[bl], %[xb], %[bl], lsl #8\n"                       \
  CLAMP                                                     \
  "str %[bl], [%[out], %[rowb]]\n"                          \
  "str %[al], [%[out]]\n"                                   \
  "add %[out], %[out], %[ostep]\n"                          \
  "add %[p], %[p], #4\n"                                    \
  "subs %[n], %[n], #1\n"                                   \
  "bne 1b\n"                                                \
  "ldr %[xb], [%[ctx], #160]\n"                             \
  "ldr %[n], [%[ctx], #156]\n"                              \
  "subs %[xb], %[xb], #1\n"                                 \
  "beq 9f\n"                                                \
  "str %[xb], [%[ctx], #160]\n"                             \
  "cmp %[xb], #1\n"                                         \
  "ite eq\n"                                                \
  "ldreq %[xa], [%[ctx], #168]\n"                           \
  "ldrne %[xa], [%[ctx], #152]\n"                           \
  "ite eq\n"                                                \
  "ldreq %[xb], [%[ctx], #172]\n"                           \
  "ldrne %[xb], [%[ctx], #164]\n"                           \
  "add %[p], %[p], %[xa]\n"                                 \
  "add %[out], %[out], %[xb]\n"                             \
  "b 1b\n"                                                  \
  "9:\n"
#define MR_PAIR_BAND_OPERANDS                                                                                  \
  : [al] "=&r"(al), [ah] "=&r"(ah), [bl] "=&r"(bl), [bh] "=&r"(bh), [p] "+r"(p), [out] "+r"(out),           \
    [n] "+r"(n), [xa] "=&r"(xa), [xb] "=&r"(xb), [f] "=&r"(f), [ctx] "+r"(c), [ostep] "+r"(ostep),          \
    [rowb] "+r"(rowb), [s] "=&r"(s)                                                                            \
  :                                                                                                            \
  : "cc", "memory"
#endif

// ctx.rows pair rows (>= 1) of ctx.width pixels: pair row j's A row is
// buffer row 2 j (the windows at p + 2 j kW + x; the last pair row's
// one row less where the band's rows are odd: its A row is the previous B
// row, computed again), its outputs at out + (2 j width + x) ostep, B's rowb
// bytes further (rowb = width * ostep; 0 for a band of one row, whose B lies
// past the band: only A's bytes are kept, B's window reads buffer rows that
// exist but hold anything).
// Out of line: one copy of the loop (the odd band's last row calls it too),
// apart from the setup and copy code in the instruction cache.
template <bool kClamp, int kW>
__attribute__((noinline)) void PairBand(PairCtx& ctx, const dsp::ChannelRequant* rq,
                                                    const Int8Requantizer& general, int c0, const uint32_t* p,
                                                    int8_t* out, int32_t ostep, int32_t rowb) {
#if MR_DSP_ASM
  (void)rq;
  (void)general;
  (void)c0;
  int32_t al, ah, bl, bh;
  uint32_t xa, xb, f, s;  // s: the first pass's bytes, A's and B's interleaved
  PairCtx* c = &ctx;
  int n = ctx.width;
  static_assert(kW == kPadWords || kW == kNarrowWords, "the assembly's row pitches");
  if (kW == kPadWords && kClamp) {
    __asm__ volatile(MR_PAIR_BAND(MR_PAIR_CLAMP, "200") MR_PAIR_BAND_OPERANDS);
  } else if (kW == kPadWords) {
    __asm__ volatile(MR_PAIR_BAND("", "200") MR_PAIR_BAND_OPERANDS);
  } else if (kClamp) {
    __asm__ volatile(MR_PAIR_BAND(MR_PAIR_CLAMP, "32") MR_PAIR_BAND_OPERANDS);
  } else {
    __asm__ volatile(MR_PAIR_BAND("", "32") MR_PAIR_BAND_OPERANDS);
  }
#else
  for (; ctx.rows > 0; --ctx.rows) {
    for (int x = 0; x < ctx.width; ++x, ++p, out += ostep) {
      for (int pix = (rowb != 0 ? 1 : 0); pix >= 0; --pix) {
        const uint32_t* w = p + pix * kW;
        int32_t a[4];
        for (int j = 0; j < 4; ++j) a[j] = ctx.pass[j & 1].bias[j >> 1];
        for (int t = 0; t < 9; ++t) {
          const uint32_t v = w[(t / 3) * kW + t % 3];
          const uint32_t x02 = dsp::Sxtb16(v), x13 = dsp::Sxtb16Ror8(v);
          a[0] = dsp::Smlabb(x02, ctx.pass[0].taps[t], a[0]);
          a[2] = dsp::Smlatt(x02, ctx.pass[0].taps[t], a[2]);
          a[1] = dsp::Smlabb(x13, ctx.pass[1].taps[t], a[1]);
          a[3] = dsp::Smlatt(x13, ctx.pass[1].taps[t], a[3]);
        }
        int32_t v[4];
        for (int j = 0; j < 4; ++j) v[j] = dsp::RequantizeShifted<dsp::kRight>(a[j] >> 1, rq[j], general, c0 + j);
        dsp::Store4(out + pix * rowb, dsp::PackClamp4(v[0], v[1], v[2], v[3], kClamp ? ctx.lo4 : 0x80808080u,
                                                      kClamp ? ctx.hi4 : 0x7F7F7F7Fu));
      }
    }
    p += (ctx.rows == 2 ? ctx.last_row_jump : ctx.row_jump) / 4;
    out += ctx.rows == 2 ? ctx.last_out_jump : ctx.out_jump;
  }
#endif
}

// ---- Stride 2: two pixels side by side, two channels at a time ----
//
// As PairBand, with B the pixel right of A (its window two input columns
// on): A's third column is B's first, loaded once (8 loads per row for 12
// MACs instead of 9). Rows of an even number of pixels; the context is a
// PairCtx (row_jump between rows; no row of B apart: B's bytes follow A's).
#if MR_DSP_ASM
// Filter row KY of pass block B, input byte offset X, input row offset R.
#define MR_HROW(B, X, R, KY, MAC)                           \
  "ldr %[f], [%[ctx], #" B "+8+4*(3*" KY ")]\n"             \
  "ldr %[xa], [%[p], #" X "+" R "]\n"                       \
  "ldr %[xb], [%[p], #" X "+" R "+8]\n"                     \
  "sxtb16 %[xa], %[xa]\n"                                   \
  "sxtb16 %[xb], %[xb]\n"                                   \
  MAC                                                       \
  "ldr %[f], [%[ctx], #" B "+8+4*(3*" KY "+1)]\n"           \
  "ldr %[xa], [%[p], #" X "+" R "+4]\n"                     \
  "ldr %[xc], [%[p], #" X "+" R "+12]\n"                    \
  "sxtb16 %[xa], %[xa]\n"                                   \
  "sxtb16 %[xc], %[xc]\n"                                   \
  "smlabb %[al], %[xa], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xa], %[f], %[ah]\n"                      \
  "smlabb %[bl], %[xc], %[f], %[bl]\n"                      \
  "smlatt %[bh], %[xc], %[f], %[bh]\n"                      \
  "ldr %[f], [%[ctx], #" B "+8+4*(3*" KY "+2)]\n"           \
  "ldr %[xa], [%[p], #" X "+" R "+16]\n"                    \
  "sxtb16 %[xa], %[xa]\n"                                   \
  "smlabb %[al], %[xb], %[f], %[al]\n"                      \
  "smlatt %[ah], %[xb], %[f], %[ah]\n"                      \
  "smlabb %[bl], %[xa], %[f], %[bl]\n"                      \
  "smlatt %[bh], %[xa], %[f], %[bh]\n"
#define MR_HPASS(B, X)                                      \
  "ldr %[al], [%[ctx], #" B "+0]\n"                         \
  "ldr %[ah], [%[ctx], #" B "+4]\n"                         \
  MR_HROW(B, X, "0", "0", MR_PMAC_FIRST)                    \
  MR_HROW(B, X, "200", "1", MR_PMAC)                        \
  MR_HROW(B, X, "400", "2", MR_PMAC)                        \
  MR_PRQ(B)
// ctx->rows rows of n = ctx->width pairs.
#define MR_HPAIR_BAND(CLAMP)                                \
  "1:\n"                                                    \
  MR_HPASS("0", "0")                                        \
  "orr %[s], %[al], %[bl], lsl #8\n"                        \
  MR_HPASS("68", "1")                                       \
  "uxtb16 %[xa], %[s]\n"                                    \
  "uxtb16 %[xb], %[s], ror #8\n"                            \
  "orr %[al], %[xa], %[al], lsl #8\n"                       \
  "orr %[bl], %[xb], %[bl], lsl #8\n"                       \
  CLAMP                                                     \
  "str %[bl], [%[out], %[ostep]]\n"                         \
  "str %[al], [%[out]]\n"                                   \
  "add %[out], %[out], %[ostep], lsl #1\n"                  \
  "add %[p], %[p], #16\n"                                   \
  "subs %[n], %[n], #1\n"                                   \
  "bne 1b\n"                                                \
  "ldr %[xa], [%[ctx], #152]\n"                             \
  "ldr %[n], [%[ctx], #156]\n"                              \
  "ldr %[xb], [%[ctx], #160]\n"                             \
  "add %[p], %[p], %[xa]\n"                                 \
  "subs %[xb], %[xb], #1\n"                                 \
  "str %[xb], [%[ctx], #160]\n"                             \
  "bne 1b\n"
#define MR_HPAIR_BAND_OPERANDS                                                                                 \
  : [al] "=&r"(al), [ah] "=&r"(ah), [bl] "=&r"(bl), [bh] "=&r"(bh), [p] "+r"(p), [out] "+r"(out),           \
    [n] "+r"(n), [xa] "=&r"(xa), [xb] "=&r"(xb), [xc] "=&r"(xc), [f] "=&r"(f), [ctx] "+r"(c),               \
    [ostep] "+r"(ostep), [s] "=&r"(s)                                                                          \
  :                                                                                                            \
  : "cc", "memory"
#endif

// ctx.rows rows (>= 1) of 2 ctx.width pixels (the wide pitch): pixel pair
// x's windows at p + 4 x and p + 4 x + 2 words, its outputs at
// out + 2 x ostep and out + (2 x + 1) ostep; ctx.row_jump bytes on to the
// next row's first window, whose outputs follow.
template <bool kClamp>
__attribute__((noinline)) void HPairBand(PairCtx& ctx, const dsp::ChannelRequant* rq,
                                         const Int8Requantizer& general, int c0, const uint32_t* p, int8_t* out,
                                         int32_t ostep) {
#if MR_DSP_ASM
  (void)rq;
  (void)general;
  (void)c0;
  int32_t al, ah, bl, bh;
  uint32_t xa, xb, xc, f, s;
  PairCtx* c = &ctx;
  int n = ctx.width;
  if (kClamp) {
    __asm__ volatile(MR_HPAIR_BAND(MR_PAIR_CLAMP) MR_HPAIR_BAND_OPERANDS);
  } else {
    __asm__ volatile(MR_HPAIR_BAND("") MR_HPAIR_BAND_OPERANDS);
  }
#else
  for (; ctx.rows > 0; --ctx.rows) {
    for (int x = 0; x < 2 * ctx.width; ++x, p += 2, out += ostep) {
      int32_t a[4];
      for (int j = 0; j < 4; ++j) a[j] = ctx.pass[j & 1].bias[j >> 1];
      Window3x3C(p, kPadWords, ctx.pass[0].taps, ctx.pass[1].taps, 1, a);
      StoreDoubled4(a, rq, general, c0, kClamp, ctx.lo4, ctx.hi4, out);
    }
    p += ctx.row_jump / 4;
  }
#endif
}

// rows rows of n words each into the buffer: row r's words from
// s + r * in_row, s + r * in_row + ch, ... to dst + r * pitch (one channel
// group's input pixels of consecutive input rows).
struct CopyJob {
  int32_t blocks;  // 0: n / 4
  int32_t tail;    // 4: n % 4
  int32_t skip_s;  // 8: in_row - n * ch
  int32_t skip_d;  // 12: 4 * (pitch - n), the pitch in words
  int32_t rows;    // 16: rows left (counted down)
};
inline void CopyRows(uint32_t* dst, const int8_t* s, int32_t ch, CopyJob* job) {
#if MR_DSP_ASM
  // Per row: blocks of four loads back to back (pipelined) and four
  // stores, then the tail word by word.
  const int8_t* s2;
  int32_t ch4 = 4 * ch;
  int32_t k;
  uint32_t w0, w1, w2, w3;
  __asm__ volatile(
      "0:\n"
      "ldr %[k], [%[job], #0]\n"
      "cmp %[k], #0\n"
      "beq 2f\n"
      "add %[s2], %[s], %[ch], lsl #1\n"
      "1:\n"
      "ldr %[w0], [%[s]]\n"
      "ldr %[w1], [%[s], %[ch]]\n"
      "ldr %[w2], [%[s2]]\n"
      "ldr %[w3], [%[s2], %[ch]]\n"
      "add %[s], %[s], %[ch4]\n"
      "add %[s2], %[s2], %[ch4]\n"
      "str %[w0], [%[d]], #16\n"
      "str %[w1], [%[d], #-12]\n"
      "str %[w2], [%[d], #-8]\n"
      "str %[w3], [%[d], #-4]\n"
      "subs %[k], %[k], #1\n"
      "bne 1b\n"
      "2:\n"
      "ldr %[k], [%[job], #4]\n"
      "cmp %[k], #0\n"
      "beq 4f\n"
      "3:\n"
      "ldr %[w0], [%[s]]\n"
      "add %[s], %[s], %[ch]\n"
      "str %[w0], [%[d]], #4\n"
      "subs %[k], %[k], #1\n"
      "bne 3b\n"
      "4:\n"
      "ldr %[w0], [%[job], #8]\n"
      "ldr %[w1], [%[job], #12]\n"
      "ldr %[k], [%[job], #16]\n"
      "add %[s], %[s], %[w0]\n"
      "add %[d], %[d], %[w1]\n"
      "subs %[k], %[k], #1\n"
      "str %[k], [%[job], #16]\n"
      "bne 0b\n"
      : [s] "+r"(s), [s2] "=&r"(s2), [d] "+r"(dst), [k] "=&r"(k), [ch] "+r"(ch), [ch4] "+r"(ch4),
        [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [job] "+r"(job)
      :
      : "cc", "memory");
#else
  const int n = 4 * job->blocks + job->tail;
  for (; job->rows > 0; --job->rows, s += job->skip_s, dst += job->skip_d / 4) {
    for (int j = 0; j < n; ++j, s += ch) *dst++ = dsp::Load4(s);
  }
#endif
}

// CopyRows for rows of at most kNarrowWords - 2 words: each row's loads one
// after another (pipelined), then its stores, the count a constant per case.
template <int kN>
inline void CopyNarrowN(uint32_t* dst, const int8_t* s, int32_t ch, int32_t skip_s, int rows) {
  for (; rows > 0; --rows, dst += kNarrowWords) {
    uint32_t w[kN];
#pragma GCC unroll 8
    for (int i = 0; i < kN; ++i, s += ch) w[i] = dsp::Load4(s);
#pragma GCC unroll 8
    for (int i = 0; i < kN; ++i) dst[i] = w[i];
    s += skip_s;
  }
}

inline void CopyNarrow(uint32_t* dst, const int8_t* s, int32_t ch, int32_t skip_s, int n, int rows) {
  switch (n) {
    case 1: CopyNarrowN<1>(dst, s, ch, skip_s, rows); break;
    case 2: CopyNarrowN<2>(dst, s, ch, skip_s, rows); break;
    case 3: CopyNarrowN<3>(dst, s, ch, skip_s, rows); break;
    case 4: CopyNarrowN<4>(dst, s, ch, skip_s, rows); break;
    case 5: CopyNarrowN<5>(dst, s, ch, skip_s, rows); break;
    case 6: CopyNarrowN<6>(dst, s, ch, skip_s, rows); break;
    case 7: CopyNarrowN<7>(dst, s, ch, skip_s, rows); break;
    default: CopyNarrowN<8>(dst, s, ch, skip_s, rows); break;
  }
}

// Whether EvalPadded3x3 takes the layer (multiplier 1, channels a multiple
// of 4, input offset in [-128, 128]: checked by the caller): 3x3, no
// dilation, equal strides 1 or 2, rows that fit the buffer, and what
// dsp::LayerRequantKind calls kRight, checked here in one pass over the
// channels (in prepare where the bias is constant, DepthwiseInt8LayerClass;
// the general check costs ~100 instructions per channel): every shift a
// right shift in [1, 22], every multiplier >= 0 (the sign argument above;
// INT32_MIN excluded), the output zero point in int8, accumulators below 2^30
// (dsp::AccumulatorBound).
bool Padded3x3Fits(const DepthwiseOpData& d, const int32_t* bias) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& q = d.q;
  if (g.filter_h != 3 || g.filter_w != 3 || g.dilation_h != 1 || g.dilation_w != 1) return false;
  if (g.stride_w != g.stride_h || (g.stride_w != 1 && g.stride_w != 2)) return false;
  if (g.pad_w < 0 || g.pad_h < 0 || g.out_w < 1 || g.out_h < 1) return false;
  if ((g.out_w - 1) * g.stride_w + 3 > kPadWords) return false;
  if (q.output_offset < -128 || q.output_offset > 127) return false;
  const int n = q.per_channel() ? g.in_ch : 1;
  const int32_t* mults = q.per_channel() ? q.multipliers : &q.multiplier;
  const int8_t* shifts = q.per_channel() ? q.shifts : &q.shift;
  for (int c = 0; c < n; ++c) {
    const int shift = shifts[c];
    if (mults[c] < 0 || shift > -1 || shift < -kMaxFastRightShift) return false;
  }
  return dsp::AccumulatorBound(bias, g.in_ch, 9) < dsp::kSmmulrBound;
}

// ---- Stride 1, ReLU to the output zero point -128: channel planes ----
//
// Per group of four channels the whole padded image is converted into four
// channel planes of sign-extended halfword pairs, one word per two input rows:
// V(j, i) = (row 2 j, row 2 j + 1) of buffer column i (buffer rows and
// columns: input rows and columns minus the padding, the zero point outside
// the input), the four channels' words of a cell side by side (16 bytes per
// cell, kPlanePitches cells per pair row). Then one channel at a time, its nine
// taps (doubled, as halfword pairs) in six registers for the whole image:
// pixels A (y = 2 j) and B (y = 2 j + 1) of a column x read V(j, x + kx) and
// V(j + 1, x + kx) per filter column kx:
//   A += V(j) . (f0, f1) [SMLAD] + V(j + 1).lo f2 [SMLABT]
//   B += V(j).hi f0 [SMLATB] + V(j + 1) . (f1, f2) [SMLAD]
// 18 MACs in 12 instructions and 6 loads per pair, two columns per pass (8
// loads for 2 pairs; the requantization constants loaded once per pass); an
// odd last row takes A alone. With the output zero point -128 and no
// activation clamp beyond int8's, the reference's sign fix of the rounding
// shift cannot show (a negative doubling high product gives a value at most
// the zero point both ways, clamped to -128), so the requantization is
// SMMLAR (rb as the addend), ASR, SSAT.
// Cells per pair row (the plane pitch, the assembly's immediates): the
// smallest of these that holds an output row and its two padding columns
// (KWS and VWW's 6x6 and 3x3 layers: 8; VWW's 12, 24 and 48 pixel rows: 14,
// 26, 50). An image whose planes exceed the buffer goes in bands of pair rows
// (each band's planes refilled, its last pair row the next band's first).
constexpr int kPlanePitches[] = {8, 14, 26, 50};
constexpr int kPlaneBufWords = 4 * 23 * 8;  // 2,944 bytes of stack: 23 pair rows of pitch 8, 3 of 50

// Layer words, then per channel: bias2, rb, m, shift, G0, G0', G1, G1', G2, G2'.
struct PlaneLayer {
  int32_t rowb;      // 0: output bytes per output row (B's store offset)
  int32_t ostep;     // 4: output bytes per pixel
  int32_t row_jump;  // 8: plane bytes from a pair row's end to the next one's start
  int32_t doubles;   // 12: width / 2
  int32_t odd;       // 16: width % 2
  int32_t pairs;     // 20: output rows / 2
  int32_t single;    // 24: output rows % 2 (a last row of A alone)
  int32_t width;     // 28
};
constexpr int kPlaneChanWords = 10;
struct PlaneCtx {
  PlaneLayer layer;
  int32_t chan[4][kPlaneChanWords];
};
static_assert(sizeof(PlaneLayer) == 32 && sizeof(PlaneCtx) == 32 + 160, "the assembly's offsets");

#if MR_DSP_ASM
// Pair of pixel columns: filter column registers G (A's (f0, f1)) and H (B's (f1, f2)).
#define MR_VMAC(A, B, G, H, INIT)                           \
  "smlatb " B ", r2, " G ", " INIT "\n"                     \
  "smlad " B ", r3, " H ", " B "\n"                         \
  "smlad " A ", r2, " G ", " A "\n"                         \
  "smlabt " A ", r3, " H ", " A "\n"
#define MR_VLOAD(X, PB)                                     \
  "ldr r2, [r0, #" X "]\n"                                  \
  "ldr r3, [r0, #" PB "+" X "]\n"
// r0 plane cursor, r1 output cursor, r2/r3 input words, r4..r7 accumulators
// (A, B of the first column, A, B of the second), r8..r12, lr the taps.
// Stack: 0 bias2, 4 rb, 8 m, 12 shift, 16.. the PlaneLayer, 48 rows left,
// 52 the row's end of double passes, 56 next channel's words, 60 plane, 64
// output, 68 channels left.
#define MR_PLANE_BODY(PB)                                   \
  "push {r4-r11, lr}\n"                                     \
  "sub sp, sp, #72\n"                                       \
  "ldm r0!, {r4-r11}\n"                                     \
  "add r12, sp, #16\n"                                      \
  "stm r12, {r4-r11}\n"                                     \
  "str r0, [sp, #56]\n"                                     \
  "str r1, [sp, #60]\n"                                     \
  "str r2, [sp, #64]\n"                                     \
  "str r3, [sp, #68]\n"                                     \
  "5:\n"                                                    \
  "ldr r0, [sp, #56]\n"                                     \
  "ldm r0!, {r4-r7}\n"                                      \
  "mov r12, sp\n"                                           \
  "stm r12, {r4-r7}\n"                                      \
  "ldm r0!, {r8-r12, lr}\n"                                 \
  "str r0, [sp, #56]\n"                                     \
  "ldr r0, [sp, #60]\n"                                     \
  "ldr r1, [sp, #64]\n"                                     \
  "ldr r2, [sp, #36]\n"                                     \
  "cmp r2, #0\n"                                            \
  "beq 7f\n"                                                \
  "str r2, [sp, #48]\n"                                     \
  "1:\n"                                                    \
  "ldr r2, [sp, #28]\n"                                     \
  "add r2, r0, r2, lsl #5\n"                                \
  "str r2, [sp, #52]\n"                                     \
  "cmp r2, r0\n"                                            \
  "beq 3f\n"                                                \
  "2:\n"                                                    \
  "ldr r6, [sp, #0]\n"                                      \
  MR_VLOAD("0", PB)                                         \
  "smlatb r5, r2, r8, r6\n"                                 \
  "smlad r5, r3, r9, r5\n"                                  \
  "smlad r4, r2, r8, r6\n"                                  \
  "smlabt r4, r3, r9, r4\n"                                 \
  MR_VLOAD("16", PB)                                        \
  MR_VMAC("r6", "r7", "r8", "r9", "r6")                     \
  MR_VMAC("r4", "r5", "r10", "r11", "r5")                   \
  MR_VLOAD("32", PB)                                        \
  MR_VMAC("r6", "r7", "r10", "r11", "r7")                   \
  MR_VMAC("r4", "r5", "r12", "lr", "r5")                    \
  MR_VLOAD("48", PB)                                        \
  MR_VMAC("r6", "r7", "r12", "lr", "r7")                    \
  "ldr r2, [sp, #4]\n"                                      \
  "ldr r3, [sp, #8]\n"                                      \
  "smmlar r4, r4, r3, r2\n"                                 \
  "smmlar r5, r5, r3, r2\n"                                 \
  "smmlar r6, r6, r3, r2\n"                                 \
  "smmlar r7, r7, r3, r2\n"                                 \
  "ldr r2, [sp, #12]\n"                                     \
  "ldr r3, [sp, #16]\n"                                     \
  "asr r4, r4, r2\n"                                        \
  "asr r5, r5, r2\n"                                        \
  "asr r6, r6, r2\n"                                        \
  "asr r7, r7, r2\n"                                        \
  "ssat r4, #8, r4\n"                                       \
  "ssat r5, #8, r5\n"                                       \
  "ssat r6, #8, r6\n"                                       \
  "ssat r7, #8, r7\n"                                       \
  "ldr r2, [sp, #20]\n"                                     \
  "strb r5, [r1, r3]\n"                                     \
  "strb r4, [r1]\n"                                         \
  "add r1, r1, r2\n"                                        \
  "add r0, r0, #32\n"                                       \
  "strb r6, [r1]\n"                                         \
  "strb r7, [r1, r3]\n"                                     \
  "add r1, r1, r2\n"                                        \
  "ldr r2, [sp, #52]\n"                                     \
  "cmp r0, r2\n"                                            \
  "bne 2b\n"                                                \
  "3:\n"                                                    \
  "ldr r2, [sp, #32]\n"                                     \
  "cmp r2, #0\n"                                            \
  "beq 6f\n"                                                \
  "ldr r4, [sp, #0]\n"                                      \
  MR_VLOAD("0", PB)                                         \
  MR_VMAC("r4", "r5", "r8", "r9", "r4")                     \
  MR_VLOAD("16", PB)                                        \
  MR_VMAC("r4", "r5", "r10", "r11", "r5")                   \
  MR_VLOAD("32", PB)                                        \
  MR_VMAC("r4", "r5", "r12", "lr", "r5")                    \
  "ldr r2, [sp, #4]\n"                                      \
  "ldr r3, [sp, #8]\n"                                      \
  "smmlar r4, r4, r3, r2\n"                                 \
  "smmlar r5, r5, r3, r2\n"                                 \
  "ldr r2, [sp, #12]\n"                                     \
  "ldr r3, [sp, #16]\n"                                     \
  "asr r4, r4, r2\n"                                        \
  "asr r5, r5, r2\n"                                        \
  "ssat r4, #8, r4\n"                                       \
  "ssat r5, #8, r5\n"                                       \
  "ldr r2, [sp, #20]\n"                                     \
  "strb r5, [r1, r3]\n"                                     \
  "strb r4, [r1]\n"                                         \
  "add r1, r1, r2\n"                                        \
  "add r0, r0, #16\n"                                       \
  "6:\n"                                                    \
  "ldr r2, [sp, #24]\n"                                     \
  "ldr r3, [sp, #16]\n"                                     \
  "add r0, r0, r2\n"                                        \
  "add r1, r1, r3\n"                                        \
  "ldr r2, [sp, #48]\n"                                     \
  "subs r2, r2, #1\n"                                       \
  "str r2, [sp, #48]\n"                                     \
  "bne 1b\n"                                                \
  "7:\n"                                                    \
  "ldr r2, [sp, #40]\n"                                     \
  "cmp r2, #0\n"                                            \
  "beq 8f\n"                                                \
  "ldr r6, [sp, #44]\n"                                     \
  "ldr r7, [sp, #20]\n"                                     \
  "4:\n"                                                    \
  "ldr r4, [sp, #0]\n"                                      \
  MR_VLOAD("0", PB)                                         \
  "smlad r4, r2, r8, r4\n"                                  \
  "smlabt r4, r3, r9, r4\n"                                 \
  MR_VLOAD("16", PB)                                        \
  "smlad r4, r2, r10, r4\n"                                 \
  "smlabt r4, r3, r11, r4\n"                                \
  MR_VLOAD("32", PB)                                        \
  "smlad r4, r2, r12, r4\n"                                 \
  "smlabt r4, r3, lr, r4\n"                                 \
  "ldr r2, [sp, #4]\n"                                      \
  "ldr r3, [sp, #8]\n"                                      \
  "smmlar r4, r4, r3, r2\n"                                 \
  "ldr r2, [sp, #12]\n"                                     \
  "asr r4, r4, r2\n"                                        \
  "ssat r4, #8, r4\n"                                       \
  "strb r4, [r1]\n"                                         \
  "add r1, r1, r7\n"                                        \
  "add r0, r0, #16\n"                                       \
  "subs r6, r6, #1\n"                                       \
  "bne 4b\n"                                                \
  "8:\n"                                                    \
  "ldr r0, [sp, #60]\n"                                     \
  "adds r0, r0, #4\n"                                       \
  "str r0, [sp, #60]\n"                                     \
  "ldr r1, [sp, #64]\n"                                     \
  "adds r1, r1, #1\n"                                       \
  "str r1, [sp, #64]\n"                                     \
  "ldr r2, [sp, #68]\n"                                     \
  "subs r2, r2, #1\n"                                       \
  "str r2, [sp, #68]\n"                                     \
  "bne 5b\n"                                                \
  "add sp, sp, #72\n"                                       \
  "pop {r4-r11, pc}\n"

// nch channels (their planes 4 bytes apart from `planes`, outputs 1 byte
// apart from `out`), one function per plane pitch (its immediates: 16 bytes
// per cell).
using PlaneFn = void (*)(const PlaneCtx*, const uint32_t*, int8_t*, int);
#define MR_PLANE_FN(NAME, PB)                                                                              \
  __attribute__((naked, noinline)) void NAME(const PlaneCtx* /*ctx*/, const uint32_t* /*planes*/,        \
                                             int8_t* /*out*/, int /*nch*/) {                             \
    __asm__ volatile(MR_PLANE_BODY(PB));                                                                 \
  }
MR_PLANE_FN(PlaneChannels8, "128")
MR_PLANE_FN(PlaneChannels14, "224")
MR_PLANE_FN(PlaneChannels26, "416")
MR_PLANE_FN(PlaneChannels50, "800")
#undef MR_PLANE_FN
constexpr PlaneFn kPlaneFns[] = {PlaneChannels8, PlaneChannels14, PlaneChannels26, PlaneChannels50};
static_assert(kPlanePitches[0] * 16 == 128 && kPlanePitches[1] * 16 == 224 && kPlanePitches[2] * 16 == 416 &&
                  kPlanePitches[3] * 16 == 800,
              "the assembly's pair row pitches");
#else
inline int32_t PlaneRequant(int32_t a, const int32_t* c) {
  const int64_t p = static_cast<int64_t>(a) * c[2] + (static_cast<int64_t>(c[1]) << 32) + (int64_t{1} << 31);
  const int32_t t = static_cast<int32_t>(p >> 32) >> c[3];
  return t < -128 ? -128 : (t > 127 ? 127 : t);
}

template <int kPitch>
void PlaneChannelsC(const PlaneCtx* ctx, const uint32_t* planes, int8_t* out, int nch) {
  const PlaneLayer& l = ctx->layer;
  for (int k = 0; k < nch; ++k) {
    const int32_t* c = ctx->chan[k];
    const uint32_t* g = reinterpret_cast<const uint32_t*>(c + 4);
    const int rows = 2 * l.pairs + l.single;
    for (int y = 0; y < rows; ++y) {
      const uint32_t* v = planes + k + (y / 2) * 4 * kPitch;  // V(j, 0) of the pair row
      for (int x = 0; x < l.width; ++x) {
        int32_t a = c[0];
        for (int kx = 0; kx < 3; ++kx) {
          const uint32_t v0 = v[4 * (x + kx)], v1 = v[4 * (x + kx) + 4 * kPitch];
          if (y % 2 == 0) {
            a = dsp::Smlabt(v1, g[2 * kx + 1], dsp::Smlad(v0, g[2 * kx], a));
          } else {
            a = dsp::Smlad(v1, g[2 * kx + 1], dsp::Smlatb(v0, g[2 * kx], a));
          }
        }
        out[y * l.rowb + x * l.ostep + k] = static_cast<int8_t>(PlaneRequant(a, c));
      }
    }
  }
}
using PlaneFn = void (*)(const PlaneCtx*, const uint32_t*, int8_t*, int);
constexpr PlaneFn kPlaneFns[] = {PlaneChannelsC<kPlanePitches[0]>, PlaneChannelsC<kPlanePitches[1]>,
                                 PlaneChannelsC<kPlanePitches[2]>, PlaneChannelsC<kPlanePitches[3]>};
#endif

// n cells (n >= 1) of a pair row: the words at s0 and s1 (rows 2 j, 2 j + 1;
// st0, st1 bytes on per cell) as the four channels' halfword pairs.
inline void CopyPairRow(uint32_t* d, const int8_t* s0, const int8_t* s1, int32_t st0, int32_t st1, int n) {
#if MR_DSP_ASM
  // Two cells per pass (the loop's branch is a third of a cell's cycles), an odd first cell alone.
  uint32_t w0, w1, t;
#define MR_CELL(OFF)                                      \
  "ldr %[w0], [%[s0]]\n"                                  \
  "ldr %[w1], [%[s1]]\n"                                  \
  "add %[s0], %[s0], %[st0]\n"                            \
  "add %[s1], %[s1], %[st1]\n"                            \
  "pkhbt %[t], %[w0], %[w1], lsl #16\n"                   \
  "pkhtb %[w1], %[w1], %[w0], asr #16\n"                  \
  "sxtb16 %[w0], %[t]\n"                                  \
  "sxtb16 %[t], %[t], ror #8\n"                           \
  "str %[w0], [%[d], #(" #OFF ")]\n"                      \
  "str %[t], [%[d], #(" #OFF " + 4)]\n"                   \
  "sxtb16 %[w0], %[w1]\n"                                 \
  "sxtb16 %[w1], %[w1], ror #8\n"                         \
  "str %[w0], [%[d], #(" #OFF " + 8)]\n"                  \
  "str %[w1], [%[d], #(" #OFF " + 12)]\n"
  __asm__ volatile(
      "lsrs %[n], %[n], #1\n"
      "bcc 1f\n" MR_CELL(0)
      "adds %[d], %[d], #16\n"
      "cmp %[n], #0\n"
      "beq 2f\n"
      "1:\n" MR_CELL(0) MR_CELL(16)
      "adds %[d], %[d], #32\n"
      "subs %[n], %[n], #1\n"
      "bne 1b\n"
      "2:\n"
      : [d] "+r"(d), [s0] "+r"(s0), [s1] "+r"(s1), [n] "+r"(n), [w0] "=&r"(w0), [w1] "=&r"(w1), [t] "=&r"(t)
      : [st0] "r"(st0), [st1] "r"(st1)
      : "cc", "memory");
#undef MR_CELL
#else
  for (; n > 0; --n, s0 += st0, s1 += st1, d += 4) {
    const uint32_t w0 = dsp::Load4(s0), w1 = dsp::Load4(s1);
    const uint32_t lo = (w0 & 0xFFFFu) | (w1 << 16), hi = (w1 & 0xFFFF0000u) | (w0 >> 16);
    d[0] = dsp::Sxtb16(lo);
    d[1] = dsp::Sxtb16Ror8(lo);
    d[2] = dsp::Sxtb16(hi);
    d[3] = dsp::Sxtb16Ror8(hi);
  }
#endif
}

// Whether EvalPlanes takes a layer Padded3x3Fits takes: stride 1, the output
// zero point -128 with int8's bounds, rows of up to 48 pixels (the widest
// pitch's); the index of the plane pitch, or -1.
int PlanePitch(const DepthwiseOpData& d, bool clamp) {
  const WindowGeometry& g = d.g;
  if (g.stride_w != 1 || clamp || d.q.output_offset != -128) return -1;
  for (int i = 0; i < 4; ++i) {
    if (g.out_w + 2 <= kPlanePitches[i]) return i;
  }
  return -1;
}

void EvalPlanes(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                int8_t* output, int pitch_index) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& qd = d.q;
  const int pitch = kPlanePitches[pitch_index];
  const PlaneFn channels = kPlaneFns[pitch_index];
  const int ch = g.in_ch;
  const int in_row = g.in_w * ch;
  const int32_t offset = qd.input_offset;
  const uint32_t zp4 = dsp::Bytes4(-offset);
  const uint32_t zp2 = dsp::Sxtb16(zp4);
  const int rows_held = kPlaneBufWords / (4 * pitch);  // pair rows the buffer holds: 3 or more
  const int cols = g.out_w + 2;
  const int col_lo = g.pad_w < cols ? g.pad_w : cols;
  const int col_hi = g.pad_w + g.in_w < cols ? g.pad_w + g.in_w : cols;
  const int ncopy = col_hi - col_lo;
  uint32_t buf[kPlaneBufWords];
  // The padding columns: the zero point in every pair row the buffer holds, written once.
  for (int j = 0; j < rows_held; ++j) {
    for (int i = 0; i < cols; ++i) {
      if (i == col_lo && ncopy > 0) i = col_hi;
      if (i >= cols) break;
      for (int k = 0; k < 4; ++k) buf[(j * pitch + i) * 4 + k] = zp2;
    }
  }
  PlaneCtx ctx;
  PlaneLayer& l = ctx.layer;
  l.ostep = ch;
  l.rowb = g.out_w * ch;
  l.width = g.out_w;
  l.row_jump = 16 * (pitch - g.out_w);
  l.doubles = g.out_w / 2;
  l.odd = g.out_w % 2;
  const int pairs = g.out_h / 2;
  const bool single = g.out_h % 2 != 0;
  const int32_t round_base = 2 * qd.output_offset + 1;
  const int cstep = qd.per_channel() ? 1 : 0;
  const int32_t* mults = qd.per_channel() ? qd.multipliers : &qd.multiplier;
  const int8_t* shifts = qd.per_channel() ? qd.shifts : &qd.shift;
  for (int b = 0; b < g.batches; ++b) {
    const int8_t* in_b = input + b * g.in_h * in_row;
    int8_t* out_b = output + b * g.out_h * g.out_w * ch;
    for (int c0 = 0; c0 < ch; c0 += 4) {
      // Per filter column kx, in a loop (this set-up runs per group and shares the instruction cache with
      // the copy and the plane loop; unrolled it took 1 KB): the doubled taps of rows 0-2 of the four
      // channels as halfwords (channels 0, 2 by SXTB16: e; 1, 3 by SXTB16 ROR #8: o), each channel's
      // (row 0, row 1) and (row 1, row 2) pairs, and the taps' sums.
      uint32_t se = 0, so = 0;
      const int8_t* fk = filter + c0;
#pragma GCC unroll 1
      for (int kx = 0; kx < 3; ++kx, fk += ch) {
        const uint32_t w0 = dsp::Load4(fk), w1 = dsp::Load4(fk + 3 * ch), w2 = dsp::Load4(fk + 6 * ch);
        uint32_t e0 = dsp::Sxtb16(w0), e1 = dsp::Sxtb16(w1), e2 = dsp::Sxtb16(w2);
        uint32_t o0 = dsp::Sxtb16Ror8(w0), o1 = dsp::Sxtb16Ror8(w1), o2 = dsp::Sxtb16Ror8(w2);
        e0 = dsp::Sadd16(e0, e0);
        e1 = dsp::Sadd16(e1, e1);
        e2 = dsp::Sadd16(e2, e2);
        o0 = dsp::Sadd16(o0, o0);
        o1 = dsp::Sadd16(o1, o1);
        o2 = dsp::Sadd16(o2, o2);
        se = dsp::Sadd16(se, dsp::Sadd16(e0, dsp::Sadd16(e1, e2)));
        so = dsp::Sadd16(so, dsp::Sadd16(o0, dsp::Sadd16(o1, o2)));
        const int t = 4 + 2 * kx;
        ctx.chan[0][t] = static_cast<int32_t>(dsp::PackLo(e0, e1));
        ctx.chan[0][t + 1] = static_cast<int32_t>(dsp::PackLo(e1, e2));
        ctx.chan[1][t] = static_cast<int32_t>(dsp::PackLo(o0, o1));
        ctx.chan[1][t + 1] = static_cast<int32_t>(dsp::PackLo(o1, o2));
        ctx.chan[2][t] = static_cast<int32_t>(dsp::PackHi(e0, e1));
        ctx.chan[2][t + 1] = static_cast<int32_t>(dsp::PackHi(e1, e2));
        ctx.chan[3][t] = static_cast<int32_t>(dsp::PackHi(o0, o1));
        ctx.chan[3][t + 1] = static_cast<int32_t>(dsp::PackHi(o1, o2));
      }
      const int32_t sum2[4] = {Lo16s(se), Lo16s(so), Hi16s(se), Hi16s(so)};
#pragma GCC unroll 1
      for (int k = 0; k < 4; ++k) {
        const int c = c0 + k;
        int32_t* w = ctx.chan[k];
        const uint32_t b0 = bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u;
        w[0] = static_cast<int32_t>((b0 << 1) + static_cast<uint32_t>(offset) * static_cast<uint32_t>(sum2[k]));
        const int right = -shifts[c * cstep];
        w[1] = static_cast<int32_t>(static_cast<uint32_t>(round_base) << right) >> 1;
        w[2] = mults[c * cstep];
        w[3] = right;
      }
      // Bands of output pair rows [j0, j0 + n) (and the lone last row where it fits): their planes are
      // pair rows j0 .. j0 + n (+ 1), input rows 2 j - pad_h and the next (the zero point outside).
      const int8_t* src = in_b + c0 + (col_lo - g.pad_w) * ch;
      for (int j0 = 0;;) {
        const int n = pairs - j0 < rows_held - 1 ? pairs - j0 : rows_held - 1;
        const bool last_row = single && j0 + n == pairs && n + 2 <= rows_held;
        for (int jj = 0; jj < n + 1 + (last_row ? 1 : 0) && ncopy > 0; ++jj) {
          const int r0 = 2 * (j0 + jj) - g.pad_h, r1 = r0 + 1;
          const bool v0 = r0 >= 0 && r0 < g.in_h, v1 = r1 >= 0 && r1 < g.in_h;
          const int8_t* s0 = v0 ? src + r0 * in_row : reinterpret_cast<const int8_t*>(&zp4);
          const int8_t* s1 = v1 ? src + r1 * in_row : reinterpret_cast<const int8_t*>(&zp4);
          const int st0 = v0 ? ch : 0, st1 = v1 ? ch : 0;
          CopyPairRow(buf + (jj * pitch + col_lo) * 4, s0, s1, st0, st1, ncopy);
        }
        l.pairs = n;
        l.single = last_row ? 1 : 0;
        if (n > 0 || last_row) channels(&ctx, buf, out_b + c0 + 2 * j0 * l.rowb, 4);
        j0 += n;
        if (j0 == pairs && (!single || last_row)) break;
      }
    }
  }
}

// clamp: the activation bounds are not int8's (the row loops' variants).
template <int kStride, int kW>
void EvalPadded3x3(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                   int8_t* output, bool clamp) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& qd = d.q;
  const int ch = g.in_ch;
  const int in_row = g.in_w * ch;
  const int32_t offset = qd.input_offset;
  const uint32_t zp4 = dsp::Bytes4(-offset);
  const Int8Requantizer general(qd);
  // Buffer columns [0, cols) hold input columns -pad_w ..; those outside the
  // input are the zero point in every row, written once.
  const int cols = (g.out_w - 1) * kStride + 3;
  const int col_lo = g.pad_w < cols ? g.pad_w : cols;
  const int col_hi = g.pad_w + g.in_w < cols ? g.pad_w + g.in_w : cols;
  constexpr int kRows = kBufWords / kW;
  uint32_t buf[kRows * kW + 1];  // + 1: the second pass's last word read ends a byte past a row
  for (int r = 0; r < kRows; ++r) {
    for (int j = 0; j < col_lo; ++j) buf[r * kW + j] = zp4;
    for (int j = col_hi; j < cols; ++j) buf[r * kW + j] = zp4;
  }
  // Whole images where one (its rows, and one more that a lone row's B
  // reads) fits: up to kMaxBatch groups' images at once, each phase (setup,
  // copy, rows) looping over the batch so that its code stays in the
  // instruction cache. Else one group at a time in bands of output rows:
  // stride 1 in pairs, 12 rows or 13 for an odd last band (whose last pair
  // row overlaps the one before; its B reads the band's last buffer row).
  const int image_rows = (g.out_h - 1) * kStride + 3 + 1;
  int batch = kRows / image_rows;
  if (batch > kMaxBatch) batch = kMaxBatch;
  const bool whole = batch >= 1;
  if (!whole) batch = 1;
  const int region = whole ? image_rows * kW : 0;  // words between the batch's images
  const int band = whole ? g.out_h : (kStride == 1 ? kRows - 3 : (kRows - 3) / kStride + 1);
  const int ncopy = col_hi - col_lo;
  CopyJob job;
  job.blocks = ncopy / 4;
  job.tail = ncopy % 4;
  job.skip_s = in_row - ncopy * ch;
  job.skip_d = 4 * (kW - ncopy);
  // Stride 1: pixels in vertical pairs (PairBand); stride 2 on the wide
  // pitch with rows of an even number of pixels: in horizontal pairs
  // (HPairBand); else one at a time (PadBand).
  const bool hpairs = kStride == 2 && kW == kPadWords && g.out_w % 2 == 0;
  const bool pairs = kStride == 1 || hpairs;
  union {
    PairCtx pair[kMaxBatch];
    PadCtx pad[kMaxBatch];
  } ctxs;
  for (int k = 0; k < batch; ++k) {
    if (pairs) {
      PairCtx& c = ctxs.pair[k];
      c.lo4 = dsp::Bytes4(qd.act_min);
      c.hi4 = dsp::Bytes4(qd.act_max);
      c.width = kStride == 1 ? g.out_w : g.out_w / 2;
      c.row_jump = kStride == 1 ? 4 * (2 * kW - g.out_w) : 4 * (2 * kW - 2 * g.out_w);
      c.out_jump = kStride == 1 ? g.out_w * ch : 0;
    } else {
      PadCtx& c = ctxs.pad[k];
      c.lo4 = dsp::Bytes4(qd.act_min);
      c.hi4 = dsp::Bytes4(qd.act_max);
      c.width = g.out_w;
      c.row_jump = 4 * kStride * (kW - g.out_w);
    }
  }
#if MR_DSP_ASM
  dsp::ChannelRequant* const rq[kMaxBatch] = {};  // the C form's constants: none here
#else
  dsp::ChannelRequant rq[kMaxBatch][4];  // the C form's constants
#endif
  const int32_t ostep = ch;
  const int32_t round_base = 2 * qd.output_offset + 1;
  // The channels' multipliers and shifts (per tensor: one, step 0).
  const int cstep = qd.per_channel() ? 1 : 0;
  const int32_t* mults = qd.per_channel() ? qd.multipliers : &qd.multiplier;
  const int8_t* shifts = qd.per_channel() ? qd.shifts : &qd.shift;
  const int groups = ch / 4;
  for (int b = 0; b < g.batches; ++b) {
    const int8_t* in_b = input + b * g.in_h * in_row;
    int8_t* out_b = output + b * g.out_h * g.out_w * ch;
    for (int g0 = 0; g0 < groups; g0 += batch) {
      const int nk = groups - g0 < batch ? groups - g0 : batch;
      for (int k = 0; k < nk; ++k) {
        PairCtx& pc = ctxs.pair[k];
        PadCtx& ctx = ctxs.pad[k];
        const int c0 = 4 * (g0 + k);
        // Doubled taps (|2 f| <= 256 fits the halfwords) and their sums per
        // channel as halfwords (|sum| <= 9 * 256).
        uint32_t s02 = 0, s13 = 0;
#pragma GCC unroll 9
        for (int t = 0; t < 9; ++t) {
          const uint32_t w = dsp::Load4(filter + t * ch + c0);
          const uint32_t f02 = dsp::Sxtb16(w), f13 = dsp::Sxtb16Ror8(w);
          const uint32_t d02 = dsp::Sadd16(f02, f02), d13 = dsp::Sadd16(f13, f13);
          if (pairs) {
            pc.pass[0].taps[t] = d02;
            pc.pass[1].taps[t] = d13;
          } else {
            ctx.taps[2 * t] = d02;
            ctx.taps[2 * t + 1] = d13;
          }
          s02 = dsp::Sadd16(s02, d02);
          s13 = dsp::Sadd16(s13, d13);
        }
        const int32_t sum2[4] = {Lo16s(s02), Lo16s(s13), Hi16s(s02), Hi16s(s13)};
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) {
          const int c = c0 + j;
          const uint32_t b0 = bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u;
          const int32_t bias2 =
              static_cast<int32_t>((b0 << 1) + static_cast<uint32_t>(offset) * static_cast<uint32_t>(sum2[j]));
          const int right = -shifts[c * cstep];
          const int32_t rb = static_cast<int32_t>(static_cast<uint32_t>(round_base) << right) >> 1;
          const int32_t m = mults[c * cstep];
          if (pairs) {
            PairPass& pp = pc.pass[j & 1];  // channel j: pass j % 2, its low (j < 2) or high half
            const int h = j >> 1;
            pp.bias[h] = bias2;
            pp.rq[2 * h] = rb;
            pp.rq[2 * h + 1] = m;
            pp.shift[h] = right;
          } else {
            ctx.bias[j] = bias2;
            ctx.rq[2 * j] = rb;
            ctx.rq[2 * j + 1] = m;
            ctx.shift[j] = right;
          }
#if !MR_DSP_ASM
          rq[k][j] = dsp::LayerChannelRequant<dsp::kRight>(qd, c);
#endif
        }
      }
      int nb = 0;
      for (int oy0 = 0; oy0 < g.out_h; oy0 += nb) {
        const int left = g.out_h - oy0;
        nb = left <= band + (kStride == 1 && !whole ? 1 : 0) ? left : band;
        const int iy0 = oy0 * kStride - g.pad_h;
        const int rows = (nb - 1) * kStride + 3;
        // Rows outside the input: the zero point; those inside: one copy.
        const int r_lo = iy0 < 0 ? -iy0 : 0;
        const int r_hi = g.in_h - iy0 < rows ? g.in_h - iy0 : rows;
        for (int k = 0; k < nk; ++k) {
          uint32_t* img = buf + k * region;
          for (int r = 0; r < rows; ++r) {
            if (r == r_lo && r_hi > r_lo) r = r_hi;  // the rows inside the input: copied below
            if (r >= rows) break;
            uint32_t* dst = img + r * kW + col_lo;
            for (int j = 0; j < ncopy; ++j) dst[j] = zp4;
          }
          if (r_hi > r_lo && ncopy > 0) {
            uint32_t* dst = img + r_lo * kW + col_lo;
            const int8_t* src = in_b + 4 * (g0 + k) + (col_lo - g.pad_w) * ch + (iy0 + r_lo) * in_row;
            if constexpr (kW == kNarrowWords) {
              CopyNarrow(dst, src, ch, job.skip_s, ncopy, r_hi - r_lo);
            } else {
              job.rows = r_hi - r_lo;
              CopyRows(dst, src, ch, &job);
            }
          }
        }
        for (int k = 0; k < nk; ++k) {
          const int c0 = 4 * (g0 + k);
          int8_t* out = out_b + oy0 * g.out_w * ch + c0;
          if constexpr (kStride == 1) {
            PairCtx& ctx = ctxs.pair[k];
            ctx.rows = (nb + 1) / 2;
            const bool odd = nb % 2 != 0;
            ctx.last_row_jump = odd ? ctx.row_jump - 4 * kW : ctx.row_jump;
            ctx.last_out_jump = odd ? 0 : ctx.out_jump;
            const int32_t rowb = nb > 1 ? ctx.out_jump : 0;
            clamp ? PairBand<true, kW>(ctx, rq[k], general, c0, buf + k * region, out, ostep, rowb)
                  : PairBand<false, kW>(ctx, rq[k], general, c0, buf + k * region, out, ostep, rowb);
          } else if (hpairs) {
            PairCtx& ctx = ctxs.pair[k];
            ctx.rows = nb;
            clamp ? HPairBand<true>(ctx, rq[k], general, c0, buf + k * region, out, ostep)
                  : HPairBand<false>(ctx, rq[k], general, c0, buf + k * region, out, ostep);
          } else {
            PadCtx& ctx = ctxs.pad[k];
            ctx.rows = nb;
            clamp ? PadBand<kStride, true, kW>(ctx, rq[k], general, c0, buf + k * region, out, ostep)
                  : PadBand<kStride, false, kW>(ctx, rq[k], general, c0, buf + k * region, out, ostep);
          }
        }
      }
    }
  }
}

// Multiplier > 1 with one input channel and no x dilation (micro_speech),
// channel-major like EvalMult1: per group of four output channels the
// requantization constants are hoisted and every output pixel is one
// SharedAdjacent4 call, inlined (no per-block call, no accumulator array).
__attribute__((noinline)) void EvalSharedAdjacent(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                        int8_t* output) {
  const WindowGeometry& g = d.g;
  const Int8ChannelQuant& qd = d.q;
  const int out_ch = g.out_ch;
  const int fw = g.filter_w;
  const int32_t offset = qd.input_offset;
  const uint32_t off = dsp::Offset16x2(offset);
  const int32_t lo = qd.act_min, hi = qd.act_max;
  const int32_t round_base = 2 * qd.output_offset + 1;
  Window w;
  w.in_step_y = g.dilation_h * g.in_w;
  w.in_step_x = 1;
  w.f_step_y = fw * out_ch;
  w.f_step_x = out_ch;
  for (int b = 0; b < g.batches; ++b) {
    const int8_t* in_b = input + b * g.in_h * g.in_w;
    int8_t* out_b = output + b * g.out_h * g.out_w * out_ch;
    for (int c0 = 0; c0 < out_ch; c0 += 4) {
      int32_t m[4], rb[4], r[4], b0[4];
      for (int j = 0; j < 4; ++j) {
        const int c = c0 + j;
        m[j] = qd.per_channel() ? qd.multipliers[c] : qd.multiplier;
        r[j] = -(qd.per_channel() ? qd.shifts[c] : qd.shift);
        rb[j] = static_cast<int32_t>(static_cast<uint32_t>(round_base) << r[j]) >> 1;
        b0[j] = bias != nullptr ? bias[c] : 0;
      }
      int8_t* out = out_b + c0;
      for (int oy = 0; oy < g.out_h; ++oy) {
        const int origin_y = oy * g.stride_h - g.pad_h;
        int fy0, fy1;
        ValidFilterRange(origin_y, g.dilation_h, g.in_h, g.filter_h, &fy0, &fy1);
        w.ny = fy1 > fy0 ? fy1 - fy0 : 0;
        const int8_t* in_y = in_b + (origin_y + fy0 * g.dilation_h) * g.in_w;
        const int8_t* f_y = filter + fy0 * w.f_step_y + c0;
        for (int ox = 0; ox < g.out_w; ++ox, out += out_ch) {
          const int origin_x = ox * g.stride_w - g.pad_w;
          int fx0, fx1;
          ValidFilterRange(origin_x, 1, g.in_w, fw, &fx0, &fx1);
          w.nx = fx1 > fx0 ? fx1 - fx0 : 0;
          w.in = in_y + origin_x + fx0;
          w.filter = f_y + fx0 * out_ch;
          int32_t acc[4] = {b0[0], b0[1], b0[2], b0[3]};
          if (w.nx > 0) SharedAdjacent4(w, off, offset, acc);
          for (int j = 0; j < 4; ++j) out[j] = FastRequantize(acc[j], m[j], rb[j], r[j], lo, hi);
        }
      }
    }
  }
}
}  // namespace


// The layer's class for DepthwiseEvalInt8's paths with multiplier 1 and channels a multiple of 4: the padded
// 3x3 buffers (Padded3x3Fits), else EvalMult1's requantization kind (a dsp::RequantKind).
constexpr int kPadded3x3Class = 4;
static_assert(dsp::kRight < kPadded3x3Class && dsp::kPre < kPadded3x3Class && dsp::kWide < kPadded3x3Class &&
                  dsp::kAny < kPadded3x3Class,
              "the class is a RequantKind or the padded path");
int DepthwiseInt8LayerClass(const DepthwiseOpData& d, const int32_t* bias) {
  if (d.mult != 1 || d.g.in_ch % 4 != 0) return -1;
  if (Padded3x3Fits(d, bias)) return kPadded3x3Class;
  const int ch = d.g.in_ch;
  return static_cast<int>(
      dsp::LayerRequantKind(d.q, ch, dsp::AccumulatorBound(bias, ch, d.g.filter_h * d.g.filter_w, &d.q)));
}

TfLiteStatus DepthwiseEvalInt8(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                               const int32_t* bias, int8_t* output) {
  const int32_t offset = d.q.input_offset;
  if (offset < -128 || offset > 128) {
    // A zero point outside int8 (a corrupt model) does not fit the halfword
    // lanes: the portable one-channel-at-a-time path keeps the results exact.
    auto own = [](const Window& w, int32_t o, int32_t* acc) { depthwise::AccumulateRest(w, o, false, kLanes, acc); };
    auto shared = [](const Window& w, int32_t o, int32_t* acc) { depthwise::AccumulateRest(w, o, true, kLanes, acc); };
    return depthwise::EvalInt8Blocks(d, input, filter, bias, output, own, shared);
  }
  const int prepared = PreparedInt8ClassOf(d);
  const int layer_class = prepared >= 0 ? prepared : DepthwiseInt8LayerClass(d, bias);
  if (layer_class == kPadded3x3Class) {
    // Without the activation clamp where its bounds are int8's (ReLU with
    // the output zero point -128: KWS's and VWW's layers).
    const bool clamp = d.q.act_min > -128 || d.q.act_max < 127;
    const bool narrow = (d.g.out_w - 1) * d.g.stride_w + 3 <= kNarrowWords;
    const int pitch = PlanePitch(d, clamp);
    if (pitch >= 0) {
      EvalPlanes(d, input, filter, bias, output, pitch);
    } else if (d.g.stride_w == 1) {
      narrow ? EvalPadded3x3<1, kNarrowWords>(d, input, filter, bias, output, clamp)
             : EvalPadded3x3<1, kPadWords>(d, input, filter, bias, output, clamp);
    } else {
      narrow ? EvalPadded3x3<2, kNarrowWords>(d, input, filter, bias, output, clamp)
             : EvalPadded3x3<2, kPadWords>(d, input, filter, bias, output, clamp);
    }
    return kTfLiteOk;
  }
  if (d.mult == 1 && d.g.in_ch % 4 == 0 && d.g.filter_h * d.g.filter_w <= kMaxTaps) {
    dsp::ForKind(static_cast<dsp::RequantKind>(layer_class),
                 [&](auto tag) { EvalMult1<decltype(tag)::kKind>(d, input, filter, bias, output); });
    return kTfLiteOk;
  }
  if (d.mult > 1 && d.g.in_ch == 1 && d.g.dilation_w == 1 && d.g.out_ch % 4 == 0 && d.q.fast_requantize()) {
    EvalSharedAdjacent(d, input, filter, bias, output);
    return kTfLiteOk;
  }
  return depthwise::EvalInt8Blocks(d, input, filter, bias, output, AccumulateOwn, AccumulateShared);
}

}  // namespace micro_runtime
