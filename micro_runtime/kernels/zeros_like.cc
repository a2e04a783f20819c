// ZEROS_LIKE: an output of the input's type and shape, every element zero
// (stored 0: 0.0f, false; a quantized tensor's stored 0, not its zero point).
// float32, int8, int16, int32, int64, bool (TFLM: float32, int32, int64).
#include <string.h>

#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "ZEROS_LIKE";

TfLiteStatus ZerosLikePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareDataMovement(kOp, context, node, 1, kMaxShapeDims));
  return CheckSameShape(kOp, GetInput(context, node, 0), GetOutput(context, node, 0));
}

TfLiteStatus ZerosLikeInvoke(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = GetOutput(context, node, 0);
  const size_t bytes = static_cast<size_t>(ElementCount(output->dims)) * TypeSize(output->type);
  if (bytes > 0) memset(output->data.raw, 0, bytes);
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_ZEROS_LIKE() { return {nullptr, nullptr, ZerosLikePrepare, ZerosLikeInvoke}; }

}  // namespace micro_runtime
