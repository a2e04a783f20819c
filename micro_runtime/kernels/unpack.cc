// UNPACK: the input split along `axis` (negative counts from the end of the
// input's rank) into `num` outputs without that dimension. Pure data movement
// by element size: float32, int8, int16, int32, int64, bool; int8 and int16
// outputs share the input's scale and zero point. Up to 6 input dimensions.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "UNPACK";

TfLiteStatus UnpackPrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  if (params == nullptr) {
    MicroPrintf("%s: the operator has no UnpackOptions (num, axis)", kOp);
    return kTfLiteError;
  }
  return PrepareStacking(kOp, context, node, false, params->axis, params->num);
}

TfLiteStatus UnpackInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalStacking(kOp, context, node, false);
}

}  // namespace

TfLiteRegistration Register_UNPACK() { return {nullptr, nullptr, UnpackPrepare, UnpackInvoke}; }

}  // namespace micro_runtime
