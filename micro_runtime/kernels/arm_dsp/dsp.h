// The DSP-extension instructions the arm_dsp kernels use (Armv7E-M: Cortex-M4,
// M7; Armv8-M Mainline with DSP: M33, M55), through the ACLE intrinsics of
// <arm_acle.h> when the compiler targets such a core, else as plain C with the
// instructions' semantics, so the same kernels build and run in host tests
// (make TARGET=host TAGS=arm_dsp).
//   SXTB16 x        : halfwords (sign-extended bytes 0 and 2 of x)
//   SXTB16 x, ROR #8: halfwords (sign-extended bytes 1 and 3 of x)
//   SXTAB16 a, x (, ROR #8): halfword-wise a + SXTB16 x (, ROR #8) (wrapping)
//   SMLAD a, b, acc : acc + a.lo * b.lo + a.hi * b.hi (16 x 16 products, the
//                     sum wraps modulo 2^32; only the Q flag notes overflow)
//   SMLABB/SMLATB/SMLABT/SMLATT a, b, acc: acc + a.{lo,hi,lo,hi} * b.{lo,lo,hi,hi}
//   SADD16 a, b     : halfword-wise a + b (wrapping)
//   PackLo a, b     : halfwords (a.lo, b.lo) (PKHBT);  PackHi a, b: (a.hi, b.hi) (PKHTB)
#ifndef MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_
#define MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_

#include <stdint.h>

#include "micro_runtime/kernels/filter_op_util.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

// The hand-scheduled inline assembly loops need the registers an optimised, uninstrumented build leaves them
// (up to 13 operands); a coverage build (gcov's counters, harness --micro-coverage defines
// MICRO_RUNTIME_COVERAGE) takes the C forms beside them, which compute the same results.
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && !defined(MICRO_RUNTIME_COVERAGE)
#define MR_DSP_ASM 1
#else
#define MR_DSP_ASM 0
#endif

namespace micro_runtime {

namespace dsp {

// Four bytes from any address, little-endian (the DSP cores load unaligned
// words in normal memory; the compiler emits one LDR).
inline uint32_t Load4(const int8_t* p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
inline uint32_t Sxtb16(uint32_t x) { return static_cast<uint32_t>(__sxtb16(static_cast<int32_t>(x))); }
inline uint32_t Sxtb16Ror8(uint32_t x) {
  // One instruction with SXTB16's rotate operand (GCC 12 does not fold a
  // separate rotate into it).
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
}
inline uint32_t Sxtab16(uint32_t a, uint32_t x) {
  return static_cast<uint32_t>(__sxtab16(static_cast<int32_t>(a), static_cast<int32_t>(x)));
}
inline uint32_t Sxtab16Ror8(uint32_t a, uint32_t x) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
  return r;
}
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  return __smlad(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlatb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlabt(uint32_t a, uint32_t b, int32_t acc) {
  return __smlabt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline uint32_t Sadd16(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(__sadd16(static_cast<int32_t>(a), static_cast<int32_t>(b)));
}
// PKHBT a, b, LSL #16: halfwords (a.lo, b.lo); PKHTB b, a, ASR #16: (a.hi, b.hi) (GCC 12 makes neither from C).
inline uint32_t PackLo(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
inline uint32_t PackHi(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#else
inline int32_t Lo16(uint32_t a) { return static_cast<int16_t>(a & 0xFFFF); }
inline int32_t Hi16(uint32_t a) { return static_cast<int16_t>(a >> 16); }
inline int32_t WrapAdd(int32_t acc, int32_t p) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(p));
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Lo16(a) * Lo16(b)); }
inline int32_t Smlatb(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Hi16(a) * Lo16(b)); }
inline int32_t Smlabt(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Lo16(a) * Hi16(b)); }
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Hi16(a) * Hi16(b)); }
inline uint32_t Sadd16(uint32_t a, uint32_t b) {
  return ((a + b) & 0xFFFFu) | (((a >> 16) + (b >> 16)) << 16);
}
inline uint32_t Sxtb16(uint32_t x) {
  const uint32_t lo = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(x & 0xFF))) & 0xFFFFu;
  const uint32_t hi = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>((x >> 16) & 0xFF)));
  return lo | (hi << 16);
}
inline uint32_t Sxtb16Ror8(uint32_t x) { return Sxtb16((x >> 8) | (x << 24)); }
inline uint32_t Sxtab16(uint32_t a, uint32_t x) { return Sadd16(a, Sxtb16(x)); }
inline uint32_t Sxtab16Ror8(uint32_t a, uint32_t x) { return Sadd16(a, Sxtb16Ror8(x)); }
inline uint32_t PackLo(uint32_t a, uint32_t b) { return (a & 0xFFFFu) | (b << 16); }
inline uint32_t PackHi(uint32_t a, uint32_t b) { return (a >> 16) | (b & 0xFFFF0000u); }
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  const int32_t p0 = static_cast<int16_t>(a & 0xFFFF) * static_cast<int16_t>(b & 0xFFFF);
  const int32_t p1 = static_cast<int16_t>(a >> 16) * static_cast<int16_t>(b >> 16);
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(p0) + static_cast<uint32_t>(p1));
}
#endif

// acc + the four products of filter word w's bytes with the unpacked input
// pair (x02: bytes 0 and 2, x13: bytes 1 and 3, as halfwords).
inline int32_t Mac4(int32_t acc, uint32_t w, uint32_t x02, uint32_t x13) {
  return Smlad(Sxtb16Ror8(w), x13, Smlad(Sxtb16(w), x02, acc));
}

// Both halfwords of an input offset, for SXTAB16.
inline uint32_t Offset16x2(int32_t offset) { return (static_cast<uint32_t>(offset) & 0xFFFFu) * 0x00010001u; }

// acc[k] += sum((in[i] + offset) * f[k * f_stride + i]) for i < n, k < 4: four
// dot products of one int8 row with four int8 rows (CONV_2D's four output
// channels, FULLY_CONNECTED's four units), all values in registers. The
// offset is added while the input word is unpacked (SXTAB16 instead of
// SXTB16: no extra instruction), so no filter sums are needed. The offset is
// minus an int8 zero point (Int8ChannelQuant), so in + offset lies in
// [-255, 255] and fits the halfword lanes.
inline void DotRows4(const int8_t* in, const int8_t* f, int f_stride, int n, int32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const uint32_t off = Offset16x2(offset);
  const int8_t* f0 = f;
  const int8_t* f2 = f + 2 * f_stride;
  int blocks = n >> 2;
#if MR_DSP_ASM
  if (blocks > 0) {
    // Per 4 input bytes: 1 load + 2 unpacks (with the offset) of the input,
    // then per row 1 load + 2 unpacks + 2 SMLAD; 25 instructions for 16 MACs.
    // Rows 1 and 3 are addressed from rows 0 and 2 (after their post-increment)
    // with one stride register, so all 14 values stay in registers.
    // All operands in-out (copies): GCC 12 finds no registers for input-only
    // operands at this pressure when the caller loops around the call.
    int step = f_stride - 4;
    uint32_t offset2 = off;
    uint32_t x, x13, w, t;
    __asm__ volatile(
        "1:\n"
        "ldr %[x], [%[in]], #4\n"
        "sxtab16 %[x13], %[off], %[x], ror #8\n"
        "sxtab16 %[x], %[off], %[x]\n"
        "ldr %[w], [%[f0]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a0], %[t], %[x], %[a0]\n"
        "smlad %[a0], %[w], %[x13], %[a0]\n"
        "ldr %[w], [%[f0], %[step]]\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a1], %[t], %[x], %[a1]\n"
        "smlad %[a1], %[w], %[x13], %[a1]\n"
        "ldr %[w], [%[f2]], #4\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a2], %[t], %[x], %[a2]\n"
        "smlad %[a2], %[w], %[x13], %[a2]\n"
        "ldr %[w], [%[f2], %[step]]\n"
        "sxtb16 %[t], %[w]\n"
        "sxtb16 %[w], %[w], ror #8\n"
        "smlad %[a3], %[t], %[x], %[a3]\n"
        "smlad %[a3], %[w], %[x13], %[a3]\n"
        "subs %[blocks], %[blocks], #1\n"
        "bne 1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [in] "+r"(in), [f0] "+r"(f0),
          [f2] "+r"(f2), [blocks] "+r"(blocks), [off] "+r"(offset2), [step] "+r"(step), [x] "=&r"(x),
          [x13] "=&r"(x13), [w] "=&r"(w), [t] "=&r"(t)
        :
        : "cc", "memory");
  }
#else
  for (; blocks > 0; --blocks, in += 4, f0 += 4, f2 += 4) {
    const uint32_t x02 = Sxtab16(off, Load4(in)), x13 = Sxtab16Ror8(off, Load4(in));
    a0 = Mac4(a0, Load4(f0), x02, x13);
    a1 = Mac4(a1, Load4(f0 + f_stride), x02, x13);
    a2 = Mac4(a2, Load4(f2), x02, x13);
    a3 = Mac4(a3, Load4(f2 + f_stride), x02, x13);
  }
#endif
  const int8_t* f1 = f0 + f_stride;
  const int8_t* f3 = f2 + f_stride;
  for (int i = 0; i < (n & 3); ++i) {  // wrapping, like SMLAD (acc may start at a model's bias)
    const uint32_t x = static_cast<uint32_t>(in[i] + offset);
    a0 = static_cast<int32_t>(static_cast<uint32_t>(a0) + x * static_cast<uint32_t>(f0[i]));
    a1 = static_cast<int32_t>(static_cast<uint32_t>(a1) + x * static_cast<uint32_t>(f1[i]));
    a2 = static_cast<int32_t>(static_cast<uint32_t>(a2) + x * static_cast<uint32_t>(f2[i]));
    a3 = static_cast<int32_t>(static_cast<uint32_t>(a3) + x * static_cast<uint32_t>(f3[i]));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// ---- Requantization with one channel's constants hoisted ----
//
// Int8Requantizer's fast path (filter_op_util.h) extended to left shifts and
// to right shifts beyond kMaxFastRightShift, for kernels that requantize a
// few channels at a time with constants made once per channel:
//   x  = ((acc << left) * m + 2^30) >> 31        the doubling high multiply (m != INT32_MIN)
//   xf = (x + ((x >> 31) & fix)) >> pre         fix = -1 for a right shift r >= 1, else 0
//   t  = xf +sat rb;  out = clamp(t >> r', act_min, act_max)
// Right shift r in [1, 22] (pre 0, r' = r): Int8Requantizer's fast path
// (x - (x < 0) + 2^(r-1) + (zp << r), floored by 2^r, is x / 2^r rounded half
// away from zero, plus zp; rb = ((2 zp + 1) << r) / 2; proof there).
// r in [23, 31]: the same floor with pre = r - 22 and r' = 22, since
// floor((y + 2^(r-1) + (zp << r)) / 2^r) = floor((floor(y / 2^pre) + 2^(r'-1)
// + (zp << r')) / 2^r') (the added terms are multiples of 2^pre); |xf| <= 2^30,
// so the add does not saturate. Left shift (r = 0, left = shift): the
// reference is clamp(clamp(x, +-2^29) + zp); t = x +sat zp equals x + zp
// unless it saturates, and wherever x + zp and the saturated t differ from
// the reference's value both lie beyond +-(2^29 - 128), outside the int8
// activation range on the same side, so the clamp agrees. (acc << left wraps
// like the reference's.)
struct ChannelRequant {
  int32_t m;
  int32_t rb;
  int32_t right;  // r'
  int32_t pre;
  int32_t fix;
  int32_t left;
  bool general;  // MakeChannelRequant refused: Int8Requantizer's general path
};

// What a layer's channels need (the kernels instantiate per kind): kRight:
// every right shift in [1, 22] (a shift of 0 is no right shift: kAny); kPre: right shifts only, some beyond 22; both
// with accumulators below 2^30 in magnitude (the one-instruction SMMULR
// multiply); kWide: right shifts only, accumulators that may reach 2^30 (a
// bias that large: VWW's nearly-dead channels, whose tiny filter scale makes
// their integer bias huge), the 64-bit multiply; kAny: some left shift, or
// some channel on the general path.
enum RequantKind { kRight, kPre, kWide, kAny };

// The constants of output channel c; false (general set) when the channel
// needs the general path (multiplier INT32_MIN, a shift outside [-31, 31], an
// output zero point outside int8).
inline bool MakeChannelRequant(const Int8ChannelQuant& q, int c, ChannelRequant* r) {
  const int32_t m = q.multiplier_of(c);
  const int shift = q.shift_of(c);
  r->general = m == INT32_MIN || shift < -31 || shift > 31 || q.output_offset < -128 || q.output_offset > 127;
  if (r->general) {
    r->m = r->rb = r->right = r->pre = r->fix = r->left = 0;
    return false;
  }
  const int right = shift < 0 ? -shift : 0;
  r->m = m;
  r->left = shift > 0 ? shift : 0;
  r->pre = right > kMaxFastRightShift ? right - kMaxFastRightShift : 0;
  r->right = right - r->pre;
  r->fix = shift < 0 ? -1 : 0;
  r->rb = shift < 0 ? static_cast<int32_t>(static_cast<uint32_t>(2 * q.output_offset + 1) << r->right) >> 1
                    : q.output_offset;
  return true;
}

// MakeChannelRequant for a layer whose kind LayerRequantKind gave: kRight and
// kPre need no checks (right shifts of at most 31, zero point in int8), so the
// constants are a few instructions from the multiplier and shift (made per
// pixel pair and channel in the kernels, kept in no table).
template <RequantKind kKind>
inline ChannelRequant LayerChannelRequant(const Int8ChannelQuant& q, int c) {
  ChannelRequant r;
  const bool dead = q.multiplier_of(c) == 0;
  if (dead || q.constant(c)) {
    // A dead channel (its output the zero point) or prepare's constant channel: 0 * acc, then
    // (2c + 1) >> 1 = c in every kind's formula, also with the -1 of a negative accumulator's
    // rounding fix that some kernels add to rb (which needs a right shift of at least 1).
    r.m = 0;
    r.rb = 2 * (dead ? q.output_offset : q.constant_value(c)) + 1;
    r.right = 1;
    r.pre = r.fix = r.left = 0;
    r.general = false;
    return r;
  }
  if (kKind == kAny) {
    MakeChannelRequant(q, c, &r);
    return r;
  }
  r.m = q.multiplier_of(c);
  int right = -q.shift_of(c);
  r.pre = 0;
  if ((kKind == kPre || kKind == kWide) && right > kMaxFastRightShift) {
    r.pre = right - kMaxFastRightShift;
    right = kMaxFastRightShift;
  }
  r.right = right;
  r.rb = static_cast<int32_t>(static_cast<uint32_t>(2 * q.output_offset + 1) << right) >> 1;
  r.fix = -1;
  r.left = 0;
  r.general = false;
  return r;
}

// The largest |accumulator| a layer can reach: its bias plus `taps` products of
// an input value plus offset (in [-255, 255]: the offset is minus an int8 zero
// point, within [-128, 128] where the kernels take this path) with an int8
// filter value (|f| <= 128), per output. With `q`, channels whose multiplier
// is 0 are left out: their product is 0 whatever the accumulator (VWW's dead
// channels: a scale ratio below 2^-32 has no multiplier, and their integer
// bias is about 2^30), and so are prepare's constant channels; where prepare
// kept facts it is their exact reach (ChannelFacts: the partial sums of any
// window lie inside each channel's range too, every tap's share of it
// including 0).
inline int64_t AccumulatorBound(const int32_t* bias, int channels, int32_t taps,
                                const Int8ChannelQuant* q = nullptr) {
  if (q != nullptr && q->reach() >= 0) return q->reach();  // prepare's exact figure
  int64_t most = 0;
  if (bias != nullptr) {
    for (int c = 0; c < channels; ++c) {
      if (q != nullptr && (q->multiplier_of(c) == 0 || q->constant(c))) continue;
      const int64_t b = bias[c] < 0 ? -static_cast<int64_t>(bias[c]) : bias[c];
      if (b > most) most = b;
    }
  }
  return most + static_cast<int64_t>(taps) * 255 * 128;
}

// Accumulators below this bound in magnitude double without overflow, so the
// doubling high multiply is one SMMULR (kRight, kPre).
constexpr int64_t kSmmulrBound = int64_t{1} << 30;

// The layer's kind; `acc_bound` is AccumulatorBound's: kRight and kPre also
// promise |acc| < 2^30 (the SMMULR form), else kWide.
inline RequantKind LayerRequantKind(const Int8ChannelQuant& q, int channels, int64_t acc_bound) {
  RequantKind kind = kRight;
  ChannelRequant r;
  for (int c = 0; c < channels; ++c) {
    if (q.constant(c)) continue;  // LayerChannelRequant's constant: any kind's formula
    // A shift of 0 or more (fix 0: no rounding right shift) only kAny does,
    // unless the multiplier is 0 (x = 0: the fix changes nothing).
    if (!MakeChannelRequant(q, c, &r) || r.left > 0 || (r.fix == 0 && r.m != 0)) return kAny;
    if (r.pre > 0) kind = kPre;
  }
  return acc_bound >= kSmmulrBound ? kWide : kind;
}

// (a * m + 2^30) >> 31 for |a| < 2^30: then 2a fits, and SMMULR's
// (2a * m + 2^31) >> 32 is the same floor; one instruction instead of the
// 64-bit multiply-add and the shifts.
inline int32_t DoublingHighMulSmall(int32_t a, int32_t m) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  int32_t x;
  __asm__("smmulr %0, %1, %2" : "=r"(x) : "r"(a * 2), "r"(m));
  return x;
#else
  return static_cast<int32_t>((static_cast<int64_t>(a) * 2 * m + (int64_t{1} << 31)) >> 32);
#endif
}

// A layer's kind as a type, for picking a kernel template's instance:
// ForKind(kind, pick) returns pick(KindTag<kind>()), e.g.
//   ForKind(kind, [](auto tag) { return Kernel<decltype(tag)::kKind>; })
template <RequantKind K>
struct KindTag {
  static constexpr RequantKind kKind = K;
};

template <typename Pick>
inline auto ForKind(RequantKind kind, Pick pick) -> decltype(pick(KindTag<kRight>())) {
  switch (kind) {
    case kRight:
      return pick(KindTag<kRight>());
    case kPre:
      return pick(KindTag<kPre>());
    case kWide:
      return pick(KindTag<kWide>());
    default:
      return pick(KindTag<kAny>());
  }
}

// The requantized value before the activation clamp (t >> r' above); for a
// kAny layer's channel on the general path, Int8Requantizer's int8 result
// (inside int8, so PackClamp4's saturation and clamp leave it as it is).
template <RequantKind kKind>
inline int32_t RequantizeShifted(int32_t acc, const ChannelRequant& r, const Int8Requantizer& general, int c) {
  if (kKind == kAny && __builtin_expect(r.general, 0)) return general(acc, c);
  const int32_t a = kKind == kAny ? static_cast<int32_t>(static_cast<uint32_t>(acc) << r.left) : acc;
  const int32_t x = kKind == kAny || kKind == kWide
                        ? static_cast<int32_t>((static_cast<int64_t>(a) * r.m + (int64_t{1} << 30)) >> 31)
                        : DoublingHighMulSmall(a, r.m);
  int32_t xf = kKind == kAny ? x + ((x >> 31) & r.fix) : x - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31);
  if (kKind != kRight) xf >>= r.pre;
  return SaturatingAddInt32(xf, r.rb) >> r.right;
}

// An int8 activation bound in every byte, for PackClamp.
inline uint32_t Bytes4(int32_t v) { return (static_cast<uint32_t>(v) & 0xFFu) * 0x01010101u; }

// Values v0..v3 saturated to int8, packed little-endian (v0 in byte 0), each
// byte then clamped to [lo, hi] (lo4, hi4: Bytes4 of int8 bounds, lo <= hi):
// the same bytes as clamp(v, lo, hi) per value, since [lo, hi] lies inside
// int8. SSAT per value, three bit-field inserts, then SSUB8 + SEL twice for
// all four lanes (no compare and branch per value).
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
inline uint32_t ClampBytes(uint32_t p, uint32_t lo4, uint32_t hi4) {
  uint32_t t;
  __asm__("ssub8 %[t], %[p], %[lo]\n"
          "sel %[p], %[p], %[lo]\n"
          "ssub8 %[t], %[hi], %[p]\n"
          "sel %[p], %[p], %[hi]\n"
          : [p] "+r"(p), [t] "=&r"(t)
          : [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
  return p;
}
inline uint32_t Sat8(int32_t v) { return static_cast<uint32_t>(__ssat(v, 8)); }
#else
inline uint32_t ClampBytes(uint32_t p, uint32_t lo4, uint32_t hi4) {
  uint32_t out = 0;
  for (int i = 0; i < 32; i += 8) {
    const int32_t v = static_cast<int8_t>(p >> i), lo = static_cast<int8_t>(lo4 >> i),
                  hi = static_cast<int8_t>(hi4 >> i);
    out |= (static_cast<uint32_t>(ClampInt32(v, lo, hi)) & 0xFFu) << i;
  }
  return out;
}
inline uint32_t Sat8(int32_t v) { return static_cast<uint32_t>(ClampInt32(v, -128, 127)); }
#endif

inline uint32_t PackClamp4(int32_t v0, int32_t v1, int32_t v2, int32_t v3, uint32_t lo4, uint32_t hi4) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  // Three bit-field inserts (the low byte of each saturated value; the upper
  // bits of the first are overwritten in turn).
  uint32_t p = Sat8(v0);
  __asm__("bfi %0, %1, #8, #8\n"
          "bfi %0, %2, #16, #8\n"
          "bfi %0, %3, #24, #8\n"
          : "+r"(p)
          : "r"(Sat8(v1)), "r"(Sat8(v2)), "r"(Sat8(v3)));
#else
  uint32_t p = Sat8(v0) & 0xFFu;
  p |= (Sat8(v1) & 0xFFu) << 8;
  p |= (Sat8(v2) & 0xFFu) << 16;
  p |= Sat8(v3) << 24;
#endif
  return ClampBytes(p, lo4, hi4);
}

// The first output coordinate whose window starts inside the input and one
// past the last whose window ends inside it (along one axis): the pixels in
// between need no bounds.
inline void FullWindowRange(int out, int stride, int pad, int in, int filter, int dilation, int* lo, int* hi) {
  const int span = (filter - 1) * dilation + 1;
  *lo = (pad + stride - 1) / stride;
  const int last = in - span + pad;  // origin <= in - span
  *hi = last < 0 ? 0 : last / stride + 1;
  if (*hi > out) *hi = out;
  if (*lo > *hi) *lo = *hi;
}

// Four bytes to any address (the DSP cores store unaligned words in normal
// memory; the compiler emits one STR).
inline void Store4(int8_t* p, uint32_t v) { __builtin_memcpy(p, &v, 4); }

}  // namespace dsp

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_
