// HARD_SWISH: y = x * relu6(x + 3) / 6. float32, and int8 with TFLite's
// 16-bit fixed-point scheme (reference_ops::HardSwish): the input on a 2^7
// finer "hires" scale, its rescale to the output scale and a "reluish"
// factor in [0, 1] (x on a scale where 3 is 2^15, saturated, moved to
// [0, 1]) are int16 values multiplied with gemmlowp's int16 high
// multiplies. Every int16 step (rounding, saturation, the wrap when the
// output zero point is added) is reproduced, so results are bit-exact.
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "HARD_SWISH";

struct HardSwishOpData {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int16_t output_multiplier;  // Q0.15
  int16_t reluish_multiplier;  // Q0.15
  int output_exponent;         // <= 0
  int reluish_exponent;
};

// A Q0.31 multiplier rounded to Q0.15 (TFLite's DownScaleInt32ToInt16Multiplier).
int16_t ToInt16Multiplier(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= INT32_MAX - kRounding) return INT16_MAX;
  return static_cast<int16_t>((multiplier + kRounding) >> 16);
}

// gemmlowp's int16 SaturatingRoundingDoublingHighMul.
int16_t RoundingHighMul16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// The same rounding toward zero (TFLite's SaturatingDoublingHighMul).
int16_t HighMul16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT on int16, exponent 0..31; its mask is an
// int16, so exponents above 15 keep that truncation.
int16_t RoundingShiftRight16(int16_t x, int exponent) {
  const int16_t mask = static_cast<int16_t>((int64_t{1} << exponent) - 1);
  const int16_t remainder = static_cast<int16_t>(x & mask);
  const int16_t threshold = static_cast<int16_t>((mask >> 1) + (x < 0 ? 1 : 0));
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t SaturatingShiftLeft16(int16_t x, int amount) {
  const int64_t v = static_cast<int64_t>(x) * (int64_t{1} << amount);
  return static_cast<int16_t>(v > INT16_MAX ? INT16_MAX : (v < INT16_MIN ? INT16_MIN : v));
}

int32_t HardSwishInt8(const HardSwishOpData& d, int32_t q) {
  const int16_t hires = static_cast<int16_t>((q - d.input_zero_point) * (1 << 7));
  const int16_t preshift_output = RoundingHighMul16(hires, d.output_multiplier);
  // The reluish factor: hires * reluish multiplier, saturated, in [-1, 1].
  int16_t reluish = hires;
  if (d.reluish_exponent > 0) reluish = SaturatingShiftLeft16(reluish, d.reluish_exponent - 1);
  reluish = RoundingHighMul16(reluish, d.reluish_multiplier);
  if (d.reluish_exponent > 0) reluish = SaturatingShiftLeft16(reluish, 1);
  if (d.reluish_exponent < 0) reluish = RoundingShiftRight16(reluish, -d.reluish_exponent);
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
  int16_t y = RoundingShiftRight16(HighMul16(reluish, preshift_output), -d.output_exponent);
  return static_cast<int16_t>(y + d.output_zero_point);  // int16 like TFLite's, then saturated to int8
}

TfLiteStatus HardSwishPrepare(TfLiteContext* context, TfLiteNode* node) {
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(kOp, context, node, kTypeFloat32 | kTypeInt8,
                                                                  "float32, int8", sizeof(HardSwishOpData),
                                                                  &op_data));
  if (op_data == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  HardSwishOpData* data = static_cast<HardSwishOpData*>(op_data);
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  const float hires_input_scale = (1.0f / 128.0f) * input->params.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t multiplier;
  QuantizeMultiplier(static_cast<double>(hires_input_scale / output->params.scale), &multiplier,
                     &data->output_exponent);
  data->output_multiplier = ToInt16Multiplier(multiplier);
  if (data->output_exponent > 0) {
    MicroPrintf("%s: input scale %f / 128 must not exceed the output scale %f", kOp,
                static_cast<double>(input->params.scale), static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  QuantizeMultiplier(static_cast<double>(hires_input_scale / reluish_scale), &multiplier,
                     &data->reluish_exponent);
  data->reluish_multiplier = ToInt16Multiplier(multiplier);
  return kTfLiteOk;
}

TfLiteStatus HardSwishInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalQuantizedUnary<HardSwishOpData, false>(
      kOp, context, node,
      [](float x) {
        const float relu6 = x + 3.0f < 0.0f ? 0.0f : (x + 3.0f > 6.0f ? 6.0f : x + 3.0f);
        return x * relu6 / 6.0f;
      },
      [](const HardSwishOpData& d, int32_t q) { return HardSwishInt8(d, q); });
}

}  // namespace

TfLiteRegistration Register_HARD_SWISH() { return {nullptr, nullptr, HardSwishPrepare, HardSwishInvoke}; }

}  // namespace micro_runtime
