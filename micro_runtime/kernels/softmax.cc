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
// int16 -> int16 (version 3; zero points 0, output scale 1/32768) is TFLM's
// table softmax, bit-exact: the distance to the row max, rescaled so that
// [-65535, 0] spans [-10, 0], through a 513-entry table of exp; the sum's
// mantissa through a table of 1 / (1 + x) on [0, 1]. Both tables are built
// in prepare into the node's op data (2,060 bytes of arena) with TFLM's float
// arithmetic; only the full registration links that code.
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/fixed_point.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

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

// Checks shared by every type: a rank of at least 1 and beta >= 0.
TfLiteStatus CheckRankAndBeta(const TfLiteTensor* input, const TfLiteNode* node) {
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
  return kTfLiteOk;
}

// Prepare of float32 -> float32, int8 -> int8 and int8 -> int16.
TfLiteStatus SoftmaxPrepareNoInt16(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = NumInputs(node) == 1 ? GetInput(context, node, 0) : nullptr;
  const TfLiteTensor* output = NumOutputs(node) == 1 ? GetOutput(context, node, 0) : nullptr;
  const bool int16_output = input != nullptr && output != nullptr && input->type == kTfLiteInt8 &&
                            output->type == kTfLiteInt16;
  if (!int16_output) {
    TF_LITE_ENSURE_OK(context, PrepareFloatOrInt8Unary(kOp, context, node));
  } else if (!HaveSameShapes(input, output)) {
    MicroPrintf("%s: input and output shapes differ", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckRankAndBeta(input, node));
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckInt8FixedOutput(kOp, input, output, int16_output ? 65536 : 256,
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
  return ExpOnNegativeValuesQ5(s.shift >= 0 ? scaled : RoundingDivideByPOT(scaled, -s.shift));
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
    const int32_t reciprocal = OneOverOnePlusX(
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

// ---- int16 -> int16 (TFLM's table softmax) ----

// Entries of TFLM's int16 tables: 512 segments and the end point.
constexpr int kLutSize = 513;

struct Int16OpData {
  int32_t multiplier;  // beta * input scale / (10 / 65535) as QuantizeMultiplier gives it
  int32_t shift;
  int16_t exp_lut[kLutSize];    // exp(x) on [-10, 0], at scale 2/65535
  int16_t recip_lut[kLutSize];  // 1 / (1 + x) on [0, 1], at scale 2/65535
};

// Largest row whose int32 sum of exponentials (each at most 32767) cannot overflow.
constexpr int32_t kMaxInt16Depth = INT32_MAX / 32767;

float Exp(float x) { return expf(x); }
float OneOverOnePlusX(float x) { return 1.0f / (1.0f + x); }

// TFLM's int16 table of f (LUTPopulate in float) for an int16 input at input_scale and input_zero_point and
// an output at scale 2/65535, zero point 0: knots 128 input steps apart, each the rounded f at the knot
// minus half the rounded error of linear interpolation at the segment's midpoint, the last knot f at the
// input maximum. Float arithmetic in TFLM's order; a fused multiply-add (what GCC makes of a * b + c on an
// FPU that has one, as the Cortex-M4F's, unless told not to) would round differently. Every entry stays
// the same when any f value moves by one ulp, so an expf within one ulp of glibc's (TFLM's host build)
// gives TFLM's table.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
void FillLut(float input_scale, int32_t input_zero_point, float (*f)(float), int16_t* lut) {
  const float input_min = input_scale * static_cast<float>(INT16_MIN - input_zero_point);
  const float input_max = input_scale * static_cast<float>(INT16_MAX - input_zero_point);
  const float output_scale = 2.0f / 65535.0f;
  const float output_min = output_scale * static_cast<float>(INT16_MIN);
  const float output_max = output_scale * static_cast<float>(INT16_MAX);
  constexpr int kSegments = kLutSize - 1;
  const float step = (input_max - input_min) / static_cast<float>(kSegments);
  const float half_step = step / 2.0f;
  const float inverse_scale = 65536.0f / (output_max - output_min);
  // v is a whole number of at most 2^17 here: clamping its int32 is clamping the float.
  auto to_int16 = [](float v) {
    return static_cast<int16_t>(ClampInt32(static_cast<int32_t>(v), INT16_MIN, INT16_MAX));
  };
  float value = f(input_min);  // f at knot i (knot i + 1's is the next knot's)
  for (int i = 0; i < kSegments; ++i) {
    const float knot = input_min + static_cast<float>(i) * step;
    const float next_value = f(input_min + static_cast<float>(i + 1) * step);
    const float sample = roundf(value * inverse_scale);
    const float interpolated_midpoint = roundf((next_value * inverse_scale + sample) / 2.0f);
    const float midpoint = roundf(f(knot + half_step) * inverse_scale);
    const float bias = roundf((interpolated_midpoint - midpoint) / 2.0f);
    lut[i] = to_int16(sample - bias);
    value = next_value;
  }
  lut[kSegments] = to_int16(roundf(f(input_max) * inverse_scale));
}

// TFLM's int16 table lookup: the top 9 bits of v pick a segment, the low 7
// interpolate linearly to the next knot (rounded half up).
inline int32_t LutLookup(const int16_t* lut, int32_t v) {
  const int32_t index = 256 + (v >> 7);
  const int32_t slope = lut[index + 1] - lut[index];
  return lut[index] + ((slope * (v & 0x7f) + 64) >> 7);
}

TfLiteStatus SoftmaxPrepareInt16(TfLiteContext* context, TfLiteNode* node, Int16OpData* data) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckRankAndBeta(input, node));
  // TFLM's tolerance: within 0.1% of 1/32768 (zero points were checked to be 0).
  const float expected_scale = 1.0f / 32768.0f;
  const float delta = output->params.scale - expected_scale;
  if (delta > 0.001f * expected_scale || -delta > 0.001f * expected_scale) {
    MicroPrintf("%s: int16 output must have scale 1/32768 and zero point 0, got scale %f", kOp,
                static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth > kMaxInt16Depth) {
    MicroPrintf("%s: int16 rows of %d values: the int32 sum of exponentials holds %d", kOp,
                static_cast<int>(depth), static_cast<int>(kMaxInt16Depth));
    return kTfLiteError;
  }
  // Distances to the row max scaled so that [-65535, 0] is [-10, 0]. Beyond a ratio of 2^15 (beta * input
  // scale above ~5) TFLM's int32 left shift of a distance overflows (undefined); SoftmaxInt16 saturates those
  // distances instead, whose exact scaled value is far below -65535 (exp 0).
  int shift;
  QuantizeMultiplier(static_cast<double>(input->params.scale) * static_cast<double>(Beta(node)) / (10.0 / 65535.0),
                     &data->multiplier, &shift);
  data->shift = shift;
  // exp over inputs at scale 10/65535 with zero point 32767 ([-10, 0]); 1 / (1 + x) at scale 1/65535 with
  // zero point -32768 ([0, 1]).
  FillLut(10.0f / 65535.0f, INT16_MAX, Exp, data->exp_lut);
  FillLut(1.0f / 65535.0f, INT16_MIN, OneOverOnePlusX, data->recip_lut);
  return kTfLiteOk;
}

// TFLM's SoftmaxInt16: exponentials in Q0.15 (kept in the output while the row's sum forms), the sum's
// normalised mantissa (16 bits below its leading one) through the reciprocal table, each exponential times
// the reciprocal shifted back by the sum's magnitude, clamped to [0, 32767].
void SoftmaxInt16(const Int16OpData& d, const int16_t* input, int16_t* output, int32_t rows, int32_t depth) {
  for (int32_t r = 0; r < rows; ++r, input += depth, output += depth) {
    int32_t max = input[0];
    for (int32_t i = 1; i < depth; ++i) max = input[i] > max ? input[i] : max;
    int32_t sum = 0;  // > 0: the max contributes exp(0); depth <= kMaxInt16Depth keeps it in int32
    for (int32_t i = 0; i < depth; ++i) {
      const int32_t diff = input[i] - max;  // <= 0
      // A distance whose left shift leaves int32 is beyond -2^30 scaled: saturate (exp 0) rather than wrap.
      const int32_t scaled = d.shift > 0 && diff < -(INT32_MAX >> d.shift)
                                 ? INT32_MIN / 2
                                 : MultiplyByQuantizedMultiplier(diff, d.multiplier, d.shift);
      const int32_t e = LutLookup(d.exp_lut, ClampInt32(scaled + INT16_MAX, INT16_MIN, INT16_MAX));
      output[i] = static_cast<int16_t>(e);
      sum += e;
    }
    const int headroom_plus_one = __builtin_clz(static_cast<uint32_t>(sum));  // 1..17
    // The mantissa in [2^16, 2^17], less 1.0 (2^16) and the table's recentering (2^15).
    const int32_t mantissa =
        static_cast<int32_t>(((static_cast<uint32_t>(sum) << (headroom_plus_one - 1)) + (1u << 13)) >> 14);
    const int32_t reciprocal =
        LutLookup(d.recip_lut, ClampInt32(mantissa - (3 << 15), INT16_MIN, INT16_MAX));
    const int right_shift = 31 - headroom_plus_one;  // 14..30
    for (int32_t i = 0; i < depth; ++i) {
      // Both factors are below 2^15: the product and its rounding term fit int32.
      const int32_t v = (output[i] * reciprocal + (1 << (right_shift - 1))) >> right_shift;
      output[i] = static_cast<int16_t>(ClampInt32(v, 0, INT16_MAX));
    }
  }
}

TfLiteStatus SoftmaxInvokeInt16(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t depth = SizeOfDimension(input, NumDimensions(input) - 1);
  if (depth == 0) return kTfLiteOk;
  SoftmaxInt16(*static_cast<const Int16OpData*>(node->user_data), input->data.i16, output->data.i16,
               ElementCount(input->dims) / depth, depth);
  return kTfLiteOk;
}

// Prepare of the full registration: float32 and int8 (SoftmaxPrepareNoInt16), int16 -> int16.
TfLiteStatus SoftmaxPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = NumInputs(node) == 1 ? GetInput(context, node, 0) : nullptr;
  if (input != nullptr && (input->type == kTfLiteFloat32 || input->type == kTfLiteInt8)) {
    return SoftmaxPrepareNoInt16(context, node);
  }
  void* data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(kOp, context, node, kTypeInt16,
                                                                  "float32, int8, int16", sizeof(Int16OpData),
                                                                  &data));
  return SoftmaxPrepareInt16(context, node, static_cast<Int16OpData*>(data));
}

TfLiteStatus SoftmaxInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type == kTfLiteInt8) return SoftmaxInvokeInt8(context, node);
  if (input->type == kTfLiteInt16) return SoftmaxInvokeInt16(context, node);
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
  return SoftmaxPrepareNoInt16(context, node);
}

}  // namespace

TfLiteRegistration Register_SOFTMAX() { return {nullptr, nullptr, SoftmaxPrepare, SoftmaxInvoke}; }
TfLiteRegistration Register_SOFTMAX_INT8() { return {nullptr, nullptr, SoftmaxPrepareInt8, SoftmaxInvokeInt8}; }

}  // namespace micro_runtime
