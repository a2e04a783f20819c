// QUANTIZE: float32 -> int8 (per-tensor, or per-channel along the output's
// quantized_dimension) as q = clamp(round(x / scale) + zero_point), with a
// float division and ties rounded away from zero, which is what TFLM does
// (bit-exact against it; LiteRT multiplies by 1/scale and rounds ties to even,
// so it can differ by 1 on ties); and int8 -> int8 requantization with a
// fixed-point multiplier.
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "QUANTIZE";

struct RequantizeOpData {
  int32_t multiplier;
  int shift;
};

TfLiteStatus QuantizePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8) {
    return micro_runtime::ReportUnsupportedType(kOp, input->type, "float32, int8", "input");
  }
  if (output->type != kTfLiteInt8) {
    return micro_runtime::ReportUnsupportedType(kOp, output->type, "int8", "output");
  }
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckSameShape(kOp, input, output));

  const TfLiteFloatArray* scales = output->params.scales;
  const bool per_channel = scales != nullptr && scales->size > 1;
  if (per_channel) {
    const int32_t axis = output->quantized_dimension;
    if (input->type != kTfLiteFloat32 || axis < 0 || axis >= NumDimensions(output) ||
        scales->size != SizeOfDimension(output, axis)) {
      MicroPrintf("%s: per-channel output needs float32 input and one scale per channel of the "
                  "quantized dimension (got %d scales, dimension %d)",
                  kOp, static_cast<int>(scales->size), static_cast<int>(axis));
      return kTfLiteError;
    }
    for (int32_t c = 0; c < scales->size; ++c) {
      if (!(scales->data[c] > 0.0f)) {
        MicroPrintf("%s: output scale of channel %d must be > 0", kOp, static_cast<int>(c));
        return kTfLiteError;
      }
    }
  }
  if (!(output->params.scale > 0.0f)) {
    MicroPrintf("%s: output scale must be > 0, got %f", kOp, static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (input->type != kTfLiteInt8) return kTfLiteOk;

  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 input scale must be > 0, got %f", kOp, static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) {
    node->user_data = micro_runtime::AllocateOpData(kOp, context, sizeof(RequantizeOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  RequantizeOpData* data = static_cast<RequantizeOpData*>(node->user_data);
  QuantizeMultiplier(static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
                     &data->multiplier, &data->shift);
  return kTfLiteOk;
}

TfLiteStatus QuantizeInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  const int32_t zero_point = output->params.zero_point;
  int8_t* out = output->data.int8;

  if (input->type == kTfLiteInt8) {
    if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
    const RequantizeOpData* data = static_cast<const RequantizeOpData*>(node->user_data);
    const int32_t input_zero_point = input->params.zero_point;
    for (int32_t i = 0; i < count; ++i) {
      int32_t q = zero_point + MultiplyByQuantizedMultiplier(input->data.int8[i] - input_zero_point,
                                                             data->multiplier, data->shift);
      out[i] = static_cast<int8_t>(q > 127 ? 127 : (q < -128 ? -128 : q));
    }
    return kTfLiteOk;
  }

  const TfLiteFloatArray* scales = output->params.scales;
  if (scales == nullptr || scales->size <= 1) {
    const float scale = output->params.scale;
    for (int32_t i = 0; i < count; ++i) {
      out[i] = micro_runtime::QuantizeToInt8(input->data.f[i], scale, zero_point);
    }
    return kTfLiteOk;
  }
  // Per-channel: element i belongs to channel (i / inner) % channels, where
  // inner is the number of elements after the quantized dimension.
  const int32_t axis = output->quantized_dimension;
  int32_t inner = 1;
  for (int d = axis + 1; d < NumDimensions(output); ++d) inner *= SizeOfDimension(output, d);
  const int32_t channels = scales->size;
  for (int32_t i = 0; i < count; ++i) {
    const int32_t channel = (i / inner) % channels;
    out[i] = micro_runtime::QuantizeToInt8(input->data.f[i], scales->data[channel], zero_point);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_QUANTIZE() { return {nullptr, nullptr, QuantizePrepare, QuantizeInvoke}; }
