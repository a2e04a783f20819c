// SHAPE: the input's dimensions as a 1-D int32 output (TFLM's only output
// type; ShapeOptions' out_type is not read: the output tensor's type is what
// is checked). The input may have any type and rank.
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SHAPE";

TfLiteStatus ShapePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (output->type != kTfLiteInt32) return ReportUnsupportedType(kOp, output->type, "int32", "output");
  const int32_t expected[] = {GetInput(context, node, 0)->dims->size};
  return CheckOutputShape(kOp, output, expected, 1);
}

TfLiteStatus ShapeInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteIntArray* dims = GetInput(context, node, 0)->dims;
  int32_t* out = GetOutput(context, node, 0)->data.i32;
  for (int i = 0; i < dims->size; ++i) out[i] = dims->data[i];
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_SHAPE() { return {nullptr, nullptr, ShapePrepare, ShapeInvoke}; }

}  // namespace micro_runtime
