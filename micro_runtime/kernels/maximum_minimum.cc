// MAXIMUM / MINIMUM: y = max(x1, x2) / min(x1, x2) with numpy broadcasting
// (up to 6 dimensions). float32, int8 and int16. Like TFLite the quantized
// kernels compare the stored values, which means something only when both
// inputs and the output share one scale and zero point (converters write
// them so); prepare refuses other quantizations instead of returning
// meaningless numbers (TFLM runs them). For float32 a NaN in x2 is returned
// as is and one in x1 loses to x2, as TFLite's `a > b ? a : b`.
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

TfLiteStatus PrepareMaxMin(const char* op, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareBinary(op, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                                          "float32, int8, int16"));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  if (input1->type == kTfLiteFloat32) return kTfLiteOk;
  const TfLiteTensor* others[] = {GetInput(context, node, 1), GetOutput(context, node, 0)};
  for (const TfLiteTensor* t : others) {
    if (t->params.scale != input1->params.scale || t->params.zero_point != input1->params.zero_point) {
      MicroPrintf("%s: quantized inputs and output must share one scale and zero point, got %f/%d, %f/%d and "
                  "output %f/%d",
                  op, static_cast<double>(input1->params.scale), static_cast<int>(input1->params.zero_point),
                  static_cast<double>(others[0]->params.scale), static_cast<int>(others[0]->params.zero_point),
                  static_cast<double>(others[1]->params.scale), static_cast<int>(others[1]->params.zero_point));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

template <typename Pick>
TfLiteStatus InvokeMaxMin(const char* op, TfLiteContext* context, TfLiteNode* node, Pick pick) {
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, PlanBroadcast(op, input1->dims, input2->dims, output->dims, &plan));
  switch (input1->type) {
    case kTfLiteFloat32:
      MapBroadcast<float>(plan, input1, input2, output, pick);
      break;
    case kTfLiteInt8:
      MapBroadcast<int8_t>(plan, input1, input2, output, pick);
      break;
    default:
      MapBroadcast<int16_t>(plan, input1, input2, output, pick);
      break;
  }
  return kTfLiteOk;
}

TfLiteStatus MaximumPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareMaxMin("MAXIMUM", context, node);
}
TfLiteStatus MaximumInvoke(TfLiteContext* context, TfLiteNode* node) {
  return InvokeMaxMin("MAXIMUM", context, node, [](auto a, auto b) { return a > b ? a : b; });
}
TfLiteStatus MinimumPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareMaxMin("MINIMUM", context, node);
}
TfLiteStatus MinimumInvoke(TfLiteContext* context, TfLiteNode* node) {
  return InvokeMaxMin("MINIMUM", context, node, [](auto a, auto b) { return a < b ? a : b; });
}

}  // namespace

TfLiteRegistration Register_MAXIMUM() { return {nullptr, nullptr, MaximumPrepare, MaximumInvoke}; }
TfLiteRegistration Register_MINIMUM() { return {nullptr, nullptr, MinimumPrepare, MinimumInvoke}; }

}  // namespace micro_runtime
