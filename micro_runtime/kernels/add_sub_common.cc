#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

TfLiteStatus PrepareAddSub(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types) {
  ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareArithmetic(op, context, node, sizeof(CommonScaleOpData), &common, types));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  CommonScaleOpData* data = static_cast<CommonScaleOpData*>(node->user_data);
  const int left_shift = output->type == kTfLiteInt16 ? 15 : 20;
  const double output_ratio =
      PrepareCommonScale(input1->params.scale, input2->params.scale, left_shift, &data->inputs) /
      (static_cast<double>(1 << left_shift) * static_cast<double>(output->params.scale));
  if (!(output_ratio < 1.0)) {
    MicroPrintf("%s: output scale %f is too small for the input scales %f and %f", op,
                static_cast<double>(output->params.scale), static_cast<double>(input1->params.scale),
                static_cast<double>(input2->params.scale));
    return kTfLiteError;
  }
  QuantizeMultiplier(output_ratio, &data->output_multiplier, &data->output_shift);
  return kTfLiteOk;
}

}  // namespace micro_runtime
