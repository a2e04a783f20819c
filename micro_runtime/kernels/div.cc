// DIV: y = act(x1 / x2) with numpy broadcasting (up to 6 dimensions).
// float32 (IEEE division: x / 0 is +-inf, clamped by the activation), and
// int8 with TFLite's fixed-point scheme: the zero-point corrected divisor's
// reciprocal comes from gemmlowp's Newton-Raphson iteration
// (one_over_one_plus_x_for_x_in_0_1), the numerator is normalized by its
// leading sign bits, and the quotient is rescaled by
// input1_scale / (input2_scale * output_scale) computed in float.
//
// Where TFLite's arithmetic is defined this is bit-exact. It is not when the
// final right shift exceeds 31 bits: numerators within a few steps of the
// zero point with a rescale multiplier below 2^7 (TFLite then shifts an int32
// by 32 or more, undefined behaviour; x86 builds of TFLM and LiteRT return
// e.g. 12.7 for 0.1 / 10). This kernel rounds those correctly (to 0). A
// divisor equal to its zero point (x / 0, undefined in TFLite) gives the
// activation maximum for x > 0, the minimum for x < 0 and the output zero
// point for 0 / 0.
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/fixed_point.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "DIV";
// Largest output shift for which the quotient's right shift stays >= 0:
// a numerator of at most 255 in magnitude has >= 23 leading sign bits.
constexpr int kMaxOutputShift = 23;

struct DivOpData {
  ArithmeticQuantParams common;  // first: PrepareArithmetic fills it
  int32_t output_multiplier;
  int output_shift;
};

// gemmlowp fixed point on raw int32 values; Qm means m integer bits.
int32_t Mul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// x / 2^exponent rounded half away from zero, for any exponent >= 0.
int32_t RoundingShiftRight(int32_t x, int exponent) {
  if (exponent <= 31) return RoundingDivideByPOT(x, exponent);
  return (x == INT32_MIN && exponent == 32) ? -1 : 0;
}

int32_t QuantizedDivide(const DivOpData& d, int32_t x1, int32_t x2) {
  const ArithmeticQuantParams& q = d.common;
  if (x2 == 0) {
    if (x1 == 0) return 0;
    return (x1 > 0 ? q.activation_max : q.activation_min) - q.output_offset;
  }
  if (x2 < 0) {  // the reciprocal needs a positive divisor
    x1 = -x1;
    x2 = -x2;
  }
  // Reciprocal of x2 = 2^bits * (1 + f): 1 / (1 + f) in Q0.31, times 2^-bits.
  const int leading_zeros = __builtin_clz(static_cast<uint32_t>(x2));
  const int reciprocal_shift = 31 - leading_zeros;
  const int32_t fraction =
      static_cast<int32_t>((static_cast<uint32_t>(x2) << leading_zeros) - (uint32_t{1} << 31));
  const int32_t reciprocal = OneOverOnePlusX(fraction);
  const int headroom = __builtin_clrsb(x1);
  const int32_t quotient =
      Mul(static_cast<int32_t>(static_cast<uint32_t>(x1) << headroom), reciprocal);
  const int right_shift = reciprocal_shift + headroom - d.output_shift;
  return RoundingShiftRight(Mul(quotient, d.output_multiplier), right_shift);
}

TfLiteStatus DivPrepare(TfLiteContext* context, TfLiteNode* node) {
  ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareArithmetic(kOp, context, node, sizeof(DivOpData), &common));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  DivOpData* data = static_cast<DivOpData*>(node->user_data);
  const float ratio = input1->params.scale / (input2->params.scale * output->params.scale);
  QuantizeMultiplier(static_cast<double>(ratio), &data->output_multiplier, &data->output_shift);
  if (data->output_shift > kMaxOutputShift) {
    MicroPrintf("%s: scale ratio input1 / (input2 * output) = %f is too large (at most 2^%d)", kOp,
                static_cast<double>(ratio), kMaxOutputShift);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus DivInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalArithmetic<DivOpData>(kOp, context, node, QuantizedDivide,
                                                  [](float a, float b) { return a / b; });
}

}  // namespace

TfLiteRegistration Register_DIV() { return {nullptr, nullptr, DivPrepare, DivInvoke}; }

}  // namespace micro_runtime
