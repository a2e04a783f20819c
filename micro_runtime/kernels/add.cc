// ADD: y = act(x1 + x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8/int16 with TFLite's fixed-point scheme: both inputs are
// shifted left (20 bits for int8, 15 for int16), rescaled to a common scale of
// 2 * max(input scales), added, and the sum is rescaled to the output scale,
// so results are bit-exact. int16 (zero points 0) takes this general path
// whatever pot_scale_int16 says, as TFLM does.
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "ADD";

using AddOpData = micro_runtime::CommonScaleOpData;

TfLiteStatus AddPrepare(TfLiteContext* context, TfLiteNode* node) {
  using micro_runtime::kTypeFloat32;
  using micro_runtime::kTypeInt16;
  using micro_runtime::kTypeInt8;
  return micro_runtime::PrepareAddSub(kOp, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16);
}

TfLiteStatus AddInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalArithmetic<AddOpData, true>(
      kOp, context, node,
      [](const AddOpData& d, int32_t x1, int32_t x2) {
        return MultiplyByQuantizedMultiplier(d.inputs.Input1(x1) + d.inputs.Input2(x2),
                                             d.output_multiplier, d.output_shift);
      },
      [](float a, float b) { return a + b; });
}

}  // namespace

TfLiteRegistration Register_ADD() { return {nullptr, nullptr, AddPrepare, AddInvoke}; }
