// Expected fixed-point values come from a Python big-integer transcription of
// TFLite's QuantizeMultiplier / MultiplyByQuantizedMultiplier formulas (run
// once, values pasted).
#include "micro_runtime/kernels/quantization_util.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

namespace {

void ExpectMultiplier(double real, int32_t expected_q, int expected_shift) {
  int32_t q = -1;
  int shift = -100;
  QuantizeMultiplier(real, &q, &shift);
  TF_LITE_MICRO_EXPECT_EQ(expected_q, q);
  TF_LITE_MICRO_EXPECT_EQ(expected_shift, shift);
}

int32_t Requantize(int32_t x, double real) {
  int32_t q = 0;
  int shift = 0;
  QuantizeMultiplier(real, &q, &shift);
  return MultiplyByQuantizedMultiplier(x, q, shift);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(QuantizeMultiplierMatchesTflite) {
  ExpectMultiplier(0.0, 0, 0);
  ExpectMultiplier(0.5, 1073741824, 0);
  ExpectMultiplier(1.0, 1073741824, 1);
  ExpectMultiplier(0.75, 1610612736, 0);
  ExpectMultiplier(0.1, 1717986918, -3);
  ExpectMultiplier(0.0003, 1319413953, -11);
  ExpectMultiplier(3.5, 1879048192, 2);
  // Mantissa rounds up to 2^31: carried into the exponent.
  ExpectMultiplier(1.0 - 1.0 / 1099511627776.0, 1073741824, 1);
  // Too small for a Q31 multiplier: flushed to zero.
  ExpectMultiplier(1.0 / 1099511627776.0, 0, 0);
}

TF_LITE_MICRO_TEST(MultiplyByQuantizedMultiplierRounding) {
  TF_LITE_MICRO_EXPECT_EQ(100, Requantize(1000, 0.1));
  TF_LITE_MICRO_EXPECT_EQ(-100, Requantize(-1000, 0.1));
  // TFLite rounds twice (high mul, then shift): 5 * 0.25 -> 2.5 -> 3 -> 2.
  TF_LITE_MICRO_EXPECT_EQ(2, Requantize(5, 0.25));
  TF_LITE_MICRO_EXPECT_EQ(-1, Requantize(-5, 0.25));
  TF_LITE_MICRO_EXPECT_EQ(37, Requantize(123456, 0.0003));
  TF_LITE_MICRO_EXPECT_EQ(-24, Requantize(-7, 3.5));
  TF_LITE_MICRO_EXPECT_EQ(123, Requantize(100000, 0.00123));
  TF_LITE_MICRO_EXPECT_EQ(-123, Requantize(-100000, 0.00123));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, SaturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN));
  TF_LITE_MICRO_EXPECT_EQ(-3, RoundingDivideByPOT(-5, 1));  // ties away from zero
  TF_LITE_MICRO_EXPECT_EQ(3, RoundingDivideByPOT(5, 1));
  TF_LITE_MICRO_EXPECT_EQ(-3, RoundingDivideByPOT(-11, 2));
}

TF_LITE_MICRO_TEST(ActivationRanges) {
  float lo = 0.0f;
  float hi = 0.0f;
  CalculateActivationRange(kTfLiteActRelu6, &lo, &hi);
  TF_LITE_MICRO_EXPECT_EQ(0.0f, lo);
  TF_LITE_MICRO_EXPECT_EQ(6.0f, hi);
  CalculateActivationRange(kTfLiteActReluN1To1, &lo, &hi);
  TF_LITE_MICRO_EXPECT_EQ(-1.0f, lo);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, hi);

  const int32_t dims[] = {1, 1};
  int8_t storage[1];
  TfLiteTensor out = CreateQuantizedTensor(storage, IntArrayFromInts(dims), 0.05f, -10);
  int32_t qlo = 0;
  int32_t qhi = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActNone, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-128, qlo);
  TF_LITE_MICRO_EXPECT_EQ(127, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActRelu, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-10, qlo);
  TF_LITE_MICRO_EXPECT_EQ(127, qhi);
  // 6 / 0.05 = 120 -> 110 after the zero point.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActRelu6, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-10, qlo);
  TF_LITE_MICRO_EXPECT_EQ(110, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          CalculateActivationRangeQuantized(kTfLiteActReluN1To1, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-30, qlo);
  TF_LITE_MICRO_EXPECT_EQ(10, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CalculateActivationRangeQuantized(kTfLiteActTanh, &out, &qlo, &qhi));
  float fstorage[1];
  TfLiteTensor fout = CreateTensor(fstorage, IntArrayFromInts(dims));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CalculateActivationRangeQuantized(kTfLiteActNone, &fout, &qlo, &qhi));
}

TF_LITE_MICRO_TEST(Int64MultiplierRoundsTheMultiplierTo15Bits) {
  // 0.5 as (2^30, 0): m15 = 2^14, x * 2^14 >> 15 rounded half up.
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(50), MultiplyByQuantizedMultiplierInt64(100, 1 << 30, 0));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(3), MultiplyByQuantizedMultiplierInt64(5, 1 << 30, 0));  // 2.5 -> 3
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(-2), MultiplyByQuantizedMultiplierInt64(-5, 1 << 30, 0));  // half up
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(1) << 40, MultiplyByQuantizedMultiplierInt64(int64_t{1} << 41, 1 << 30, 0));
  // A multiplier from 0x7FFF0000 up is 0x7FFF, not 0x8000.
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(0x7FFF), MultiplyByQuantizedMultiplierInt64(1 << 15, INT32_MAX, 0));
  // Shifts above 14 shift left: 15 - 16 = -1.
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int64_t>(4 * 0x4000), MultiplyByQuantizedMultiplierInt64(2, 1 << 30, 16));
}

TF_LITE_MICRO_TEST(RoundingSaturationAndClamping) {
  TF_LITE_MICRO_EXPECT_EQ(3, RoundToInt32(2.5f));
  TF_LITE_MICRO_EXPECT_EQ(-3, RoundToInt32(-2.5f));
  TF_LITE_MICRO_EXPECT_EQ(0, RoundToInt32(0.49999997f));
  TF_LITE_MICRO_EXPECT_EQ(-2, RoundToInt32(-1.6f));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-5), QuantizeToInt8(0.25f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), QuantizeToInt8(1e30f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), QuantizeToInt8(-1e30f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-10), QuantizeToInt8(0.0f / 0.0f, 0.05f, -10));  // NaN: the zero point
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), SaturateTo<int8_t>(300));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(-32768), SaturateTo<int16_t>(-40000));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(1234), SaturateTo<int16_t>(1234));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, SaturatingAddInt32(INT32_MAX - 1, 5));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MIN, SaturatingAddInt32(INT32_MIN + 1, -5));
  TF_LITE_MICRO_EXPECT_EQ(7, SaturatingAddInt32(3, 4));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MIN, WrappingAdd(INT32_MAX, 1));
  TF_LITE_MICRO_EXPECT_EQ(40, SaturatingShiftLeft(5, 3));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, SaturatingShiftLeft(1 << 28, 3));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MIN, SaturatingShiftLeft(-(1 << 28), 3));
  TF_LITE_MICRO_EXPECT_EQ(5, ClampInt32(9, -3, 5));
  TF_LITE_MICRO_EXPECT_EQ(-3, ClampInt32(-9, -3, 5));
  TF_LITE_MICRO_EXPECT_EQ(0.5f, ClampFloat(0.5f, 0.0f, 6.0f));
  TF_LITE_MICRO_EXPECT_EQ(6.0f, ClampFloat(7.0f, 0.0f, 6.0f));
  // Beyond +-2^29 the requantized value saturates (corrupt scales).
  TF_LITE_MICRO_EXPECT_EQ(kMaxRequantized, MultiplyByQuantizedMultiplier(INT32_MAX, INT32_MAX, 0));
  TF_LITE_MICRO_EXPECT_EQ(-kMaxRequantized, MultiplyByQuantizedMultiplier(INT32_MIN + 1, INT32_MAX, 0));
}

// 1 / sqrt(x) as multiplier * 2^(shift - 31): within 1e-5 relative of the
// real value for x over many octaves; 0 and 1 give (INT32_MAX, 0) like TFLite.
TF_LITE_MICRO_TEST(InverseSqrtMultiplierIsOneOverSqrt) {
  int32_t m = 0;
  int shift = 0;
  InverseSqrtMultiplier(0, &m, &shift);
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, m);
  TF_LITE_MICRO_EXPECT_EQ(0, shift);
  InverseSqrtMultiplier(1, &m, &shift);
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, m);
  const int32_t xs[] = {2, 3, 4, 100, 12345, 1 << 20, 987654321, INT32_MAX};
  for (int32_t x : xs) {
    InverseSqrtMultiplier(x, &m, &shift);
    TF_LITE_MICRO_EXPECT_LE(shift, 0);
    double value = static_cast<double>(m);
    for (int i = 0; i < 31 - shift; ++i) value /= 2.0;
    double expected = 1.0;
    // 1 / sqrt(x) by bisection: no libm in the test either.
    double lo = 0.0;
    double hi = 1.0;
    for (int i = 0; i < 80; ++i) {
      const double mid = (lo + hi) / 2.0;
      if (mid * mid * static_cast<double>(x) > 1.0) hi = mid; else lo = mid;
    }
    expected = lo;
    TF_LITE_MICRO_EXPECT_NEAR(expected, value, expected * 1e-5);
  }
}

TF_LITE_MICRO_TESTS_END
