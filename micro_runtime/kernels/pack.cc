// PACK: values_count inputs of one shape stacked along a new `axis` of the
// output (negative counts from the end of the output's rank). Pure data
// movement by element size: float32, int8, int16, int32, int64, bool; int8
// and int16 inputs share the output's scale and zero point (TFLite does not
// requantize a pack). Up to 6 output dimensions.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "PACK";

TfLiteStatus PackPrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  if (params == nullptr) {
    MicroPrintf("%s: the operator has no PackOptions (values_count, axis)", kOp);
    return kTfLiteError;
  }
  return PrepareStacking(kOp, context, node, true, params->axis, params->values_count);
}

TfLiteStatus PackInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalStacking(kOp, context, node, true);
}

}  // namespace

TfLiteRegistration Register_PACK() { return {nullptr, nullptr, PackPrepare, PackInvoke}; }

}  // namespace micro_runtime
