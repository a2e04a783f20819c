// The DSP-extension instructions the arm_dsp kernels use (Armv7E-M: Cortex-M4,
// M7; Armv8-M Mainline with DSP: M33, M55), through the ACLE intrinsics of
// <arm_acle.h> when the compiler targets such a core, else as plain C with the
// instructions' semantics, so the same kernels build and run in host tests
// (make TARGET=host TAGS=arm_dsp).
//   SXTB16 x        : halfwords (sign-extended bytes 0 and 2 of x)
//   SXTB16 x, ROR #8: halfwords (sign-extended bytes 1 and 3 of x)
//   SMLAD a, b, acc : acc + a.lo * b.lo + a.hi * b.hi (16 x 16 products, the
//                     sum wraps modulo 2^32; only the Q flag notes overflow)
//   SMLABB/SMLATB/SMLATT a, b, acc: acc + a.{lo,hi,hi} * b.{lo,lo,hi}
//   SADD16 a, b     : halfword-wise a + b (wrapping)
#ifndef MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_
#define MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_

#include <stdint.h>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

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
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  return __smlad(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlatb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline uint32_t Sadd16(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(__sadd16(static_cast<int32_t>(a), static_cast<int32_t>(b)));
}
#else
inline int32_t Lo16(uint32_t a) { return static_cast<int16_t>(a & 0xFFFF); }
inline int32_t Hi16(uint32_t a) { return static_cast<int16_t>(a >> 16); }
inline int32_t WrapAdd(int32_t acc, int32_t p) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(p));
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Lo16(a) * Lo16(b)); }
inline int32_t Smlatb(uint32_t a, uint32_t b, int32_t acc) { return WrapAdd(acc, Hi16(a) * Lo16(b)); }
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
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  const int32_t p0 = static_cast<int16_t>(a & 0xFFFF) * static_cast<int16_t>(b & 0xFFFF);
  const int32_t p1 = static_cast<int16_t>(a >> 16) * static_cast<int16_t>(b >> 16);
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(p0) + static_cast<uint32_t>(p1));
}
#endif

// Both 16-bit halves 1: SMLAD with it adds the two halfwords of the other operand.
constexpr uint32_t kOnes16 = 0x00010001u;

}  // namespace dsp

#endif  // MICRO_RUNTIME_KERNELS_ARM_DSP_DSP_H_
