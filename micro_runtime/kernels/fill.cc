// FILL: inputs (dims, value); an output of shape dims (a constant int32
// vector, up to 6 entries) with every element the scalar value. float32,
// int8, int16, int32, int64, bool; an int8/int16 value shares the output's
// scale and zero point (no requantization).
#include <string.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "FILL";

TfLiteStatus FillPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 2, 2, 1));
  int32_t rank = 0;
  const int32_t* dims = ConstantInt32Data(kOp, "dims", GetInput(context, node, 0), -1, &rank);
  if (dims == nullptr) return kTfLiteError;
  if (rank > kMaxShapeDims) {
    MicroPrintf("%s: dims has %d entries; supported up to %d", kOp, static_cast<int>(rank),
                kMaxShapeDims);
    return kTfLiteError;
  }
  const TfLiteTensor* value = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(kOp, value));
  TF_LITE_ENSURE_OK(context, CheckSameType(kOp, value, output));
  if (ElementCount(value->dims) != 1) {
    MicroPrintf("%s: value has %d elements, expected a scalar", kOp, static_cast<int>(ElementCount(value->dims)));
    return kTfLiteError;
  }
  if ((value->type == kTfLiteInt8 || value->type == kTfLiteInt16) &&
      (value->params.scale != output->params.scale || value->params.zero_point != output->params.zero_point)) {
    MicroPrintf("%s: value scale %f, zero point %d differ from the output's %f, %d (no requantization)", kOp,
                static_cast<double>(value->params.scale), static_cast<int>(value->params.zero_point),
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "output", output, kMaxShapeDims));
  return CheckOutputShape(kOp, output, dims, rank);
}

TfLiteStatus FillInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* value = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const size_t size = TypeSize(output->type);
  const int32_t count = ElementCount(output->dims);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  for (int32_t i = 0; i < count; ++i) memcpy(out + static_cast<size_t>(i) * size, value->data.raw_const, size);
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_FILL() { return {nullptr, nullptr, FillPrepare, FillInvoke}; }

}  // namespace micro_runtime
