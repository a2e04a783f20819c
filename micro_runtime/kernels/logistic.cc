// LOGISTIC: y = 1 / (1 + exp(-x)). float32, and int8 through a 256-entry
// table built in prepare (exactly rounded sigmoid of each input value; TFLite's
// fixed-point kernel is within +-1 of it). TFLite requires int8 output scale
// 1/256 and zero point -128.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "LOGISTIC";

float Sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

TfLiteStatus LogisticPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareInt8TableOp(kOp, context, node, Sigmoid, 256, -128);
}

TfLiteStatus LogisticInvoke(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::EvalInt8TableOp(kOp, context, node, Sigmoid);
}

}  // namespace

TfLiteRegistration Register_LOGISTIC() { return {nullptr, nullptr, LogisticPrepare, LogisticInvoke}; }
