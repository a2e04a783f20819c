// SQUEEZE: removes axes of size 1, the ones in squeeze_dims (negative counts
// from the end) or, when none are given, every one. The output shape is
// static in the model; prepare checks it is exactly the input's shape without
// those axes, and invoke moves the bytes (EvalCopy, like RESHAPE). Any type.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SQUEEZE";
constexpr int kMaxSqueezeDims = 8;  // TFLite's limit, and TfLiteSqueezeParams' capacity

TfLiteStatus SqueezePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareCopy(kOp, context, node, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "input", input, kMaxSqueezeDims));
  const int rank = input->dims->size;
  const auto* params = static_cast<const TfLiteSqueezeParams*>(node->builtin_data);
  const int count = params != nullptr ? static_cast<int>(params->num_squeeze_dims) : 0;
  bool squeeze[kMaxSqueezeDims] = {};
  for (int i = 0; i < rank; ++i) squeeze[i] = count == 0 && input->dims->data[i] == 1;
  for (int i = 0; i < count && i < kMaxSqueezeDims; ++i) {
    const int32_t given = params->squeeze_dims[i];
    const int32_t axis = given < 0 ? given + rank : given;
    if (axis < 0 || axis >= rank || input->dims->data[axis] != 1) {
      MicroPrintf("%s: squeeze_dims entry %d is not an axis of size 1 of the %d-D input", kOp,
                  static_cast<int>(given), rank);
      return kTfLiteError;
    }
    squeeze[axis] = true;
  }
  int32_t expected[kMaxSqueezeDims] = {};
  int out_rank = 0;
  for (int i = 0; i < rank; ++i) {
    if (!squeeze[i]) expected[out_rank++] = input->dims->data[i];
  }
  return CheckOutputShape(kOp, GetOutput(context, node, 0), expected, out_rank);
}

}  // namespace

TfLiteRegistration Register_SQUEEZE() { return {nullptr, nullptr, SqueezePrepare, EvalCopy}; }

}  // namespace micro_runtime
