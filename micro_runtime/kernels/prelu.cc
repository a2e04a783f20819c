// PRELU: y = x for x >= 0, alpha * x otherwise, with alpha (input 2)
// broadcast against x (up to 6 dimensions; TFLM stops at 4). float32, and
// int8 like TFLite: the zero-point corrected input is rescaled by
// input_scale / output_scale, or the product of the corrected input and
// alpha by input_scale * alpha_scale / output_scale (both in double), plus
// the output zero point, saturated. Bit-exact.
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "PRELU";

struct PreluOpData {
  micro_runtime::ArithmeticQuantParams common;  // first: PrepareArithmetic fills it
  int32_t identity_multiplier;
  int32_t alpha_multiplier;
  int identity_shift;
  int alpha_shift;
};

TfLiteStatus PreluPrepare(TfLiteContext* context, TfLiteNode* node) {
  micro_runtime::ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context, micro_runtime::PrepareArithmetic(kOp, context, node, sizeof(PreluOpData), &common));
  if (common == nullptr) return kTfLiteOk;  // float32
  const double input_scale = static_cast<double>(GetInput(context, node, 0)->params.scale);
  const double alpha_scale = static_cast<double>(GetInput(context, node, 1)->params.scale);
  const double output_scale = static_cast<double>(GetOutput(context, node, 0)->params.scale);
  PreluOpData* data = static_cast<PreluOpData*>(node->user_data);
  QuantizeMultiplier(input_scale / output_scale, &data->identity_multiplier, &data->identity_shift);
  QuantizeMultiplier(input_scale * alpha_scale / output_scale, &data->alpha_multiplier, &data->alpha_shift);
  return kTfLiteOk;
}

TfLiteStatus PreluInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalArithmetic<PreluOpData>(
      kOp, context, node,
      [](const PreluOpData& d, int32_t x, int32_t alpha) {
        // |x|, |alpha| <= 255: the product fits easily.
        return x >= 0 ? MultiplyByQuantizedMultiplier(x, d.identity_multiplier, d.identity_shift)
                      : MultiplyByQuantizedMultiplier(x * alpha, d.alpha_multiplier, d.alpha_shift);
      },
      [](float x, float alpha) { return x >= 0.0f ? x : x * alpha; });
}

}  // namespace

TfLiteRegistration Register_PRELU() { return {nullptr, nullptr, PreluPrepare, PreluInvoke}; }
