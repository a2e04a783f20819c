// SIN: y = sin(x), float32 (libm sinf).
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

TfLiteStatus SinPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareFloatUnary("SIN", context, node);
}

TfLiteStatus SinInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalFloatUnary(context, node, sinf);
}

}  // namespace

TfLiteRegistration Register_SIN() { return {nullptr, nullptr, SinPrepare, SinInvoke}; }
