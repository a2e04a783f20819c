// TANH: y = tanh(x). float32; int8 through a 256-entry table built in
// prepare (exactly rounded tanh of each input value; TFLite's fixed-point
// kernel is within +-1 of it; TFLite requires int8 output scale 1/128 and
// zero point 0); int16 (zero points 0, output scale 2^-15) with TFLM's table
// interpolation, bit-exact (sigmoid_int16.h).
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/sigmoid_int16.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "TANH";

float TanhOf(float x) { return tanhf(x); }

TfLiteStatus TanhPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareSigmoidOp(kOp, true, TanhOf, 128, 0, context, node);
}

TfLiteStatus TanhInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalSigmoidOp(kOp, true, TanhOf, context, node);
}

}  // namespace

TfLiteRegistration Register_TANH() { return {nullptr, nullptr, TanhPrepare, TanhInvoke}; }

}  // namespace micro_runtime
