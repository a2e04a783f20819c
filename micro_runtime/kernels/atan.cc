// Custom op "Atan": y = atan(x), float32, any shape. This is the example op
// of the TFLite custom-operator documentation; applications register it with
// resolver.AddCustom("Atan", Register_ATAN()). It takes no custom options.
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

TfLiteStatus AtanPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareFloatUnary("Atan", context, node);
}

TfLiteStatus AtanInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalFloatUnary(context, node, atanf);
}

}  // namespace

TfLiteRegistration Register_ATAN() { return {nullptr, nullptr, AtanPrepare, AtanInvoke}; }

}  // namespace micro_runtime
