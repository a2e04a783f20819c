// RELU: y = max(0, x); RELU6: y = min(max(0, x), 6). float32 and int8. For
// int8 the input is requantized to the output's scale/zero point (a no-op
// multiplier when they are equal) and clamped to the quantized 0 / 6, like
// TFLite's ReluQuantized.
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

struct ReluOpData {
  int32_t multiplier;
  int shift;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t min;  // quantized 0
  int32_t max;  // quantized 6, or 127 for RELU
};

TfLiteStatus ReluPrepare(const char* op, float max_value, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckNodeIo(op, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) {
    return micro_runtime::ReportUnsupportedType(op, input->type, "float32, int8");
  }
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameType(op, input, output));
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameShape(op, input, output));
  if (input->type != kTfLiteInt8) return kTfLiteOk;

  if (!(input->params.scale > 0.0f) || !(output->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 input and output scales must be > 0, got %f and %f", op,
                static_cast<double>(input->params.scale), static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) {
    node->user_data = micro_runtime::AllocateOpData(op, context, sizeof(ReluOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  ReluOpData* data = static_cast<ReluOpData*>(node->user_data);
  QuantizeMultiplier(static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
                     &data->multiplier, &data->shift);
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  data->min = output->params.zero_point > -128 ? output->params.zero_point : -128;
  data->max = 127;
  const float steps = max_value / output->params.scale;
  // Beyond 255 steps the clamp is the int8 maximum anyway; checking first
  // keeps a tiny scale from overflowing the int conversion.
  if (max_value > 0.0f && steps < 1000.0f) {
    const int32_t six = output->params.zero_point + micro_runtime::RoundToInt32(steps);
    data->max = six < 127 ? six : 127;
  }
  return kTfLiteOk;
}

TfLiteStatus ReluInvoke(const char* op, float max_value, TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  if (input->type == kTfLiteInt8) {
    if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(op);
    const ReluOpData* data = static_cast<const ReluOpData*>(node->user_data);
    for (int32_t i = 0; i < count; ++i) {
      int32_t q = data->output_zero_point +
                  MultiplyByQuantizedMultiplier(input->data.int8[i] - data->input_zero_point,
                                                data->multiplier, data->shift);
      q = q < data->min ? data->min : q;
      q = q > data->max ? data->max : q;
      output->data.int8[i] = static_cast<int8_t>(q);
    }
    return kTfLiteOk;
  }
  for (int32_t i = 0; i < count; ++i) {
    float y = input->data.f[i] > 0.0f ? input->data.f[i] : 0.0f;
    if (max_value > 0.0f && y > max_value) y = max_value;
    output->data.f[i] = y;
  }
  return kTfLiteOk;
}

TfLiteStatus Relu6Prepare(TfLiteContext* context, TfLiteNode* node) {
  return ReluPrepare("RELU6", 6.0f, context, node);
}
TfLiteStatus Relu6Invoke(TfLiteContext* context, TfLiteNode* node) {
  return ReluInvoke("RELU6", 6.0f, context, node);
}
TfLiteStatus ReluOnlyPrepare(TfLiteContext* context, TfLiteNode* node) {
  return ReluPrepare("RELU", 0.0f, context, node);
}
TfLiteStatus ReluOnlyInvoke(TfLiteContext* context, TfLiteNode* node) {
  return ReluInvoke("RELU", 0.0f, context, node);
}

}  // namespace

TfLiteRegistration Register_RELU() { return {nullptr, nullptr, ReluOnlyPrepare, ReluOnlyInvoke}; }
TfLiteRegistration Register_RELU6() { return {nullptr, nullptr, Relu6Prepare, Relu6Invoke}; }
