// SQUARED_DIFFERENCE: y = (x1 - x2)^2 with numpy broadcasting (up to 6
// dimensions). float32, and int8 with TFLite's scheme: both inputs are
// shifted left by 7 bits and rescaled to a common scale of
// 2 * max(input scales), their difference is squared (at most 2^30, no
// overflow) and rescaled by common_scale^2 / (2^14 * output_scale). No fused
// activation; the result saturates to int8. Bit-exact with TFLite. int16
// (zero points 0; TFLM has it, LiteRT does not, and TFLite numbers it
// version 1) is the same with no left shift: the inputs already have 16 bits.
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SQUARED_DIFFERENCE";
constexpr int kLeftShiftInt8 = 7;

using SquaredDifferenceOpData = CommonScaleOpData;

TfLiteStatus SquaredDifferencePrepare(TfLiteContext* context, TfLiteNode* node) {
  ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareArithmetic(
                                 kOp, context, node, sizeof(SquaredDifferenceOpData), &common,
                                 kTypeFloat32 | kTypeInt8 | kTypeInt16));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  SquaredDifferenceOpData* data = static_cast<SquaredDifferenceOpData*>(node->user_data);
  const int left_shift = input1->type == kTfLiteInt16 ? 0 : kLeftShiftInt8;
  const double twice_max_scale = PrepareCommonScale(
      input1->params.scale, input2->params.scale, left_shift, &data->inputs);
  // TFLite forms 2^(2 left_shift) * output_scale in float (exact: a power of two).
  const float shifted_output_scale = static_cast<float>(1 << (2 * left_shift)) * output->params.scale;
  QuantizeMultiplier(twice_max_scale * twice_max_scale / static_cast<double>(shifted_output_scale),
                     &data->output_multiplier, &data->output_shift);
  return kTfLiteOk;
}

TfLiteStatus SquaredDifferenceInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalArithmetic<SquaredDifferenceOpData, true>(
      kOp, context, node,
      [](const SquaredDifferenceOpData& d, int32_t x1, int32_t x2) {
        // |x| <= 255 << 7 (int8) or 2^15 (int16) rescaled by <= 1/2: |diff| <= 2^15, diff^2 <= 2^30.
        const int32_t diff = d.inputs.Input1(x1) - d.inputs.Input2(x2);
        return MultiplyByQuantizedMultiplier(diff * diff, d.output_multiplier, d.output_shift);
      },
      [](float a, float b) {
        const float diff = a - b;
        return diff * diff;
      });
}

}  // namespace

TfLiteRegistration Register_SQUARED_DIFFERENCE() {
  return {nullptr, nullptr, SquaredDifferencePrepare, SquaredDifferenceInvoke};
}

}  // namespace micro_runtime
