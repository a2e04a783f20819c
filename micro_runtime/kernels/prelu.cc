// PRELU: y = x for x >= 0, alpha * x otherwise, with alpha (input 2)
// broadcast against x (up to 6 dimensions; TFLM stops at 4). float32; int8
// like TFLite: the zero-point corrected input is rescaled by
// input_scale / output_scale, or the product of the corrected input and
// alpha by input_scale * alpha_scale / output_scale (both in double), plus
// the output zero point, saturated; and TFLM's int16 form (still version 1
// in TFLite's numbering): int16 input and output (zero point 0) with an int8
// alpha, the same arithmetic saturated to int16. Bit-exact.
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "PRELU";

struct PreluOpData {
  ArithmeticQuantParams common;  // first: PrepareArithmetic fills it
  int32_t identity_multiplier;
  int32_t alpha_multiplier;
  int identity_shift;
  int alpha_shift;
};

// The int16 form: int16 input and output, int8 alpha (TFLM takes no other
// alpha type with int16). Checks what PrepareArithmetic checks for the other
// types and fills the same op data.
TfLiteStatus PrepareInt16(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* alpha = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (alpha->type != kTfLiteInt8) {
    return ReportUnsupportedType(kOp, alpha->type, "int8 with an int16 input", "alpha");
  }
  TF_LITE_ENSURE_OK(context, CheckSameType(kOp, input, output));
  BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, PlanBroadcast(kOp, input->dims, alpha->dims, output->dims, &plan));
  TF_LITE_ENSURE_OK(context, CheckQuantized(kOp, "input", input));
  TF_LITE_ENSURE_OK(context, CheckQuantized(kOp, "alpha", alpha));
  TF_LITE_ENSURE_OK(context, CheckQuantized(kOp, "output", output));
  if (node->user_data == nullptr) node->user_data = AllocateOpData(kOp, context, sizeof(PreluOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  ArithmeticQuantParams& q = static_cast<PreluOpData*>(node->user_data)->common;
  q.input1_offset = 0;  // int16 zero points are 0
  q.input2_offset = -alpha->params.zero_point;
  q.output_offset = 0;
  q.activation_min = -32768;
  q.activation_max = 32767;
  return kTfLiteOk;
}

TfLiteStatus PreluPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 2, 2, 1));
  if (GetInput(context, node, 0)->type == kTfLiteInt16) {
    TF_LITE_ENSURE_OK(context, PrepareInt16(context, node));
  } else {
    ArithmeticQuantParams* common = nullptr;
    TF_LITE_ENSURE_OK(context, PrepareArithmetic(kOp, context, node, sizeof(PreluOpData), &common));
    if (common == nullptr) return kTfLiteOk;  // float32
  }
  const double input_scale = static_cast<double>(GetInput(context, node, 0)->params.scale);
  const double alpha_scale = static_cast<double>(GetInput(context, node, 1)->params.scale);
  const double output_scale = static_cast<double>(GetOutput(context, node, 0)->params.scale);
  PreluOpData* data = static_cast<PreluOpData*>(node->user_data);
  QuantizeMultiplier(input_scale / output_scale, &data->identity_multiplier, &data->identity_shift);
  QuantizeMultiplier(input_scale * alpha_scale / output_scale, &data->alpha_multiplier, &data->alpha_shift);
  return kTfLiteOk;
}

// The zero-point corrected input x and alpha -> the output before its zero
// point. |x| <= 2^15 and |alpha| <= 255: the product fits easily.
int32_t PreluQuantized(const PreluOpData& d, int32_t x, int32_t alpha) {
  return x >= 0 ? MultiplyByQuantizedMultiplier(x, d.identity_multiplier, d.identity_shift)
                : MultiplyByQuantizedMultiplier(x * alpha, d.alpha_multiplier, d.alpha_shift);
}

TfLiteStatus EvalInt16(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* alpha = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, PlanBroadcast(kOp, input->dims, alpha->dims, output->dims, &plan));
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const PreluOpData& d = *static_cast<const PreluOpData*>(node->user_data);
  const int16_t* x = input->data.i16;
  const int8_t* a = alpha->data.int8;
  int16_t* out = output->data.i16;
  ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) {
    out[o] = SaturateTo<int16_t>(PreluQuantized(d, x[i1], a[i2] + d.common.input2_offset));
  });
  return kTfLiteOk;
}

TfLiteStatus PreluInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (GetInput(context, node, 0)->type == kTfLiteInt16) return EvalInt16(context, node);
  return EvalArithmetic<PreluOpData>(kOp, context, node, PreluQuantized,
                                                    [](float x, float alpha) { return x >= 0.0f ? x : x * alpha; });
}

}  // namespace

TfLiteRegistration Register_PRELU() { return {nullptr, nullptr, PreluPrepare, PreluInvoke}; }

}  // namespace micro_runtime
