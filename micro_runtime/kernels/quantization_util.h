// Fixed-point arithmetic of TFLite's integer kernels: real multipliers as a
// Q31 mantissa and a shift, the rounding multiply and shifts that requantize
// an accumulator (int32 and, for the 16x8 kernels, int64), saturation and
// clamping, float rounding and int8 quantization without libm, and the
// clamp ranges of fused activations. Bit-exact with TFLite's reference code
// unless noted.
#ifndef MICRO_RUNTIME_KERNELS_QUANTIZATION_UTIL_H_
#define MICRO_RUNTIME_KERNELS_QUANTIZATION_UTIL_H_

#include <stdint.h>

#include "micro_runtime/common.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace micro_runtime {

// Splits a positive real multiplier into a Q31 mantissa in [2^30, 2^31) and a
// power-of-two exponent: real ~= quantized_multiplier * 2^(shift - 31).
// 0 gives (0, 0); multipliers below 2^-32 underflow to (0, 0).
void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift);

// (a * b * 2) >> 32 with round-half-away-from-zero, saturating the single
// overflow case a == b == INT32_MIN (gemmlowp semantics).
inline int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  // The reference adds 2^30 (or 1 - 2^30 for a negative product) and divides
  // by 2^31 rounding toward zero; for every product that equals
  // floor((ab + 2^30) / 2^31): one multiply-accumulate and a shift, no branch.
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  return static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
}

// x / 2^exponent rounded to nearest, ties away from zero; 0 <= exponent <= 31.
inline int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((uint32_t{1} << exponent) - 1);
  // remainder > (mask >> 1) + (x < 0), as remainder - (x < 0) > mask >> 1 (branch-free).
  const int32_t remainder = (x & mask) - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31);
  return (x >> exponent) + (remainder > (mask >> 1) ? 1 : 0);
}

// a + b with two's-complement wraparound. Used where an int32 bias from the
// model meets an accumulator: a corrupt bias near INT32_MIN/MAX must give a
// wrong number, not undefined behaviour (found by fuzzing). Same code as a
// plain add on Cortex-M.
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// Bound of MultiplyByQuantizedMultiplier's result. Every caller adds a zero
// point (|zp| <= 32767) or a second such result and then clamps to an 8/16-bit
// range, so results beyond +-2^29 only arise from corrupt scales or biases;
// saturating them keeps those sums from overflowing int32 (found by fuzzing).
constexpr int32_t kMaxRequantized = int32_t{1} << 29;

// x * quantized_multiplier * 2^(shift - 31), rounded like TFLite's reference
// MultiplyByQuantizedMultiplier (left shift first, then doubling high mul,
// then rounding right shift), saturated to [-kMaxRequantized, kMaxRequantized].
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t quantized_multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  const int32_t v = RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift),
                                        quantized_multiplier),
      right_shift);
  return v > kMaxRequantized ? kMaxRequantized : (v < -kMaxRequantized ? -kMaxRequantized : v);
}

// TFLite's MultiplyByQuantizedMultiplier for int64 accumulators (the 16x8
// kernels): the multiplier rounded to 15 bits, (m + 2^15) >> 16 (0x7FFF from
// 0x7FFF0000 up), then x * m15 rounded (half up) right by 15 - shift. Products
// wrap instead of overflowing and the result stays 64-bit (TFLite assumes
// |x| < 2^47 and an int32 result, then narrows: the same inside that
// contract; callers clamp); shifts above 14, which TFLite asserts away, shift left.
int64_t MultiplyByQuantizedMultiplierInt64(int64_t x, int32_t quantized_multiplier, int shift);

// a + b saturated to the int32 range (QADD on cores with the DSP extension).
inline int32_t SaturatingAddInt32(int32_t a, int32_t b) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  return __qadd(a, b);
#else
  int32_t s;
  if (__builtin_add_overflow(a, b, &s)) s = a < 0 ? INT32_MIN : INT32_MAX;
  return s;
#endif
}

// Clamps v into [lo, hi].
inline int32_t ClampInt32(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline float ClampFloat(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Clamps v to the range of T (int8_t or int16_t).
template <typename T>
inline T SaturateTo(int32_t v) {
  constexpr int32_t lo = sizeof(T) == 1 ? -128 : -32768;
  constexpr int32_t hi = sizeof(T) == 1 ? 127 : 32767;
  return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
}

// Rounds half away from zero (like TFLite's TfLiteRound) without libm. The
// fraction x - trunc(x) is exact, unlike adding 0.5 which can round up
// 0.49999997. |x| must fit in int32.
inline int32_t RoundToInt32(float x) {
  int32_t t = static_cast<int32_t>(x);
  const float fraction = x - static_cast<float>(t);
  if (fraction >= 0.5f) ++t;
  if (fraction <= -0.5f) --t;
  return t;
}

// x * 2^exponent saturated to int32, exponent in [1, 30]: gemmlowp's
// SaturatingRoundingMultiplyByPOT for a positive exponent (the Rescale of
// its fixed-point types; used by DIV's reciprocal and RSQRT's Newton steps).
inline int32_t SaturatingShiftLeft(int32_t x, int exponent) {
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// TFLite's GetInvSqrtQuantizedMultiplierExp with the reverse shift (-1) its
// callers pass: 1 / sqrt(x) for x >= 0 as multiplier * 2^(shift - 31), the
// multiplier from five Newton-Raphson steps in Q3.28 after x is normalized by
// powers of four, shift <= 0 for a left-shift-style MultiplyByQuantizedMultiplier.
// x of 0 or 1 gives (INT32_MAX, 0), as in TFLite. Used by RSQRT and
// L2_NORMALIZATION.
void InverseSqrtMultiplier(int32_t x, int32_t* multiplier, int* shift);

// Quantizes a real value to int8 with round-half-away and saturation.
inline int8_t QuantizeToInt8(float value, float scale, int32_t zero_point) {
  const float scaled = value / scale;
  if (scaled != scaled) return static_cast<int8_t>(zero_point);  // NaN
  // Saturate before converting: a float outside int32 range is undefined.
  if (scaled > 1000.0f) return 127;
  if (scaled < -1000.0f) return -128;
  int32_t q = RoundToInt32(scaled) + zero_point;
  if (q > 127) q = 127;
  if (q < -128) q = -128;
  return static_cast<int8_t>(q);
}

// Float clamp bounds of a fused activation (Relu -> [0, inf), Relu6 -> [0, 6],
// ReluN1To1 -> [-1, 1], None -> full float range).
void CalculateActivationRange(TfLiteFusedActivation activation, float* act_min, float* act_max);

// Quantized clamp bounds of a fused activation for `output` (int8, int16 or
// uint8): the float bounds mapped through the output's scale/zero point and
// intersected with the type's range. Tanh/SignBit are not supported as fused
// activations of quantized ops and return kTfLiteError with a message.
// (Defined in filter_op_util.cc, beside its main caller.)
TfLiteStatus CalculateActivationRangeQuantized(TfLiteFusedActivation activation,
                                               const TfLiteTensor* output, int32_t* act_min,
                                               int32_t* act_max);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_QUANTIZATION_UTIL_H_
