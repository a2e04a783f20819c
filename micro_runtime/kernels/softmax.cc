// SOFTMAX over the last dimension: y_i = exp(beta * (x_i - max)) / sum_j(...).
// float32, and int8 -> int8 (TFLite requires output scale 1/256, zero point
// -128). For int8, invoke evaluates exp(-d * input_scale * beta) for
// d = max - x_i twice (once for the sum, once for the output) instead of
// keeping a 256-entry table: no arena at all (a table cost 1 KB of persistent
// arena per node, more than the whole rest of micro_speech's op data), at
// the price of 2 * depth expf calls; results are within +-1 of TFLite's
// fixed-point kernel.
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "SOFTMAX";

float Beta(const TfLiteNode* node) {
  const TfLiteSoftmaxParams* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  return params == nullptr ? 1.0f : params->beta;
}

TfLiteStatus SoftmaxPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, micro_runtime::PrepareFloatOrInt8Unary(kOp, context, node));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (NumDimensions(input) < 1) {
    MicroPrintf("%s: input must have at least 1 dimension, got a scalar", kOp);
    return kTfLiteError;
  }
  // beta 0 (what a model without SoftmaxOptions parses to) gives a uniform
  // output like TFLite; a negative beta would overflow exp().
  if (!(Beta(node) >= 0.0f)) {
    MicroPrintf("%s: beta must be >= 0, got %f", kOp, static_cast<double>(Beta(node)));
    return kTfLiteError;
  }
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  return micro_runtime::CheckInt8FixedOutput(kOp, input, output, 256, -128);
}

void SoftmaxFloat(const float* input, float* output, int32_t rows, int32_t depth, float beta) {
  for (int32_t r = 0; r < rows; ++r, input += depth, output += depth) {
    float max = input[0];
    for (int32_t i = 1; i < depth; ++i) max = input[i] > max ? input[i] : max;
    float sum = 0.0f;
    for (int32_t i = 0; i < depth; ++i) {
      output[i] = expf((input[i] - max) * beta);
      sum += output[i];
    }
    const float inverse = 1.0f / sum;
    for (int32_t i = 0; i < depth; ++i) output[i] *= inverse;
  }
}

// exp(-step * d) for the distance d = max - x of an int8 input to its row max.
inline float ExpOfDistance(float step, int32_t d) { return expf(-step * static_cast<float>(d)); }

void SoftmaxInt8(float step, const int8_t* input, int8_t* output, int32_t rows, int32_t depth) {
  for (int32_t r = 0; r < rows; ++r, input += depth, output += depth) {
    int32_t max = input[0];
    for (int32_t i = 1; i < depth; ++i) max = input[i] > max ? input[i] : max;
    float sum = 0.0f;
    for (int32_t i = 0; i < depth; ++i) sum += ExpOfDistance(step, max - input[i]);
    // Output scale 1/256 and zero point -128: q = round(256 * p) - 128.
    const float to_output = 256.0f / sum;
    for (int32_t i = 0; i < depth; ++i) {
      int32_t q = micro_runtime::RoundToInt32(ExpOfDistance(step, max - input[i]) * to_output) - 128;
      output[i] = static_cast<int8_t>(q > 127 ? 127 : q);
    }
  }
}

TfLiteStatus SoftmaxInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth == 0) return kTfLiteOk;
  const int32_t rows = ElementCount(input->dims) / depth;
  if (input->type == kTfLiteInt8) {
    SoftmaxInt8(input->params.scale * Beta(node), input->data.int8, output->data.int8, rows, depth);
  } else {
    SoftmaxFloat(input->data.f, output->data.f, rows, depth, Beta(node));
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_SOFTMAX() { return {nullptr, nullptr, SoftmaxPrepare, SoftmaxInvoke}; }
