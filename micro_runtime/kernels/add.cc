// ADD: y = act(x1 + x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8/int16 with TFLite's fixed-point scheme: both inputs are
// shifted left (20 bits for int8, 15 for int16), rescaled to a common scale of
// 2 * max(input scales), added, and the sum is rescaled to the output scale,
// so results are bit-exact. int16 (zero points 0) takes this general path
// whatever pot_scale_int16 says, as TFLM does. Prepare and invoke are
// shared with SUB (add_sub.h).
#include "micro_runtime/kernels/add_sub.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr char kOp[] = "ADD";

TfLiteStatus AddPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareAddSub(kOp, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16);
}

}  // namespace

TfLiteRegistration Register_ADD() { return {nullptr, nullptr, AddPrepare, EvalAddSub<kOp, false>}; }

}  // namespace micro_runtime
