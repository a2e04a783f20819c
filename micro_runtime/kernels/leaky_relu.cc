// LEAKY_RELU: y = x for x > 0, alpha * x otherwise. float32, and int8/int16
// like TFLite: the zero-point corrected input is rescaled to the output by
// input_scale / output_scale (x >= 0) or input_scale * alpha / output_scale
// (x < 0), both ratios computed in float, plus the output zero point,
// saturated. A negative alpha rescales by |ratio| and negates, as TFLite
// does. int16 needs zero points 0.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "LEAKY_RELU";

struct LeakyReluOpData {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t identity_multiplier;
  int32_t alpha_multiplier;  // of |input_scale * alpha / output_scale|
  int identity_shift;
  int alpha_shift;
  bool alpha_negative;
};

float Alpha(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteLeakyReluParams*>(node->builtin_data);
  return params == nullptr ? 0.0f : params->alpha;  // the schema's default
}

TfLiteStatus LeakyReluPrepare(TfLiteContext* context, TfLiteNode* node) {
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(kOp, context, node,
                                                                  kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                                                  "float32, int8, int16",
                                                                  sizeof(LeakyReluOpData), &op_data));
  if (op_data == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  LeakyReluOpData* data = static_cast<LeakyReluOpData*>(op_data);
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  const float alpha_ratio = input->params.scale * Alpha(node) / output->params.scale;
  data->alpha_negative = alpha_ratio < 0.0f;
  QuantizeMultiplier(static_cast<double>(data->alpha_negative ? -alpha_ratio : alpha_ratio),
                     &data->alpha_multiplier, &data->alpha_shift);
  QuantizeMultiplier(static_cast<double>(input->params.scale / output->params.scale),
                     &data->identity_multiplier, &data->identity_shift);
  return kTfLiteOk;
}

TfLiteStatus LeakyReluInvoke(TfLiteContext* context, TfLiteNode* node) {
  const float alpha = Alpha(node);
  return EvalQuantizedUnary<LeakyReluOpData, true>(
      kOp, context, node, [alpha](float x) { return x > 0.0f ? x : x * alpha; },
      [](const LeakyReluOpData& d, int32_t q) {
        const int32_t x = q - d.input_zero_point;
        if (x >= 0) return MultiplyByQuantizedMultiplier(x, d.identity_multiplier, d.identity_shift) + d.output_zero_point;
        const int32_t y = MultiplyByQuantizedMultiplier(x, d.alpha_multiplier, d.alpha_shift);
        return (d.alpha_negative ? -y : y) + d.output_zero_point;
      });
}

}  // namespace

TfLiteRegistration Register_LEAKY_RELU() { return {nullptr, nullptr, LeakyReluPrepare, LeakyReluInvoke}; }

}  // namespace micro_runtime
