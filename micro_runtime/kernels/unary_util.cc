#include "micro_runtime/kernels/unary_util.h"

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

TfLiteStatus PrepareUnary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                          const char* supported) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!InTypeSet(input->type, types)) return ReportUnsupportedType(op, input->type, supported);
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  return CheckSameShape(op, input, output);
}

TfLiteStatus PrepareQuantizedUnary(const char* op, TfLiteContext* context, TfLiteNode* node,
                                   unsigned types, const char* supported, size_t op_data_bytes,
                                   void** op_data) {
  *op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareUnary(op, context, node, types, supported));
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input", input));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "output", GetOutput(context, node, 0)));
  *op_data = NodeOpData(op, context, node, op_data_bytes);
  return *op_data != nullptr ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus PrepareFloatUnary(const char* op, TfLiteContext* context, TfLiteNode* node) {
  return PrepareUnary(op, context, node, kTypeFloat32, "float32");
}

TfLiteStatus EvalFloatUnary(TfLiteContext* context, TfLiteNode* node, float (*f)(float)) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) output->data.f[i] = f(input->data.f[i]);
  return kTfLiteOk;
}

TfLiteStatus PrepareFloatOrInt8Unary(const char* op, TfLiteContext* context, TfLiteNode* node) {
  return PrepareUnary(op, context, node, kTypeFloat32 | kTypeInt8, "float32, int8");
}

TfLiteStatus CheckInt8FixedOutput(const char* op, const TfLiteTensor* input,
                                  const TfLiteTensor* output, int scale_denominator,
                                  int32_t zero_point) {
  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 input scale must be > 0, got %f", op, static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  const float expected_scale = 1.0f / static_cast<float>(scale_denominator);
  const float diff = output->params.scale - expected_scale;
  if (diff > 1e-8f || diff < -1e-8f || output->params.zero_point != zero_point) {
    MicroPrintf("%s: int8 output must have scale 1/%d and zero point %d, got scale %f zero point %d",
                op, scale_denominator, static_cast<int>(zero_point),
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                                float (*f)(float), int scale_denominator, int32_t zero_point) {
  TF_LITE_ENSURE_OK(context, PrepareFloatOrInt8Unary(op, context, node));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckInt8FixedOutput(op, input, output, scale_denominator, zero_point));
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, 256);
  if (node->user_data == nullptr) return kTfLiteError;
  BuildInt8Table(input->params.scale, input->params.zero_point, output->params.scale,
                 output->params.zero_point, f, static_cast<int8_t*>(node->user_data));
  return kTfLiteOk;
}

TfLiteStatus EvalInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                             float (*f)(float)) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type != kTfLiteInt8) return EvalFloatUnary(context, node, f);
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  TfLiteTensor* output = GetOutput(context, node, 0);
  ApplyInt8Table(static_cast<const int8_t*>(node->user_data), input->data.int8, output->data.int8,
                 ElementCount(output->dims));
  return kTfLiteOk;
}

void BuildInt8Table(float input_scale, int32_t input_zero_point, float output_scale,
                    int32_t output_zero_point, float (*f)(float), int8_t table[256]) {
  for (int32_t q = -128; q <= 127; ++q) {
    const float x = input_scale * static_cast<float>(q - input_zero_point);
    table[q + 128] = QuantizeToInt8(f(x), output_scale, output_zero_point);
  }
}

}  // namespace micro_runtime
