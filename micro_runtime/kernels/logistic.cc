// LOGISTIC: y = 1 / (1 + exp(-x)). float32; int8 through a 256-entry table
// built in prepare (exactly rounded sigmoid of each input value; TFLite's
// fixed-point kernel is within +-1 of it; TFLite requires int8 output scale
// 1/256 and zero point -128); int16 (zero points 0, output scale 2^-15) with
// TFLM's table interpolation, bit-exact (sigmoid_int16.h).
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/sigmoid_int16.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "LOGISTIC";

float Sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

TfLiteStatus LogisticPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareSigmoidOp(kOp, false, Sigmoid, 256, -128, context, node);
}

TfLiteStatus LogisticInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalSigmoidOp(kOp, false, Sigmoid, context, node);
}

}  // namespace

TfLiteRegistration Register_LOGISTIC() { return {nullptr, nullptr, LogisticPrepare, LogisticInvoke}; }

}  // namespace micro_runtime
