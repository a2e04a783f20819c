// CONCATENATION: the inputs joined along `axis` (negative counts from the
// end). Every input has the output's rank and type and its dimensions except
// along the axis, whose sizes add up to the output's. Pure data movement, by
// element size: float32, int8, int16, int32, int64, bool. Like TFLM (and
// LiteRT), int8 inputs must share the output's scale and zero point (no
// requantization: converters write them equal) and int16 tensors need zero
// point 0; the fused activation must be NONE. Up to 6 dimensions.
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "CONCATENATION";

struct ConcatenationOpData {
  int32_t outer;        // product of the dimensions before the axis
  int32_t inner_bytes;  // bytes of one step along the axis
};

TfLiteStatus CheckInputQuantization(int i, const TfLiteTensor* input, const TfLiteTensor* output) {
  if (input->type == kTfLiteInt8 &&
      (input->params.scale != output->params.scale || input->params.zero_point != output->params.zero_point)) {
    MicroPrintf("%s: int8 input %d has scale %f, zero point %d but the output scale %f, zero point %d; TFLite does "
                "not requantize int8 concatenations (re-convert so that they share one quantization)",
                kOp, i, static_cast<double>(input->params.scale), static_cast<int>(input->params.zero_point),
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  if (input->type == kTfLiteInt16 && input->params.zero_point != 0) {
    MicroPrintf("%s: int16 %s %d needs zero point 0, got %d", kOp, i < 0 ? "output" : "input", i < 0 ? 0 : i,
                static_cast<int>(input->params.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ConcatenationPrepare(TfLiteContext* context, TfLiteNode* node) {
  const int num_inputs = node->inputs == nullptr ? 0 : NumInputs(node);
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, num_inputs > 0 ? num_inputs : 1,
                                                        num_inputs > 0 ? num_inputs : 1, 1));
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  if (params == nullptr) {
    MicroPrintf("%s: the operator has no ConcatenationOptions (axis)", kOp);
    return kTfLiteError;
  }
  if (params->activation != kTfLiteActNone) {
    MicroPrintf("%s: fused activation %d is not supported (only NONE, like TFLite)", kOp,
                static_cast<int>(params->activation));
    return kTfLiteError;
  }
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(kOp, output));
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "output", output, kMaxShapeDims));
  TF_LITE_ENSURE_OK(context, CheckInputQuantization(-1, output, output));
  const int rank = output->dims->size;
  const int axis = params->axis < 0 ? params->axis + rank : params->axis;
  if (axis < 0 || axis >= rank) {
    MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D output", kOp, static_cast<int>(params->axis), -rank, rank,
                rank);
    return kTfLiteError;
  }
  int64_t axis_sum = 0;
  for (int i = 0; i < num_inputs; ++i) {
    const TfLiteTensor* input = GetInput(context, node, i);
    TF_LITE_ENSURE_OK(context, CheckSameType(kOp, input, output));
    TF_LITE_ENSURE_OK(context, CheckInputQuantization(i, input, output));
    bool fits = input->dims->size == rank;
    for (int d = 0; fits && d < rank; ++d) {
      fits = input->dims->data[d] >= 0 && (d == axis || input->dims->data[d] == output->dims->data[d]);
    }
    if (!fits) {
      char in_shape[48];
      char out_shape[48];
      FormatDims(input->dims->data, input->dims->size, in_shape, sizeof(in_shape));
      FormatDims(output->dims->data, rank, out_shape, sizeof(out_shape));
      MicroPrintf("%s: input %d of shape %s does not fit output %s along axis %d", kOp, i, in_shape, out_shape, axis);
      return kTfLiteError;
    }
    axis_sum += input->dims->data[axis];
  }
  if (axis_sum != output->dims->data[axis]) {
    MicroPrintf("%s: the inputs add up to %d along axis %d but the output has %d", kOp, static_cast<int>(axis_sum),
                axis, static_cast<int>(output->dims->data[axis]));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) {
    node->user_data = AllocateOpData(kOp, context, sizeof(ConcatenationOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  auto* data = static_cast<ConcatenationOpData*>(node->user_data);
  data->outer = 1;
  for (int d = 0; d < axis; ++d) data->outer *= output->dims->data[d];
  int32_t inner = static_cast<int32_t>(TypeSize(output->type));
  for (int d = axis + 1; d < rank; ++d) inner *= output->dims->data[d];
  data->inner_bytes = inner;
  return kTfLiteOk;
}

TfLiteStatus ConcatenationInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const auto& d = *static_cast<const ConcatenationOpData*>(node->user_data);
  const int num_inputs = NumInputs(node);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  const int axis = params->axis < 0 ? params->axis + output->dims->size : params->axis;
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  for (int32_t o = 0; o < d.outer; ++o) {
    for (int i = 0; i < num_inputs; ++i) {
      const TfLiteTensor* input = GetInput(context, node, i);
      const size_t bytes = static_cast<size_t>(input->dims->data[axis]) * static_cast<size_t>(d.inner_bytes);
      if (bytes == 0) continue;
      memcpy(out, static_cast<const uint8_t*>(input->data.raw_const) + static_cast<size_t>(o) * bytes, bytes);
      out += bytes;
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_CONCATENATION() {
  return {nullptr, nullptr, ConcatenationPrepare, ConcatenationInvoke};
}

}  // namespace micro_runtime
