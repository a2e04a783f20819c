// SUB: y = act(x1 - x2) with numpy broadcasting (up to 6 dimensions).
// float32, and int8/int16 with TFLite's fixed-point scheme (ADD's): both
// inputs are shifted left (20 bits for int8, 15 for int16), rescaled to a
// common scale of 2 * max(input scales), subtracted, and the difference is
// rescaled to the output scale; bit-exact. int16 uses this general path
// whatever pot_scale_int16 says, like TFLM (zero points must be 0). Prepare
// and invoke are shared with ADD (add_sub.h).
#include "micro_runtime/kernels/add_sub.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr char kOp[] = "SUB";

TfLiteStatus SubPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareAddSub(kOp, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16);
}

}  // namespace

TfLiteRegistration Register_SUB() { return {nullptr, nullptr, SubPrepare, EvalAddSub<kOp, true>}; }

}  // namespace micro_runtime
