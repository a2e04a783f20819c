#include "micro_runtime/kernels/fixed_point.h"

#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {
namespace {

int32_t Mul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// exp(a) for a in [-1/4, 0), Q0 in and out: exp(-1/8) * (1 + x + x^2/2 + x^3/6 + x^4/24) with x = a + 1/8,
// evaluated as gemmlowp does (x^4/4 + x^3 times 1/3, plus x^2, halved).
int32_t ExpOnQuarterInterval(int32_t a) {
  constexpr int32_t kExpMinusOneEighth = 1895147668;  // Q0
  constexpr int32_t kOneThird = 715827883;            // Q0
  const int32_t x = a + (int32_t{1} << 28);           // + 1/8
  const int32_t x2 = Mul(x, x);
  const int32_t x3 = Mul(x2, x);
  const int32_t x4 = Mul(x2, x2);
  const int32_t x4_over_4 = RoundingDivideByPOT(x4, 2);
  const int32_t poly = RoundingDivideByPOT(Mul(x4_over_4 + x3, kOneThird) + x2, 1);
  return kExpMinusOneEighth + Mul(kExpMinusOneEighth, x + poly);
}

}  // namespace

int32_t OneOverOnePlusX(int32_t a) {
  const int64_t sum = static_cast<int64_t>(a) + INT32_MAX;  // a + 1.0 (1.0 is INT32_MAX in Q0.31)
  const int32_t half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  constexpr int32_t k48Over17 = 1515870810;      // Q2.29
  constexpr int32_t kNeg32Over17 = -1010580540;  // Q2.29
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  int32_t x = WrappingAdd(k48Over17, Mul(half_denominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_dx = WrappingAdd(kOneQ2, -Mul(half_denominator, x));
    // The Q4 product rescaled to Q2.
    x = WrappingAdd(x, SaturatingShiftLeft(Mul(x, one_minus_dx), 2));
  }
  // x / 2 reinterpreted as Q1, rescaled to Q0: a saturating doubling.
  return SaturatingShiftLeft(x, 1);
}

int32_t ExpOnNegativeValuesQ5(int32_t a) {
  if (a == 0) return INT32_MAX;
  constexpr int kFractionBits = 26;
  constexpr int32_t kQuarter = int32_t{1} << (kFractionBits - 2);
  // a = (a mod 1/4 - 1/4) - remainder, with the first part in [-1/4, 0) and remainder >= 0 a multiple of 1/4.
  const int32_t in_quarter = (a & (kQuarter - 1)) - kQuarter;
  int32_t result = ExpOnQuarterInterval(SaturatingShiftLeft(in_quarter, 5));  // Q5 -> Q0
  const int32_t remainder = in_quarter - a;
  // exp(-2^k) in Q0 for k = -2 .. 4: one factor per set bit of the remainder.
  static constexpr int32_t kFactors[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = 0; k < 7; ++k) {
    if ((remainder & (int32_t{1} << (kFractionBits - 2 + k))) != 0) result = Mul(result, kFactors[k]);
  }
  return result;
}

}  // namespace micro_runtime
