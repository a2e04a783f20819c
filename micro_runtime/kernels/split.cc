// SPLIT: inputs (axis, input); the input cut along the axis (a constant
// int32 scalar, negative counts from the end) into num_splits equal outputs.
// Pure data movement by element size: float32, int8, int16, int32, int64,
// bool; int8 and int16 outputs share the input's scale and zero point. Up to
// 6 dimensions.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SPLIT";

TfLiteStatus SplitPrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitParams*>(node->builtin_data);
  if (params == nullptr || params->num_splits < 1 || params->num_splits > 255) {
    MicroPrintf("%s: num_splits must be in [1, 255], got %d", kOp,
                static_cast<int>(params == nullptr ? 0 : params->num_splits));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 2, 2, params->num_splits));
  const int32_t* axis = ConstantInt32Data(kOp, "axis", GetInput(context, node, 0), 1);
  if (axis == nullptr) return kTfLiteError;
  return PrepareSplit(kOp, context, node, 1, axis[0], params->num_splits, nullptr);
}

TfLiteStatus SplitInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalSplit(kOp, context, node, 1);
}

}  // namespace

TfLiteRegistration Register_SPLIT() { return {nullptr, nullptr, SplitPrepare, SplitInvoke}; }

}  // namespace micro_runtime
