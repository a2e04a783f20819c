// SOFTMAX over the last dimension: y_i = exp(beta * (x_i - max)) / sum_j(...).
// float32; int8 -> int8 (TFLite requires output scale 1/256, zero point
// -128) and int8 -> int16 (scale 1/65536, zero point -32768: TFLM's keyword
// model). The int8 input takes TFLite's fixed-point softmax, bit-exact with
// TFLM: the distance to the row max, rescaled by beta * input scale to Q5.26,
// gemmlowp's exp_on_negative_values (distances beyond the input radius count
// as 0), the sum in Q12.19, its reciprocal by gemmlowp's Newton-Raphson step,
// and each exponential times it, shifted to the output's range. The scaling
// is recomputed at invoke from the input scale and beta: no op data, no
// table in the arena.
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/fixed_point.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "SOFTMAX";

float Beta(const TfLiteNode* node) {
  const TfLiteSoftmaxParams* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  return params == nullptr ? 1.0f : params->beta;
}

// TFLite's input scaling of the int8 softmax (PreprocessSoftmaxScaling with
// 5 integer bits, then CalculateInputRadius): distances d = x - max >= diff_min
// become d * 2^shift * multiplier in Q5.26; smaller ones count as 0. TFLite
// aborts when beta * input scale is 2^-26 or less (shift < 1); there the
// same formula with a right shift gives distances of about 0 (beta 0: a
// uniform output).
struct Int8Scaling {
  int32_t multiplier;
  int shift;
  int32_t diff_min;
};

// Largest row TFLite's Q12.19 sum of exponentials holds (each is at most 1.0).
constexpr int32_t kMaxInt8Depth = 4095;

void ComputeInt8Scaling(float input_scale, float beta, Int8Scaling* s) {
  constexpr int kScaledDiffIntegerBits = 5;
  double real = static_cast<double>(beta) * static_cast<double>(input_scale) *
                static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits));
  const double max_real = static_cast<double>(INT32_MAX);
  if (real > max_real) real = max_real;
  if (real >= static_cast<double>(int64_t{1} << 30) - 0.25) {
    // TFLite's shift is then 31 (the multiplier's mantissa rounds up to 1.0 from 2^30 - 1/4) and its radius
    // 0: only the row max counts, whatever the multiplier.
    s->multiplier = INT32_MAX;
    s->shift = 31;
    s->diff_min = 0;
    return;
  }
  QuantizeMultiplier(real, &s->multiplier, &s->shift);  // shift <= 30
  // 31 * 2^26 / 2^shift, floored; beyond any int8 distance for shift <= 0.
  const int64_t max_rescaled = int64_t{31} << 26;
  s->diff_min = s->shift > 0 ? -static_cast<int32_t>(max_rescaled >> s->shift) : -256;
}

TfLiteStatus SoftmaxPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = NumInputs(node) == 1 ? GetInput(context, node, 0) : nullptr;
  const TfLiteTensor* output = NumOutputs(node) == 1 ? GetOutput(context, node, 0) : nullptr;
  // float32 -> float32, int8 -> int8 and int8 -> int16.
  const bool int16_output = input != nullptr && output != nullptr && input->type == kTfLiteInt8 &&
                            output->type == kTfLiteInt16;
  if (!int16_output) {
    TF_LITE_ENSURE_OK(context, micro_runtime::PrepareFloatOrInt8Unary(kOp, context, node));
  } else if (!HaveSameShapes(input, output)) {
    MicroPrintf("%s: input and output shapes differ", kOp);
    return kTfLiteError;
  }
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
  TF_LITE_ENSURE_OK(context, micro_runtime::CheckInt8FixedOutput(kOp, input, output, int16_output ? 65536 : 256,
                                                                 int16_output ? -32768 : -128));
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth > kMaxInt8Depth) {
    MicroPrintf("%s: int8 rows of %d values: TFLite's fixed-point sum holds %d", kOp, static_cast<int>(depth),
                static_cast<int>(kMaxInt8Depth));
    return kTfLiteError;
  }
  return kTfLiteOk;
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
    // Divided, not multiplied by 1 / sum: TFLM's reference divides, and the
    // reciprocal's rounding changed the last bit of some outputs (TFLM's float
    // LSTM model, benchmarks/models/tflm/trained_lstm).
    for (int32_t i = 0; i < depth; ++i) output[i] /= sum;
  }
}

// exp(d * beta * input scale) in Q0 for a distance d = x - max <= 0 to the row
// max; 0 beyond the input radius.
inline int32_t ExpOfDistance(const Int8Scaling& s, int32_t d) {
  if (d < s.diff_min) return 0;
  // |d| * 2^shift <= 31 * 2^26 (the radius): no overflow.
  const int left = s.shift > 0 ? s.shift : 0;
  const int32_t scaled =
      SaturatingRoundingDoublingHighMul(static_cast<int32_t>(static_cast<uint32_t>(d) << left), s.multiplier);
  return micro_runtime::ExpOnNegativeValuesQ5(s.shift >= 0 ? scaled : RoundingDivideByPOT(scaled, -s.shift));
}

// int8 input, int8 output (scale 1/256) or int16 output (scale 1/65536,
// int16_output); the zero point is the type's minimum.
void SoftmaxInt8(const Int8Scaling& s, const int8_t* input, void* output, bool int16_output, int32_t rows,
                 int32_t depth) {
  const int32_t out_min = int16_output ? INT16_MIN : INT8_MIN;
  constexpr int kAccumulationIntegerBits = 12;
  for (int32_t r = 0; r < rows; ++r, input += depth) {
    int32_t max = input[0];
    for (int32_t i = 1; i < depth; ++i) max = input[i] > max ? input[i] : max;
    int32_t sum = 0;  // Q12.19; the max alone adds 1.0, depth <= 4095 keeps it below 2^31
    for (int32_t i = 0; i < depth; ++i) {
      sum += RoundingDivideByPOT(ExpOfDistance(s, input[i] - max), kAccumulationIntegerBits);
    }
    // 1 / sum = 2^-bits_over_unit / (1 + f), f in [0, 1).
    const int leading_zeros = __builtin_clz(static_cast<uint32_t>(sum));
    const int32_t reciprocal = micro_runtime::OneOverOnePlusX(
        static_cast<int32_t>((static_cast<uint32_t>(sum) << leading_zeros) - (uint32_t{1} << 31)));
    // bits_over_unit + 31 - output bits. Beyond 31 (an int8 output of a sum >= 2^28, which TFLite aborts on)
    // every output is the minimum.
    const int exponent = kAccumulationIntegerBits - leading_zeros + (int16_output ? 15 : 23);
    for (int32_t i = 0; i < depth; ++i) {
      int32_t v = out_min;
      if (input[i] - max >= s.diff_min && exponent <= 31) {
        v += RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(reciprocal, ExpOfDistance(s, input[i] - max)),
                                 exponent);
        if (v > -out_min - 1) v = -out_min - 1;
      }
      const int32_t index = r * depth + i;
      if (int16_output) {
        static_cast<int16_t*>(output)[index] = static_cast<int16_t>(v);
      } else {
        static_cast<int8_t*>(output)[index] = static_cast<int8_t>(v);
      }
    }
  }
}

// Invoke of an int8 input (prepare has checked the output).
TfLiteStatus SoftmaxInvokeInt8(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth == 0) return kTfLiteOk;
  Int8Scaling scaling;
  ComputeInt8Scaling(input->params.scale, Beta(node), &scaling);
  SoftmaxInt8(scaling, input->data.int8, output->data.raw, output->type == kTfLiteInt16,
              ElementCount(input->dims) / depth, depth);
  return kTfLiteOk;
}

TfLiteStatus SoftmaxInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type == kTfLiteInt8) return SoftmaxInvokeInt8(context, node);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth == 0) return kTfLiteOk;
  SoftmaxFloat(input->data.f, output->data.f, ElementCount(input->dims) / depth, depth, Beta(node));
  return kTfLiteOk;
}

TfLiteStatus SoftmaxPrepareInt8(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = NumInputs(node) == 1 ? GetInput(context, node, 0) : nullptr;
  if (input != nullptr && input->type != kTfLiteInt8) {
    MicroPrintf("%s: this build registers the int8 kernel only (Register_SOFTMAX_INT8), got %s input", kOp,
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  return SoftmaxPrepare(context, node);
}

}  // namespace

TfLiteRegistration Register_SOFTMAX() { return {nullptr, nullptr, SoftmaxPrepare, SoftmaxInvoke}; }
TfLiteRegistration Register_SOFTMAX_INT8() { return {nullptr, nullptr, SoftmaxPrepareInt8, SoftmaxInvokeInt8}; }
