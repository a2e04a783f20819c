#include "micro_runtime/kernels/binary_util.h"

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"

#include "micro_runtime/builtin_options.h"

namespace micro_runtime {

namespace {

__attribute__((noinline)) void ReportShapes(const char* op, const char* problem, const TfLiteIntArray* input1,
                  const TfLiteIntArray* input2, const TfLiteIntArray* output) {
  char a[48];
  char b[48];
  char c[48];
  FormatShape(input1, a, sizeof(a));
  FormatShape(input2, b, sizeof(b));
  FormatShape(output, c, sizeof(c));
  MicroPrintf("%s: %s (inputs %s and %s, output %s)", op, problem, a, b, c);
}

// Dimension `d` of `dims` counted from the right-aligned padded rank.
int32_t PaddedDim(const TfLiteIntArray* dims, int d) {
  const int first = kMaxBroadcastDims - dims->size;
  return d < first ? 1 : dims->data[d - first];
}

}  // namespace

TfLiteStatus PlanBroadcast(const char* op, const TfLiteIntArray* input1,
                           const TfLiteIntArray* input2, const TfLiteIntArray* output,
                           BroadcastPlan* plan) {
  plan->count = ElementCount(output);
  plan->same_shape = input1->size == input2->size && input1->size == output->size;
  for (int i = 0; plan->same_shape && i < output->size; ++i) {
    plan->same_shape = input1->data[i] == output->data[i] && input2->data[i] == output->data[i];
  }
  if (plan->same_shape) return kTfLiteOk;

  if (input1->size > kMaxBroadcastDims || input2->size > kMaxBroadcastDims ||
      output->size > kMaxBroadcastDims) {
    ReportShapes(op, "broadcasting supports at most 6 dimensions", input1, input2, output);
    return kTfLiteError;
  }
  const int rank = input1->size > input2->size ? input1->size : input2->size;
  if (output->size != rank) {
    ReportShapes(op, "output rank must be the larger input rank", input1, input2, output);
    return kTfLiteError;
  }
  int32_t stride1 = 1;
  int32_t stride2 = 1;
  for (int d = kMaxBroadcastDims - 1; d >= 0; --d) {
    const int32_t d1 = PaddedDim(input1, d);
    const int32_t d2 = PaddedDim(input2, d);
    const int32_t dout = PaddedDim(output, d);
    if (d1 != d2 && d1 != 1 && d2 != 1) {
      ReportShapes(op, "input shapes are not broadcast-compatible", input1, input2, output);
      return kTfLiteError;
    }
    const int32_t expected = d1 == 1 ? d2 : d1;
    if (dout != expected) {
      ReportShapes(op, "output shape is not the broadcast of the input shapes", input1, input2,
                   output);
      return kTfLiteError;
    }
    plan->dims[d] = dout;
    plan->stride1[d] = d1 == 1 ? 0 : stride1;
    plan->stride2[d] = d2 == 1 ? 0 : stride2;
    // Wrapping products: a tensor with a zero dimension can have other dimensions whose product leaves int32
    // (the verifier bounds only nonempty tensors); its strides are then never used, as nothing is iterated.
    stride1 = static_cast<int32_t>(static_cast<uint32_t>(stride1) * static_cast<uint32_t>(d1));
    stride2 = static_cast<int32_t>(static_cast<uint32_t>(stride2) * static_cast<uint32_t>(d2));
  }
  return kTfLiteOk;
}

TfLiteFusedActivation ArithmeticActivation(const TfLiteNode* node) {
  const TfLiteArithmeticParams* params = static_cast<const TfLiteArithmeticParams*>(node->builtin_data);
  return params == nullptr ? kTfLiteActNone : params->activation;
}

TfLiteStatus PrepareBinary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                           const char* supported) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 2, 2, 1));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!InTypeSet(input1->type, types)) return ReportUnsupportedType(op, input1->type, supported);
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input1, input2));
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input1, output));
  BroadcastPlan plan;
  return PlanBroadcast(op, input1->dims, input2->dims, output->dims, &plan);
}

TfLiteStatus PrepareArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                               size_t op_data_bytes, ArithmeticQuantParams** quant, unsigned types) {
  *quant = nullptr;
  const char* supported = (types & kTypeInt16) != 0 ? "float32, int8, int16" : "float32, int8";
  TF_LITE_ENSURE_OK(context, PrepareBinary(op, context, node, types, supported));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input1->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input 1", input1));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input 2", input2));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "output", output));
  ArithmeticQuantParams* q =
      static_cast<ArithmeticQuantParams*>(NodeOpData(op, context, node, op_data_bytes));
  if (q == nullptr) return kTfLiteError;
  q->input1_offset = -input1->params.zero_point;
  q->input2_offset = -input2->params.zero_point;
  q->output_offset = output->params.zero_point;
  TF_LITE_ENSURE_OK(context, CalculateActivationRangeQuantized(ArithmeticActivation(node), output,
                                                               &q->activation_min,
                                                               &q->activation_max));
  *quant = q;
  return kTfLiteOk;
}

double PrepareCommonScale(float scale1, float scale2, int left_shift, CommonScale* s) {
  s->left_shift = left_shift;
  const double common = 2.0 * static_cast<double>(scale1 > scale2 ? scale1 : scale2);
  QuantizeMultiplier(static_cast<double>(scale1) / common, &s->input1_multiplier, &s->input1_shift);
  QuantizeMultiplier(static_cast<double>(scale2) / common, &s->input2_multiplier, &s->input2_shift);
  return common;
}

}  // namespace micro_runtime
