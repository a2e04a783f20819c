// RESHAPE: the output's shape is static in the model, so the op only checks
// that the element counts (and, when given, the requested shape) agree and
// moves the bytes (EvalCopy, shared with SQUEEZE and EXPAND_DIMS). The memory
// planner may give input and output the same buffer; then nothing is copied.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "RESHAPE";

// Checks a requested shape (from the shape tensor or the options) against the
// output shape; one entry may be -1 (inferred from the element count).
TfLiteStatus CheckRequestedShape(const int32_t* shape, int32_t rank, const TfLiteTensor* output) {
  bool matches = rank == output->dims->size;
  for (int32_t i = 0; matches && i < rank; ++i) {
    matches = shape[i] == -1 || shape[i] == output->dims->data[i];
  }
  if (!matches) {
    char requested[48];
    char actual[48];
    FormatDims(shape, static_cast<int>(rank), requested, sizeof(requested));
    FormatDims(output->dims->data, output->dims->size, actual, sizeof(actual));
    MicroPrintf("%s: requested shape %s does not match the output tensor's shape %s; "
                "re-export the model with static shapes",
                kOp, requested, actual);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ReshapePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareCopy(kOp, context, node, 1, 2));
  const TfLiteTensor* output = GetOutput(context, node, 0);

  // The requested shape: a constant int32 shape tensor if present, else the
  // options. A non-constant shape tensor only matters at run time; the
  // static output shape wins.
  const TfLiteTensor* shape = NumInputs(node) == 2 ? GetInput(context, node, 1) : nullptr;
  if (shape != nullptr && shape->is_constant && shape->data.raw_const != nullptr) {
    if (shape->type != kTfLiteInt32) {
      return ReportUnsupportedType(kOp, shape->type, "int32", "shape tensor");
    }
    const int32_t rank = ElementCount(shape->dims);
    return CheckRequestedShape(shape->data.i32, rank, output);
  }
  const TfLiteReshapeParams* params = static_cast<const TfLiteReshapeParams*>(node->builtin_data);
  if (shape == nullptr && params != nullptr && params->num_dimensions > 0) {
    return CheckRequestedShape(params->shape, params->num_dimensions, output);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_RESHAPE() { return {nullptr, nullptr, ReshapePrepare, EvalCopy}; }

}  // namespace micro_runtime
