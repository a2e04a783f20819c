// DEQUANTIZE: float y = scale * (q - zero_point), per-tensor, int8, int16
// or uint8 input (TFLM's types). The int -> float conversion is exact and the single float multiply
// is correctly rounded, so results equal TFLite's double-precision formula.
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "DEQUANTIZE";

TfLiteStatus DequantizePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteInt8 && input->type != kTfLiteInt16 && input->type != kTfLiteUInt8) {
    return ReportUnsupportedType(kOp, input->type, "int8, int16, uint8", "input");
  }
  if (output->type != kTfLiteFloat32) {
    return ReportUnsupportedType(kOp, output->type, "float32", "output");
  }
  if (input->params.scales != nullptr && input->params.scales->size > 1) {
    MicroPrintf("%s: per-channel input quantization not supported; quantize the tensor per-tensor",
                kOp);
    return kTfLiteError;
  }
  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: input scale must be > 0, got %f", kOp, static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  return CheckSameShape(kOp, input, output);
}

template <typename T>
void Dequantize(const T* input, float* output, int32_t count, float scale, int32_t zero_point) {
  for (int32_t i = 0; i < count; ++i) {
    output[i] = scale * static_cast<float>(static_cast<int32_t>(input[i]) - zero_point);
  }
}

TfLiteStatus DequantizeInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  if (input->type == kTfLiteInt8) {
    Dequantize(input->data.int8, output->data.f, count, input->params.scale,
               input->params.zero_point);
  } else if (input->type == kTfLiteUInt8) {
    Dequantize(input->data.uint8, output->data.f, count, input->params.scale, input->params.zero_point);
  } else {
    Dequantize(input->data.i16, output->data.f, count, input->params.scale,
               input->params.zero_point);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_DEQUANTIZE() {
  return {nullptr, nullptr, DequantizePrepare, DequantizeInvoke};
}

}  // namespace micro_runtime
