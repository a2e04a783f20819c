#include "micro_runtime/kernels/quantization_util.h"

#include <float.h>
#include <math.h>

namespace micro_runtime {

void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift) {
  // Zero, and NaN (a scale ratio of corrupt models, 0/0): no multiplier.
  if (real_multiplier == 0.0 || real_multiplier != real_multiplier) {
    *quantized_multiplier = 0;
    *shift = 0;
    return;
  }
  // Infinite ratios (a zero output scale, or float overflow of the product of huge scales) saturate
  // like the finite extremes below: frexp/round of infinity cannot be cast to an integer.
  if (real_multiplier > DBL_MAX || real_multiplier < -DBL_MAX) {
    *quantized_multiplier = real_multiplier > 0 ? INT32_MAX : -INT32_MAX;
    *shift = 30;
    return;
  }
  const double mantissa = frexp(real_multiplier, shift);  // in [0.5, 1)
  int64_t q = static_cast<int64_t>(round(mantissa * static_cast<double>(int64_t{1} << 31)));
  // Rounding can carry up to exactly 2^31, which no longer fits a Q31 value.
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    q = 0;
  }
  // Extreme scale ratios (corrupt models) would make callers shift by 32 or
  // more, which is undefined; saturate to the largest representable value.
  if (*shift > 30) {
    *shift = 30;
    q = INT32_MAX;
  }
  *quantized_multiplier = static_cast<int32_t>(q);
}

void CalculateActivationRange(TfLiteFusedActivation activation, float* act_min, float* act_max) {
  switch (activation) {
    case kTfLiteActRelu:
      *act_min = 0.0f;
      *act_max = FLT_MAX;
      break;
    case kTfLiteActRelu6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      break;
    case kTfLiteActReluN1To1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      break;
    default:
      *act_min = -FLT_MAX;
      *act_max = FLT_MAX;
      break;
  }
}

int64_t MultiplyByQuantizedMultiplierInt64(int64_t x, int32_t quantized_multiplier, int shift) {
  const int64_t reduced = quantized_multiplier < 0x7FFF0000 ? (quantized_multiplier + (1 << 15)) >> 16 : 0x7FFF;
  const uint64_t product = static_cast<uint64_t>(x) * static_cast<uint64_t>(reduced);  // wraps
  const int total_shift = 15 - shift;
  if (total_shift < 1) return static_cast<int64_t>(product << -total_shift);
  return static_cast<int64_t>(product + (uint64_t{1} << (total_shift - 1))) >> total_shift;
}

void InverseSqrtMultiplier(int32_t x, int32_t* multiplier, int* shift) {
  if (x <= 1) {  // 1 / sqrt(1); TFLite also gives it for 0
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  // Normalize x by powers of four to [2^27, 2^29): then as Q3.28 (after the
  // halving below) it lies in [1/4, 1).
  int exponent = 11;
  while (x >= (int32_t{1} << 29)) {
    x /= 4;
    ++exponent;
  }
  const int pairs = (__builtin_clz(static_cast<uint32_t>(x)) - 1) / 2 - 1;
  exponent -= pairs;
  x = static_cast<int32_t>(static_cast<uint32_t>(x) << (2 * pairs));
  const auto mul = SaturatingRoundingDoublingHighMul;
  const int32_t half_input = RoundingDivideByPOT(x >> 1, 1);  // Q3.28
  constexpr int32_t kThreeHalves = (int32_t{1} << 28) + (int32_t{1} << 27);
  int32_t y = int32_t{1} << 28;  // 1.0 in Q3.28
  for (int i = 0; i < 5; ++i) {  // y = 3/2 y - x/2 y^3
    const int32_t y3 = SaturatingShiftLeft(mul(mul(y, y), y), 6);  // Q9 -> Q3
    y = SaturatingShiftLeft(WrappingAdd(mul(kThreeHalves, y), -mul(half_input, y3)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0.31
  y = mul(y, kHalfSqrt2);
  if (exponent < 0) {
    y = static_cast<int32_t>(static_cast<uint32_t>(y) << -exponent);
    exponent = 0;
  }
  *multiplier = y;
  *shift = -exponent;
}

}  // namespace micro_runtime
