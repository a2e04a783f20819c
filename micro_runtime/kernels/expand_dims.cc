// EXPAND_DIMS: inserts an axis of size 1 at the constant int32 `axis`
// (input 1; negative counts from the end of the output's rank, as TFLite:
// -1 appends). The output shape is static in the model; prepare checks it is
// exactly the input's shape with that axis, and invoke moves the bytes
// (EvalCopy, like RESHAPE). Any type (TFLM: float32, int8, int16).
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "EXPAND_DIMS";
constexpr int kMaxOutputDims = 8;

TfLiteStatus ExpandDimsPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareCopy(kOp, context, node, 2, 2));
  const TfLiteTensor* input = GetInput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "input", input, kMaxOutputDims - 1));
  const int32_t* axis_data = ConstantInt32Data(kOp, "axis", GetInput(context, node, 1), 1);
  if (axis_data == nullptr) return kTfLiteError;
  const int rank = input->dims->size;
  const int32_t axis = axis_data[0] < 0 ? axis_data[0] + rank + 1 : axis_data[0];
  if (axis < 0 || axis > rank) {
    MicroPrintf("%s: axis %d is outside [%d, %d] for a %d-D input", kOp, static_cast<int>(axis_data[0]), -rank - 1,
                rank, rank);
    return kTfLiteError;
  }
  int32_t expected[kMaxOutputDims] = {};
  for (int i = 0, in = 0; i <= rank; ++i) expected[i] = i == axis ? 1 : input->dims->data[in++];
  return CheckOutputShape(kOp, GetOutput(context, node, 0), expected, rank + 1);
}

}  // namespace

TfLiteRegistration Register_EXPAND_DIMS() { return {nullptr, nullptr, ExpandDimsPrepare, EvalCopy}; }

}  // namespace micro_runtime
