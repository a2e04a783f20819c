// MUL: y = act(x1 * x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8/int16 with TFLite's scheme: the product of the
// zero-point corrected inputs (an int16 product fits int32) is rescaled by
// input1_scale * input2_scale / output_scale with a fixed-point multiplier,
// so results are bit-exact. int16 zero points are 0, as TFLM requires.
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "MUL";

struct MulOpData {
  ArithmeticQuantParams common;  // first: PrepareArithmetic fills it
  int32_t output_multiplier;
  int output_shift;
};

TfLiteStatus MulPrepare(TfLiteContext* context, TfLiteNode* node) {
  ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context,
                    PrepareArithmetic(kOp, context, node, sizeof(MulOpData), &common,
                                                     kTypeFloat32 | kTypeInt8 |
                                                         kTypeInt16));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  MulOpData* data = static_cast<MulOpData*>(node->user_data);
  QuantizeMultiplier(static_cast<double>(input1->params.scale) * static_cast<double>(input2->params.scale) /
                         static_cast<double>(output->params.scale),
                     &data->output_multiplier, &data->output_shift);
  return kTfLiteOk;
}

TfLiteStatus MulInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalArithmetic<MulOpData, true>(
      kOp, context, node,
      [](const MulOpData& d, int32_t x1, int32_t x2) {
        return MultiplyByQuantizedMultiplier(x1 * x2, d.output_multiplier, d.output_shift);
      },
      [](float a, float b) { return a * b; });
}

}  // namespace

TfLiteRegistration Register_MUL() { return {nullptr, nullptr, MulPrepare, MulInvoke}; }

}  // namespace micro_runtime
