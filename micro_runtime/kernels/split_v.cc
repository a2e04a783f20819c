// SPLIT_V: inputs (input, size_splits, axis); the input cut along the axis (a
// constant int32 scalar, negative counts from the end) into num_splits
// outputs of size_splits[i] elements (a constant int32 vector; one entry may
// be -1: what the others leave). Pure data movement by element size:
// float32, int8, int16, int32, int64, bool; int8 and int16 outputs share the
// input's scale and zero point. Up to 6 dimensions.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SPLIT_V";

TfLiteStatus SplitVPrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitVParams*>(node->builtin_data);
  if (params == nullptr || params->num_splits < 1 || params->num_splits > 255) {
    MicroPrintf("%s: num_splits must be in [1, 255], got %d", kOp,
                static_cast<int>(params == nullptr ? 0 : params->num_splits));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 3, 3, params->num_splits));
  const int32_t* sizes =
      ConstantInt32Data(kOp, "size_splits", GetInput(context, node, 1), params->num_splits);
  const int32_t* axis = ConstantInt32Data(kOp, "axis", GetInput(context, node, 2), 1);
  if (sizes == nullptr || axis == nullptr) return kTfLiteError;
  return PrepareSplit(kOp, context, node, 0, axis[0], params->num_splits, sizes);
}

TfLiteStatus SplitVInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalSplit(kOp, context, node, 0);
}

}  // namespace

TfLiteRegistration Register_SPLIT_V() { return {nullptr, nullptr, SplitVPrepare, SplitVInvoke}; }

}  // namespace micro_runtime
