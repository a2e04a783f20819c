#include "micro_runtime/kernels/filter_op_util.h"

#include <math.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

// CalculateActivationRangeQuantized is declared with the other quantization
// helpers (quantization_util.h) but defined here, beside its main caller
// PrepareInt8ChannelQuant: in one translation unit GCC knows which registers
// it clobbers (-fipa-ra), which keeps PrepareInt8ChannelQuant 36 bytes
// smaller on Cortex-M4 without LTO (docs/benchmarks.md, issue 20).
// zero_point + round(value / scale), like TFLite's activation-range helper.
// A tiny (corrupt) scale puts the quotient beyond int32, and converting that
// is UB (found by fuzzing): clamp first; callers intersect with the 8/16-bit
// range, so +-2^30 loses nothing.
static int32_t QuantizeBound(float value, float scale, int32_t zero_point) {
  const float limit = 1073741824.0f;
  const float q = roundf(value / scale);
  if (!(q == q)) return zero_point;  // NaN
  return zero_point + static_cast<int32_t>(q > limit ? limit : (q < -limit ? -limit : q));
}

TfLiteStatus CalculateActivationRangeQuantized(TfLiteFusedActivation activation,
                                               const TfLiteTensor* output, int32_t* act_min,
                                               int32_t* act_max) {
  int32_t qmin = 0;
  int32_t qmax = 0;
  switch (output->type) {
    case kTfLiteInt8:
      qmin = -128;
      qmax = 127;
      break;
    case kTfLiteUInt8:
      qmin = 0;
      qmax = 255;
      break;
    case kTfLiteInt16:
      qmin = -32768;
      qmax = 32767;
      break;
    default:
      MicroPrintf("activation range: output type %s is not quantized (use int8, uint8 or int16)",
                  TfLiteTypeName(output->type));
      return kTfLiteError;
  }
  const float scale = output->params.scale;
  const int32_t zp = output->params.zero_point;
  if (!(scale > 0.0f)) {
    MicroPrintf("activation range: output scale %f must be > 0 (is the output tensor quantized?)",
                static_cast<double>(scale));
    return kTfLiteError;
  }
  int32_t lo = qmin;
  int32_t hi = qmax;
  switch (activation) {
    case kTfLiteActNone:
      break;
    case kTfLiteActRelu:
      lo = QuantizeBound(0.0f, scale, zp);
      break;
    case kTfLiteActRelu6:
      lo = QuantizeBound(0.0f, scale, zp);
      hi = QuantizeBound(6.0f, scale, zp);
      break;
    case kTfLiteActReluN1To1:
      lo = QuantizeBound(-1.0f, scale, zp);
      hi = QuantizeBound(1.0f, scale, zp);
      break;
    default:
      MicroPrintf("fused activation %d is not supported on quantized ops (only NONE, RELU, RELU6, "
                  "RELU_N1_TO_1)",
                  static_cast<int>(activation));
      return kTfLiteError;
  }
  *act_min = lo > qmin ? lo : qmin;
  *act_max = hi < qmax ? hi : qmax;
  return kTfLiteOk;
}

// The checks of TFLite's convolution quantization setup (per-channel scale
// count and axis, positive scales, symmetric filter, int32 bias).
static TfLiteStatus CheckConvolutionQuantization(const char* op_name, const TfLiteTensor* input,
                                                 const TfLiteTensor* filter, const TfLiteTensor* bias,
                                                 const TfLiteTensor* output, int num_channels,
                                                 int channel_dim, bool int16) {
  const TfLiteFloatArray* scales = filter->params.scales;
  if (scales != nullptr && scales->size > 1) {
    if (scales->size != num_channels) {
      MicroPrintf("%s: filter has %d per-channel scales but %d output channels (quantize the "
                  "filter per output channel or per tensor)",
                  op_name, static_cast<int>(scales->size), num_channels);
      return kTfLiteError;
    }
    if (filter->quantized_dimension != channel_dim) {
      MicroPrintf("%s: filter is quantized along dimension %d, expected %d", op_name,
                  static_cast<int>(filter->quantized_dimension), channel_dim);
      return kTfLiteError;
    }
  }
  if (!(input->params.scale > 0.0f) || !(output->params.scale > 0.0f)) {
    MicroPrintf("%s: %s input and output need a positive quantization scale (got %f and %f)",
                op_name, int16 ? "int16" : "int8", static_cast<double>(input->params.scale),
                static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (filter->params.zero_point != 0) {
    MicroPrintf("%s: int8 filter zero point must be 0 (symmetric weights), got %d", op_name,
                static_cast<int>(filter->params.zero_point));
    return kTfLiteError;
  }
  if (bias != nullptr && bias->type != kTfLiteInt32 && !(int16 && bias->type == kTfLiteInt64)) {
    MicroPrintf("%s: bias of an %s op must be %s, got %s", op_name, int16 ? "int16" : "int8",
                int16 ? "int64 or int32" : "int32", TfLiteTypeName(bias->type));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// input_scale * filter_scale / output_scale as a Q31 multiplier and shift
// (the convolution path's rounding).
static void ConvolutionMultiplier(const TfLiteTensor* input, float filter_scale,
                                  const TfLiteTensor* output, int32_t* multiplier, int* shift) {
  const double effective = static_cast<double>(input->params.scale) * static_cast<double>(filter_scale) /
                           static_cast<double>(output->params.scale);
  QuantizeMultiplier(effective, multiplier, shift);
}

TfLiteStatus GetQuantizedConvolutionMultiplier(const char* op_name, const TfLiteTensor* input,
                                               const TfLiteTensor* filter,
                                               const TfLiteTensor* output, double* multiplier) {
  const double product = static_cast<double>(input->params.scale * filter->params.scale);
  if (!(product >= 0.0) || !(output->params.scale > 0.0f)) {
    MicroPrintf("%s: quantization scales must be positive (input %f, filter %f, output %f)", op_name,
                static_cast<double>(input->params.scale), static_cast<double>(filter->params.scale),
                static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  *multiplier = product / static_cast<double>(output->params.scale);
  return kTfLiteOk;
}

TfLiteStatus EnsureType(const char* op_name, const char* what, const TfLiteTensor* t,
                        TfLiteType expected) {
  if (t->type == expected) return kTfLiteOk;
  MicroPrintf("%s: %s has type %s, expected %s", op_name, what, TfLiteTypeName(t->type),
              TfLiteTypeName(expected));
  return kTfLiteError;
}

TfLiteStatus CheckNotHybrid(const char* op_name, const char* what, const TfLiteTensor* weights) {
  if (weights->type != kTfLiteInt8 && weights->type != kTfLiteUInt8) return kTfLiteOk;
  MicroPrintf("%s: float32 input with an %s %s: a hybrid (dynamic-range quantized) model, which "
              "micro_runtime does not run (nor does TFLM); convert with full integer quantization",
              op_name, TfLiteTypeName(weights->type), what);
  return kTfLiteError;
}

TfLiteStatus GetFilterOpTensors(const char* op_name, TfLiteContext* context, const TfLiteNode* node,
                                const TfLiteTensor** input, const TfLiteTensor** filter,
                                const TfLiteTensor** bias, const TfLiteTensor** output) {
  if (NumInputs(node) < 2 || NumInputs(node) > 3 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 2-3 inputs (input, filter, optional bias) and 1 output, got %d and %d",
                op_name, NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  *input = GetInput(context, node, 0);
  *filter = GetInput(context, node, 1);
  *bias = GetOptionalBias(context, node);
  *output = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, *input != nullptr && *filter != nullptr && *output != nullptr);
  return kTfLiteOk;
}

TfLiteStatus CheckFilterOpTypes(const char* op_name, const TfLiteTensor* input,
                                const TfLiteTensor* filter, const TfLiteTensor* bias,
                                const TfLiteTensor* output, int32_t channels,
                                const char* channel_word) {
  if (bias != nullptr && ElementCount(bias->dims) != channels) {
    MicroPrintf("%s: bias has %d elements, expected %d (one per %s)", op_name,
                static_cast<int>(ElementCount(bias->dims)), static_cast<int>(channels), channel_word);
    return kTfLiteError;
  }
  if (output->type != input->type) {
    MicroPrintf("%s: output type %s must match input type %s", op_name, TfLiteTypeName(output->type),
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) {
    if (CheckNotHybrid(op_name, "filter", filter) != kTfLiteOk) return kTfLiteError;
    if (EnsureType(op_name, "filter", filter, kTfLiteFloat32) != kTfLiteOk) return kTfLiteError;
    if (bias != nullptr) return EnsureType(op_name, "bias", bias, kTfLiteFloat32);
    return kTfLiteOk;
  }
  if (input->type != kTfLiteInt8 && input->type != kTfLiteInt16) {
    MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", op_name,
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  // int16 input: int8 weights only (16x8), like TFLM.
  return EnsureType(op_name, "filter", filter, kTfLiteInt8);
}

// FULLY_CONNECTED with a per-tensor filter: TFLite's rounding for that op.
static TfLiteStatus FullyConnectedPerTensorMultiplier(const char* op_name, const TfLiteTensor* input,
                                                      const TfLiteTensor* filter,
                                                      const TfLiteTensor* bias,
                                                      const TfLiteTensor* output, bool int16,
                                                      int32_t* multiplier, int* shift) {
  if (filter->params.zero_point != 0) {
    MicroPrintf("%s: int8 filter zero point must be 0 (symmetric weights), got %d", op_name,
                static_cast<int>(filter->params.zero_point));
    return kTfLiteError;
  }
  if (bias != nullptr && bias->type != kTfLiteInt32 && !(int16 && bias->type == kTfLiteInt64)) {
    return EnsureType(op_name, "bias", bias, int16 ? kTfLiteInt64 : kTfLiteInt32);
  }
  double real = 0.0;
  if (GetQuantizedConvolutionMultiplier(op_name, input, filter, output, &real) != kTfLiteOk) {
    return kTfLiteError;
  }
  QuantizeMultiplier(real, multiplier, shift);
  return kTfLiteOk;
}

// Int8Requantizer's fast path holds for this multiplier and shift.
static bool FastRequantizable(int32_t multiplier, int shift) {
  return multiplier != INT32_MIN && shift <= -1 && shift >= -kMaxFastRightShift;
}

// Elements of channel c of a filter whose channels run along `channel_dim`:
// [outer][c][inner], inner the dimensions after channel_dim, outer those before.
static void ChannelLayout(const TfLiteTensor* filter, int channel_dim, int64_t* outer, int64_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int d = 0; d < NumDimensions(filter); ++d) {
    if (d < channel_dim) *outer *= SizeOfDimension(filter, d);
    if (d > channel_dim) *inner *= SizeOfDimension(filter, d);
  }
}

TfLiteStatus CheckAccumulatorRange(const char* op_name, const TfLiteTensor* input,
                                   const TfLiteTensor* filter, const TfLiteTensor* bias,
                                   int channels, int channel_dim, bool bias_values) {
  const int32_t offset = -input->params.zero_point;
  const int64_t lo = -128 + offset;
  const int64_t hi = 127 + offset;
  const int64_t max_in = lo < 0 ? (-lo > hi ? -lo : hi) : hi;
  int64_t outer = 1;
  int64_t inner = 1;
  ChannelLayout(filter, channel_dim, &outer, &inner);
  const bool known_weights = filter->is_constant;
  const bool known_bias = bias != nullptr && (bias->is_constant || bias_values);
  for (int c = 0; c < channels; ++c) {
    int64_t weight_sum = 0;
    if (known_weights) {
      for (int64_t o = 0; o < outer; ++o) {
        const int8_t* w = filter->data.int8 + (o * channels + c) * inner;
        for (int64_t i = 0; i < inner; ++i) weight_sum += w[i] < 0 ? -static_cast<int32_t>(w[i]) : w[i];
      }
    } else {
      weight_sum = 128 * outer * inner;  // any int8 weight
    }
    int64_t reach = max_in * weight_sum;
    if (known_bias) {
      const int64_t b = bias->data.i32[c];
      reach += b < 0 ? -b : b;
    }
    if (reach > INT32_MAX) {
      MicroPrintf("%s: output channel %d can exceed 2^31-1 in the 32-bit accumulator (%s%s): "
                  "the result would be wrong (undefined in TFLM); split the layer or requantize it",
                  op_name, c, known_weights ? "from its weights" : "weights not constant: up to 128 each",
                  known_bias ? " and bias" : "");
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

#if MICRO_RUNTIME_CONSTANT_CHANNELS
// Int8ChannelQuant's ChannelFacts for a per-channel int8 layer with constant
// weights (and bias, if any), once q's multipliers, shifts and activation
// range are made. A channel's accumulator range is exact for any input: bias +
// lo * P + hi * N up to bias + hi * P + lo * N, with P and N the sums of its
// positive and negative weights and [lo, hi] the int8 range minus the input
// zero point (a padded tap adds 0, inside it). A channel whose range reaches
// 2^30 in magnitude is constant when the reference requantization gives the
// same output at both ends: with a multiplier >= 0 and a right shift (rounding
// half away from zero), the zero point and the clamp, it never decreases as
// the accumulator grows. No overflow: CheckAccumulatorRange bounds every
// accumulator by 2^31 - 1. The facts are kept only where a kernel gains from
// them: a constant channel, or an exact reach below 2^30 where the kernels'
// own bound (the largest |bias| + taps * 255 * 128) is not.
static TfLiteStatus FindConstantChannels(TfLiteContext* context, const TfLiteTensor* input,
                                         const TfLiteTensor* filter, const TfLiteTensor* bias, int channels,
                                         int channel_dim, Int8ChannelQuant* q) {
  q->facts = nullptr;
  const bool int32_bias = bias != nullptr && bias->is_constant && bias->type == kTfLiteInt32;
  if (!filter->is_constant || filter->type != kTfLiteInt8 || (bias != nullptr && !int32_bias)) return kTfLiteOk;
  const int64_t lo = -128 - static_cast<int64_t>(input->params.zero_point);
  const int64_t hi = 127 - static_cast<int64_t>(input->params.zero_point);
  int64_t outer = 1;
  int64_t inner = 1;
  ChannelLayout(filter, channel_dim, &outer, &inner);
  constexpr int64_t kBound = int64_t{1} << 30;
  // One pass: each constant channel into the table (made at the first one), the others' exact reach and the
  // kernels' own bound; the facts without a table afterwards where only the reach gains.
  const int words = (channels + 31) >> 5;
  ChannelFacts* facts = nullptr;
  int64_t layer_reach = 0;
  int64_t largest_bias = 0;
  for (int c = 0; c < channels; ++c) {
    const int32_t m = q->multiplier_of(c);
    if (m == 0) continue;  // the output is the zero point whatever the accumulator
    int32_t positive = 0;
    int32_t negative = 0;
    for (int64_t o = 0; o < outer; ++o) {
      const int8_t* w = filter->data.int8 + (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) (w[i] < 0 ? negative : positive) += w[i];
    }
    const int64_t b = bias != nullptr ? bias->data.i32[c] : 0;
    const int64_t least = b + lo * positive + hi * negative;
    const int64_t most = b + hi * positive + lo * negative;
    const int shift = q->shift_of(c);
    if (m > 0 && m != INT32_MIN && shift <= 0 && (-least >= kBound || most >= kBound)) {
      auto out = [&](int64_t acc) {
        const int32_t v = MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), m, shift) + q->output_offset;
        return v < q->act_min ? q->act_min : (v > q->act_max ? q->act_max : v);
      };
      const int32_t value = out(least);
      if (out(most) == value) {
        if (facts == nullptr) {  // the first constant channel: the facts with a bit and a byte per channel
          facts = static_cast<ChannelFacts*>(context->AllocatePersistentBuffer(
              context, sizeof(ChannelFacts) + static_cast<size_t>(words) * sizeof(uint32_t) +
                           static_cast<size_t>(channels)));
          if (facts == nullptr) return kTfLiteError;
          facts->words = words;
          uint32_t* mask = reinterpret_cast<uint32_t*>(facts + 1);
          for (int i = 0; i < words; ++i) mask[i] = 0;
        }
        uint32_t* mask = reinterpret_cast<uint32_t*>(facts + 1);
        mask[c >> 5] |= 1u << (c & 31);
        reinterpret_cast<int8_t*>(mask + words)[c] = static_cast<int8_t>(value);
        continue;
      }
    }
    const int64_t reach = -least > most ? -least : most;
    if (reach > layer_reach) layer_reach = reach;
    if ((b < 0 ? -b : b) > largest_bias) largest_bias = b < 0 ? -b : b;
  }
  if (facts == nullptr) {
    const bool bound_too_wide = largest_bias + outer * inner * 255 * 128 >= kBound && layer_reach < kBound;
    if (!bound_too_wide) return kTfLiteOk;
    facts = static_cast<ChannelFacts*>(context->AllocatePersistentBuffer(context, sizeof(ChannelFacts)));
    if (facts == nullptr) return kTfLiteError;
    facts->words = 0;
  }
  facts->reach = static_cast<int32_t>(layer_reach);  // <= 2^31 - 1: CheckAccumulatorRange
  q->facts = facts;
  return kTfLiteOk;
}
#endif

TfLiteStatus PrepareInt8ChannelQuant(const char* op_name, TfLiteContext* context,
                                     const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output,
                                     TfLiteFusedActivation activation, int channels,
                                     int channel_dim, unsigned options, Int8ChannelQuant* q) {
  // The model verifier keeps zero points inside their type's range; hand-made
  // tensors (kernel tests) are held to the same rule.
  const int32_t input_zp = input->params.zero_point;
  const int32_t output_zp = output->params.zero_point;
  const bool int16 = (options & kInt16Activations) != 0;
  if (int16 && (input_zp != 0 || output_zp != 0)) {
    MicroPrintf("%s: int16 input and output must have zero point 0 (symmetric), got %d and %d", op_name,
                static_cast<int>(input_zp), static_cast<int>(output_zp));
    return kTfLiteError;
  }
  if (input_zp < -128 || input_zp > 127 || output_zp < -128 || output_zp > 127) {
    MicroPrintf("%s: int8 zero points must lie in [-128, 127], got input %d and output %d", op_name,
                static_cast<int>(input_zp), static_cast<int>(output_zp));
    return kTfLiteError;
  }
  q->multipliers = nullptr;
  q->shifts = nullptr;
  q->multiplier = 0;
  q->shift = 0;
  q->flags = 0;
  q->input_offset = static_cast<int16_t>(-input_zp);
  q->output_offset = static_cast<int16_t>(output_zp);
  const TfLiteFloatArray* scales = filter->params.scales;
  const bool per_channel = scales != nullptr && scales->size > 1;
  bool fast = true;
  int shift = 0;
  if ((options & kFullyConnectedRounding) != 0 && !per_channel) {
    TF_LITE_ENSURE_OK(context, FullyConnectedPerTensorMultiplier(op_name, input, filter, bias, output,
                                                                 int16, &q->multiplier, &shift));
    q->shift = static_cast<int8_t>(shift);
    fast = FastRequantizable(q->multiplier, shift);
  } else {
    TF_LITE_ENSURE_OK(context, CheckConvolutionQuantization(op_name, input, filter, bias, output,
                                                            channels, channel_dim, int16));
    if (per_channel) {
      // One allocation: the multipliers, then the shifts (QuantizeMultiplier
      // keeps shifts in [-31, 30]). Out of memory is reported by the caller.
      const size_t count = static_cast<size_t>(channels);
      int32_t* multipliers = static_cast<int32_t*>(
          context->AllocatePersistentBuffer(context, count * (sizeof(int32_t) + sizeof(int8_t))));
      if (multipliers == nullptr) return kTfLiteError;
      int8_t* shifts = reinterpret_cast<int8_t*>(multipliers + count);
      for (int c = 0; c < channels; ++c) {
        ConvolutionMultiplier(input, scales->data[c], output, &multipliers[c], &shift);
        shifts[c] = static_cast<int8_t>(shift);
        fast = fast && FastRequantizable(multipliers[c], shift);
      }
      q->multipliers = multipliers;
      q->shifts = shifts;
      q->flags = Int8ChannelQuant::kPerChannel;
    } else {
      const float fs = scales != nullptr && scales->size == 1 ? scales->data[0] : filter->params.scale;
      ConvolutionMultiplier(input, fs, output, &q->multiplier, &shift);
      q->shift = static_cast<int8_t>(shift);
      fast = FastRequantizable(q->multiplier, shift);
    }
  }
  if (int16) {
    // The 16x8 evals take the int16 activation range from the tensors
    // (PrepareInt16FilterEval); checked here so prepare reports a bad one.
    q->act_min = 0;
    q->act_max = 0;
    Int16FilterEval e;
    return PrepareInt16FilterEval(bias, output, activation, &e);
  }
  TF_LITE_ENSURE_OK(context, CheckAccumulatorRange(op_name, input, filter, bias, channels, channel_dim, false));
  int32_t act_min = 0;
  int32_t act_max = 0;
  TF_LITE_ENSURE_OK(context, CalculateActivationRangeQuantized(activation, output, &act_min, &act_max));
  // Inside [-128, 127]: the output is int8 (CheckFilterOpTypes).
  q->act_min = static_cast<int8_t>(act_min);
  q->act_max = static_cast<int8_t>(act_max);
  if (fast) q->flags = static_cast<uint8_t>(q->flags | Int8ChannelQuant::kFastRequantize);
#if MICRO_RUNTIME_CONSTANT_CHANNELS
  if (per_channel) TF_LITE_ENSURE_OK(context, FindConstantChannels(context, input, filter, bias, channels, channel_dim, q));
#endif
  return kTfLiteOk;
}

TfLiteStatus PrepareInt16FilterEval(const TfLiteTensor* bias, const TfLiteTensor* output,
                                    TfLiteFusedActivation activation, Int16FilterEval* e,
                                    TfLiteType quantized_bias_type) {
  e->bias = bias != nullptr ? bias->data.raw : nullptr;
  e->int32_accumulator = bias != nullptr ? bias->type == kTfLiteInt32 : quantized_bias_type == kTfLiteInt32;
  return CalculateActivationRangeQuantized(activation, output, &e->act_min, &e->act_max);
}

int16_t RequantizeInt16(const Int8ChannelQuant& q, const Int16FilterEval& e, uint64_t sum, int c) {
  int64_t v;
  if (e.int32_accumulator) {
    uint32_t acc = static_cast<uint32_t>(sum);
    if (e.bias != nullptr) acc += static_cast<uint32_t>(static_cast<const int32_t*>(e.bias)[c]);
    v = MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), q.multiplier_of(c), q.shift_of(c));
  } else {
    if (e.bias != nullptr) sum += static_cast<uint64_t>(LoadInt64(e.bias, c));
    v = MultiplyByQuantizedMultiplierInt64(static_cast<int64_t>(sum), q.multiplier_of(c), q.shift_of(c));
  }
  return static_cast<int16_t>(v < e.act_min ? e.act_min : (v > e.act_max ? e.act_max : v));
}

}  // namespace micro_runtime
