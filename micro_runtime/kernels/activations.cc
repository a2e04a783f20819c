// RELU: y = max(0, x); RELU6: y = min(max(0, x), 6). float32, int8 and int16
// (zero point 0), as TFLM. A quantized input is requantized to the output by
// input_scale / output_scale (TFLM forms the ratio in float) and clamped to
// the output's quantized 0 (its zero point), for RELU6 its quantized 6
// (round(6 / scale) steps above the zero point), and the type's range. With
// equal input and output quantization (what converters write) the multiplier
// is the identity, so RELU6 is TFLM's clamp in the input's quantization.
// float32 NaN passes through unchanged, as in TFLM.
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

struct ReluOpData {
  int32_t multiplier;
  int shift;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t min;  // quantized 0
  int32_t max;  // quantized 6, or the type's maximum for RELU
};

TfLiteStatus ReluPrepare(const char* op, float max_value, TfLiteContext* context, TfLiteNode* node) {
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(op, context, node,
                                                                  kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                                                  "float32, int8, int16", sizeof(ReluOpData),
                                                                  &op_data));
  if (op_data == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  ReluOpData* data = static_cast<ReluOpData*>(op_data);
  const bool int16 = input->type == kTfLiteInt16;
  QuantizeMultiplier(static_cast<double>(input->params.scale / output->params.scale), &data->multiplier,
                     &data->shift);
  // The rescale shifts the zero-point corrected input (|x| <= 255 for int8,
  // 32768 for int16) left by `shift` in int32 first.
  const int max_shift = int16 ? 16 : 23;
  if (data->shift > max_shift) {
    MicroPrintf("%s: input/output scale ratio %f too large for %s (the rescale overflows; max 2^%d)", op,
                static_cast<double>(input->params.scale / output->params.scale), TfLiteTypeName(input->type),
                max_shift);
    return kTfLiteError;
  }
  const int32_t type_min = int16 ? -32768 : -128;
  const int32_t type_max = int16 ? 32767 : 127;
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  data->min = output->params.zero_point > type_min ? output->params.zero_point : type_min;
  data->max = type_max;
  if (max_value > 0.0f) {
    // Beyond 65536 steps the clamp is the type's maximum anyway; checking
    // first keeps a tiny scale from overflowing the int conversion.
    const float steps = max_value / output->params.scale;
    if (steps < 65536.0f) {
      const int32_t six = output->params.zero_point + RoundToInt32(steps);
      data->max = six < type_max ? six : type_max;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus ReluInvoke(const char* op, float max_value, TfLiteContext* context, TfLiteNode* node) {
  return EvalQuantizedUnary<ReluOpData, true>(
      op, context, node,
      [max_value](float x) {
        if (max_value > 0.0f && x > max_value) return max_value;
        return x < 0.0f ? 0.0f : x;
      },
      [](const ReluOpData& d, int32_t q) {
        const int32_t y =
            d.output_zero_point + MultiplyByQuantizedMultiplier(q - d.input_zero_point, d.multiplier, d.shift);
        return ClampInt32(y, d.min, d.max);
      });
}

TfLiteStatus Relu6Prepare(TfLiteContext* context, TfLiteNode* node) {
  return ReluPrepare("RELU6", 6.0f, context, node);
}
TfLiteStatus Relu6Invoke(TfLiteContext* context, TfLiteNode* node) {
  return ReluInvoke("RELU6", 6.0f, context, node);
}
TfLiteStatus ReluOnlyPrepare(TfLiteContext* context, TfLiteNode* node) {
  return ReluPrepare("RELU", 0.0f, context, node);
}
TfLiteStatus ReluOnlyInvoke(TfLiteContext* context, TfLiteNode* node) {
  return ReluInvoke("RELU", 0.0f, context, node);
}

}  // namespace

TfLiteRegistration Register_RELU() { return {nullptr, nullptr, ReluOnlyPrepare, ReluOnlyInvoke}; }
TfLiteRegistration Register_RELU6() { return {nullptr, nullptr, Relu6Prepare, Relu6Invoke}; }

}  // namespace micro_runtime
