// LOGISTIC: y = 1 / (1 + exp(-x)). float32, and int8 through a 256-entry
// table built in prepare (exactly rounded sigmoid of each input value; TFLite's
// fixed-point kernel is within +-1 of it). TFLite requires int8 output scale
// 1/256 and zero point -128.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "LOGISTIC";

float Sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

TfLiteStatus LogisticPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) {
    return micro_runtime::ReportUnsupportedType(kOp, input->type, "float32, int8");
  }
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameType(kOp, input, output));
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameShape(kOp, input, output));
  if (input->type != kTfLiteInt8) return kTfLiteOk;

  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 input scale must be > 0, got %f", kOp, static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  if (fabsf(output->params.scale - 1.0f / 256.0f) > 1e-8f || output->params.zero_point != -128) {
    MicroPrintf("%s: int8 output must have scale 1/256 and zero point -128, got scale %f zero point %d",
                kOp, static_cast<double>(output->params.scale),
                static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) node->user_data = micro_runtime::AllocateOpData(kOp, context, 256);
  if (node->user_data == nullptr) return kTfLiteError;
  micro_runtime::BuildInt8Table(input->params.scale, input->params.zero_point, output->params.scale,
                                output->params.zero_point, Sigmoid,
                                static_cast<int8_t*>(node->user_data));
  return kTfLiteOk;
}

TfLiteStatus LogisticInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  if (input->type == kTfLiteInt8) {
    if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
    micro_runtime::ApplyInt8Table(static_cast<const int8_t*>(node->user_data), input->data.int8,
                                  output->data.int8, count);
  } else {
    for (int32_t i = 0; i < count; ++i) output->data.f[i] = Sigmoid(input->data.f[i]);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_LOGISTIC() {
  return {nullptr, nullptr, LogisticPrepare, LogisticInvoke};
}
