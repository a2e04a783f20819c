// ADD: y = act(x1 + x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8 with TFLite's fixed-point scheme: both inputs are shifted
// left by 20 bits, rescaled to a common scale of 2 * max(input scales), added,
// and the sum is rescaled to the output scale, so results are bit-exact.
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "ADD";
constexpr int kLeftShift = 20;

struct AddOpData {
  micro_runtime::ArithmeticInt8Params common;  // first: PrepareArithmetic fills it
  int32_t input1_multiplier;
  int32_t input2_multiplier;
  int32_t output_multiplier;
  int input1_shift;
  int input2_shift;
  int output_shift;
};

TfLiteStatus AddPrepare(TfLiteContext* context, TfLiteNode* node) {
  micro_runtime::ArithmeticInt8Params* common = nullptr;
  TF_LITE_ENSURE_OK(context,
                    micro_runtime::PrepareArithmetic(kOp, context, node, sizeof(AddOpData), &common));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  AddOpData* data = static_cast<AddOpData*>(node->user_data);
  const float max_scale =
      input1->params.scale > input2->params.scale ? input1->params.scale : input2->params.scale;
  const double twice_max_scale = 2.0 * static_cast<double>(max_scale);
  QuantizeMultiplier(static_cast<double>(input1->params.scale) / twice_max_scale,
                     &data->input1_multiplier, &data->input1_shift);
  QuantizeMultiplier(static_cast<double>(input2->params.scale) / twice_max_scale,
                     &data->input2_multiplier, &data->input2_shift);
  QuantizeMultiplier(twice_max_scale / (static_cast<double>(1 << kLeftShift) *
                                        static_cast<double>(output->params.scale)),
                     &data->output_multiplier, &data->output_shift);
  return kTfLiteOk;
}

TfLiteStatus AddInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalArithmetic<AddOpData>(
      kOp, context, node,
      [](const AddOpData& d, int32_t x1, int32_t x2) {
        const int32_t shifted1 = x1 * (1 << kLeftShift);
        const int32_t shifted2 = x2 * (1 << kLeftShift);
        const int32_t scaled1 = MultiplyByQuantizedMultiplier(shifted1, d.input1_multiplier, d.input1_shift);
        const int32_t scaled2 = MultiplyByQuantizedMultiplier(shifted2, d.input2_multiplier, d.input2_shift);
        return MultiplyByQuantizedMultiplier(scaled1 + scaled2, d.output_multiplier, d.output_shift);
      },
      [](float a, float b) { return a + b; });
}

}  // namespace

TfLiteRegistration Register_ADD() { return {nullptr, nullptr, AddPrepare, AddInvoke}; }
