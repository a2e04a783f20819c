// MUL: y = act(x1 * x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8 with TFLite's scheme: the product of the zero-point
// corrected inputs is rescaled by input1_scale * input2_scale / output_scale
// with a fixed-point multiplier, so results are bit-exact.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "MUL";

struct MulOpData {
  int32_t input1_offset;  // -zero_point
  int32_t input2_offset;
  int32_t output_offset;  // +zero_point
  int32_t output_multiplier;
  int output_shift;
  int32_t activation_min;
  int32_t activation_max;
};

TfLiteFusedActivation Activation(const TfLiteNode* node) {
  const TfLiteArithmeticParams* params = static_cast<const TfLiteArithmeticParams*>(node->builtin_data);
  return params == nullptr ? kTfLiteActNone : params->activation;
}

TfLiteStatus MulPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckNodeIo(kOp, context, node, 2, 2, 1));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input1->type != kTfLiteFloat32 && input1->type != kTfLiteInt8) {
    return micro_runtime::ReportUnsupportedType(kOp, input1->type, "float32, int8");
  }
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameType(kOp, input1, input2));
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameType(kOp, input1, output));
  micro_runtime::BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, micro_runtime::PlanBroadcast(kOp, input1->dims, input2->dims,
                                                          output->dims, &plan));
  if (input1->type != kTfLiteInt8) return kTfLiteOk;

  if (!(input1->params.scale > 0.0f) || !(input2->params.scale > 0.0f) ||
      !(output->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 tensors need scales > 0, got %f, %f and output %f", kOp,
                static_cast<double>(input1->params.scale), static_cast<double>(input2->params.scale),
                static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) {
    node->user_data = micro_runtime::AllocateOpData(kOp, context, sizeof(MulOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  MulOpData* data = static_cast<MulOpData*>(node->user_data);
  data->input1_offset = -input1->params.zero_point;
  data->input2_offset = -input2->params.zero_point;
  data->output_offset = output->params.zero_point;
  QuantizeMultiplier(static_cast<double>(input1->params.scale) * static_cast<double>(input2->params.scale) /
                         static_cast<double>(output->params.scale),
                     &data->output_multiplier, &data->output_shift);
  return CalculateActivationRangeQuantized(Activation(node), output, &data->activation_min,
                                           &data->activation_max);
}

TfLiteStatus MulInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  micro_runtime::BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, micro_runtime::PlanBroadcast(kOp, input1->dims, input2->dims,
                                                          output->dims, &plan));
  if (input1->type == kTfLiteInt8) {
    if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
    const MulOpData& d = *static_cast<const MulOpData*>(node->user_data);
    const int8_t* a = input1->data.int8;
    const int8_t* b = input2->data.int8;
    int8_t* out = output->data.int8;
    micro_runtime::ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) {
      const int32_t product = (a[i1] + d.input1_offset) * (b[i2] + d.input2_offset);
      int32_t q = d.output_offset +
                  MultiplyByQuantizedMultiplier(product, d.output_multiplier, d.output_shift);
      q = q < d.activation_min ? d.activation_min : q;
      q = q > d.activation_max ? d.activation_max : q;
      out[o] = static_cast<int8_t>(q);
    });
    return kTfLiteOk;
  }
  float act_min;
  float act_max;
  CalculateActivationRange(Activation(node), &act_min, &act_max);
  const float* a = input1->data.f;
  const float* b = input2->data.f;
  float* out = output->data.f;
  micro_runtime::ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) {
    const float y = a[i1] * b[i2];
    out[o] = y < act_min ? act_min : (y > act_max ? act_max : y);
  });
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_MUL() { return {nullptr, nullptr, MulPrepare, MulInvoke}; }
