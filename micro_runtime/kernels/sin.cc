// SIN: y = sin(x), float32 (libm sinf).
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

TfLiteStatus SinPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareFloatUnary("SIN", context, node);
}

TfLiteStatus SinInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) output->data.f[i] = sinf(input->data.f[i]);
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_SIN() { return {nullptr, nullptr, SinPrepare, SinInvoke}; }
