// TANH: y = tanh(x). float32, and int8 through a 256-entry
// table built in prepare (exactly rounded tanh of each input value; TFLite's
// fixed-point kernel is within +-1 of it). TFLite requires int8 output scale
// 1/128 and zero point 0.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "TANH";

float TanhOf(float x) { return tanhf(x); }

TfLiteStatus TanhPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareInt8TableOp(kOp, context, node, TanhOf, 128, 0);
}

TfLiteStatus TanhInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalInt8TableOp(kOp, context, node, TanhOf);
}

}  // namespace

TfLiteRegistration Register_TANH() { return {nullptr, nullptr, TanhPrepare, TanhInvoke}; }
