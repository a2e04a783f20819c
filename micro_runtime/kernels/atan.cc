// Custom op "Atan": y = atan(x), float32, any shape. This is the example op
// of the TFLite custom-operator documentation; applications register it with
// resolver.AddCustom("Atan", Register_ATAN()). It takes no custom options.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

TfLiteStatus AtanPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareFloatUnary("Atan", context, node);
}

TfLiteStatus AtanInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalFloatUnary(context, node, atanf);
}

}  // namespace

TfLiteRegistration Register_ATAN() { return {nullptr, nullptr, AtanPrepare, AtanInvoke}; }
