// Shared by the filter ops (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
// TRANSPOSE_CONV): their tensors and type checks, the per-channel int8
// requantization prepared once (Int8ChannelQuant) and applied per output
// (RequantizeToInt8, Int8Requantizer), the int32 accumulator range check, and
// the 16x8 (int16 activations, int8 weights) requantization.
#ifndef MICRO_RUNTIME_KERNELS_FILTER_OP_UTIL_H_
#define MICRO_RUNTIME_KERNELS_FILTER_OP_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

// FULLY_CONNECTED's per-tensor multiplier, computed like TFLite does for it:
// float(input_scale * filter_scale) widened to double, divided by the output
// scale (slightly different rounding from the per-channel path).
TfLiteStatus GetQuantizedConvolutionMultiplier(const char* op_name, const TfLiteTensor* input,
                                               const TfLiteTensor* filter,
                                               const TfLiteTensor* output, double* multiplier);

// Returns an error with a clear message unless `t` has type `expected`
// (the filter ops, SVDF and LSTM check their weights and biases with it).
TfLiteStatus EnsureType(const char* op_name, const char* what, const TfLiteTensor* t,
                        TfLiteType expected);

// For an op with a float32 input: an int8 or uint8 `weights` tensor (`what`
// names it) makes a hybrid (dynamic-range quantized) model, which is refused
// with a message saying so.
TfLiteStatus CheckNotHybrid(const char* op_name, const char* what, const TfLiteTensor* weights);

// Input 0, filter 1, optional bias 2 (nullptr when the node has 2 inputs or
// input 2 is -1) and output 0 of a node with 2-3 inputs and 1 output; logs
// and fails on any other count or a missing tensor.
TfLiteStatus GetFilterOpTensors(const char* op_name, TfLiteContext* context, const TfLiteNode* node,
                                const TfLiteTensor** input, const TfLiteTensor** filter,
                                const TfLiteTensor** bias, const TfLiteTensor** output);

// Bias tensor of a filter op at invoke (prepare has checked the counts).
inline const TfLiteTensor* GetOptionalBias(TfLiteContext* context, const TfLiteNode* node) {
  return NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
}

// Checks that the bias (if any) has one element per output channel, that the
// output type equals the input type and that filter and bias types fit it:
// float32 input -> float32 filter and bias; int8 or int16 input -> int8
// filter (the quantized bias type is checked by PrepareInt8ChannelQuant). `channel_word` names
// an output channel in the message ("output channel", "unit").
TfLiteStatus CheckFilterOpTypes(const char* op_name, const TfLiteTensor* input,
                                const TfLiteTensor* filter, const TfLiteTensor* bias,
                                const TfLiteTensor* output, int32_t channels,
                                const char* channel_word);

// Prepared int8 state of a filter op (CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED). A per-tensor filter scale needs one multiplier and shift,
// held here; only a per-channel filter gets arrays in the arena (an int32
// multiplier and an int8 shift per output channel, one allocation).
// Builds for cores with the DSP extension find the constant channels of a
// per-channel layer and its exact accumulator reach (ChannelFacts), for the
// arm_dsp kernels' one-multiply requantization; other builds neither compute
// nor store them.
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define MICRO_RUNTIME_CONSTANT_CHANNELS 1
#else
#define MICRO_RUNTIME_CONSTANT_CHANNELS 0
#endif
// The same builds classify a CONV_2D or DEPTHWISE_CONV_2D layer once in prepare for their int8 eval
// (ConvInt8LayerClass, DepthwiseInt8LayerClass) and keep the class in the op data; the others' op data and
// prepare stay as they were (bluepill's all-ops test fills its flash to a few bytes).
#define MICRO_RUNTIME_LAYER_CLASS MICRO_RUNTIME_CONSTANT_CHANNELS

// The int8 class prepare kept in op data `d` (ConvOpData, DepthwiseOpData), or -1 in builds that keep none (the
// arm_dsp kernels built for the host, make TARGET=host TAGS=arm_dsp): their eval then finds it per Invoke.
template <typename OpData>
inline int PreparedInt8ClassOf(const OpData& d) {
#if MICRO_RUNTIME_LAYER_CLASS
  return d.int8_class;
#else
  (void)d;
  return -1;
#endif
}

#if MICRO_RUNTIME_CONSTANT_CHANNELS
// What prepare proved about a per-channel layer's accumulators from its
// weights, bias and input zero point (FindConstantChannels), in the
// persistent arena: `reach`, the largest |accumulator| of the channels with a
// multiplier that are not constant; then `words` words of a bit per channel,
// set for a constant channel (an accumulator that can reach 2^30 in magnitude
// yet one output for every input: VWW's nearly-dead channels, a bias near 2^30
// times a scale ratio near 2^-31), then one int8 per channel: that output
// (the reference requantization's at every accumulator the channel can reach).
struct ChannelFacts {
  int32_t reach;
  int32_t words;  // 0: no constant channel
  const uint32_t* mask() const { return reinterpret_cast<const uint32_t*>(this + 1); }
  int8_t value(int c) const { return reinterpret_cast<const int8_t*>(mask() + words)[c]; }
};
#endif

struct Int8ChannelQuant {
  const int32_t* multipliers;  // per output channel; nullptr for a per-tensor filter
  const int8_t* shifts;        // per output channel; nullptr for a per-tensor filter
  union {
    int32_t multiplier;  // the per-tensor filter's multiplier
#if MICRO_RUNTIME_CONSTANT_CHANNELS
    // A per-channel filter's facts (its multiplier field is unused), nullptr
    // where prepare found nothing a kernel could use. 32-bit targets: the
    // pointer takes the multiplier's place, so the op data does not grow.
    const ChannelFacts* facts;
#endif
  };
  int16_t input_offset;        // -input zero point: in [-127, 128] (int8 zero points only)
  int16_t output_offset;       // +output zero point
  int8_t act_min;              // activation range, inside int8
  int8_t act_max;
  int8_t shift;                // the per-tensor filter's shift
  uint8_t flags;               // kPerChannel | kFastRequantize

  static constexpr uint8_t kPerChannel = 1u;
  // Set by PrepareInt8ChannelQuant for Int8Requantizer's fast path: every
  // channel's shift is in [-kMaxFastRightShift, -1] (right shift only), no
  // multiplier is INT32_MIN and the output zero point is in [-128, 127].
  static constexpr uint8_t kFastRequantize = 2u;

#if MICRO_RUNTIME_CONSTANT_CHANNELS
  const ChannelFacts* channel_facts() const { return per_channel() ? facts : nullptr; }
  bool constant(int c) const {
    const ChannelFacts* f = channel_facts();
    return f != nullptr && f->words != 0 && ((f->mask()[c >> 5] >> (c & 31)) & 1u) != 0;
  }
  int8_t constant_value(int c) const { return facts->value(c); }  // for a constant(c) channel
  // The exact reach of the non-constant channels, or -1 (not known: use a bound of your own).
  int32_t reach() const {
    const ChannelFacts* f = channel_facts();
    return f != nullptr ? f->reach : -1;
  }
#else
  bool constant(int) const { return false; }
  int8_t constant_value(int) const { return 0; }
  int32_t reach() const { return -1; }
#endif

  bool per_channel() const { return (flags & kPerChannel) != 0; }
  bool fast_requantize() const { return (flags & kFastRequantize) != 0; }
  int32_t multiplier_of(int c) const { return per_channel() ? multipliers[c] : multiplier; }
  int shift_of(int c) const { return per_channel() ? shifts[c] : shift; }
};

// Options of PrepareInt8ChannelQuant.
enum Int8QuantOptions : unsigned {
  // A per-tensor filter scale uses FULLY_CONNECTED's multiplier rounding
  // (GetQuantizedConvolutionMultiplier) instead of the per-channel one.
  kFullyConnectedRounding = 2u,
  // int16 activations with int8 weights (16x8): zero points must be 0, the
  // bias may be int64 (or int32), no int32 accumulator check (the 16x8 eval
  // accumulates in 64 bits), and the int8 activation range fields are unused
  // (Int16FilterEval has the int16 range).
  kInt16Activations = 4u,
};

// Checks the int8 quantization of a filter op with `channels` output
// channels and fills `q`: offsets, activation range and the multipliers and
// shifts for input_scale * filter_scale[c] / output_scale. Per-channel
// filter scales (along filter dimension `channel_dim`: 0 for CONV_2D and
// FULLY_CONNECTED, 3 for DEPTHWISE_CONV_2D) get per-channel arrays from the
// arena; a per-tensor scale is kept in `q` itself (FULLY_CONNECTED's
// rounding with kFullyConnectedRounding). Logs `op_name` in every error.
TfLiteStatus PrepareInt8ChannelQuant(const char* op_name, TfLiteContext* context,
                                     const TfLiteTensor* input, const TfLiteTensor* filter,
                                     const TfLiteTensor* bias, const TfLiteTensor* output,
                                     TfLiteFusedActivation activation, int channels,
                                     int channel_dim, unsigned options, Int8ChannelQuant* q);

// The int32 accumulator of an int8 filter op (CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED) holds bias[c] + sum (input + input_offset) * filter: it
// must not overflow for any input. Checks, per output channel (filter
// dimension `channel_dim`), |bias[c]| + max|input + offset| * sum|filter| <=
// INT32_MAX, with the real weights when the filter is constant (128 per weight
// otherwise) and the real bias when it is constant (called at Prepare, with
// `bias_values` false, for a bias that is not: then again at every Invoke with
// `bias_values` true, as the values arrive). Refuses with the channel and the
// reachable value instead of computing a wrong result (or UB, as TFLM would).
TfLiteStatus CheckAccumulatorRange(const char* op_name, const TfLiteTensor* input,
                                   const TfLiteTensor* filter, const TfLiteTensor* bias,
                                   int channels, int channel_dim, bool bias_values);

// At Invoke: CheckAccumulatorRange with the bias values when the bias is not a
// constant of the model (nothing to do otherwise: Prepare checked it).
inline TfLiteStatus CheckVariableBiasRange(const char* op_name, const TfLiteTensor* input,
                                           const TfLiteTensor* filter, const TfLiteTensor* bias,
                                           int channels, int channel_dim) {
  if (bias == nullptr || bias->is_constant) return kTfLiteOk;
  return CheckAccumulatorRange(op_name, input, filter, bias, channels, channel_dim, true);
}

// Accumulator of output channel c -> int8 output value.
inline int8_t RequantizeToInt8(const Int8ChannelQuant& q, int32_t acc, int c) {
  const int32_t v = MultiplyByQuantizedMultiplier(acc, q.multiplier_of(c), q.shift_of(c)) + q.output_offset;
  return static_cast<int8_t>(ClampInt32(v, q.act_min, q.act_max));
}


// ---- 16x8 filter ops (int16 activations, int8 weights) ----

// What a 16x8 eval needs besides the prepared Int8ChannelQuant (multipliers
// and shifts): the bias (int64, read with LoadInt64, or int32, for which
// TFLM accumulates in int32) and the int16 activation range, both taken from
// the tensors at eval so the op data stays the int8 layout.
struct Int16FilterEval {
  const void* bias;  // nullptr: no bias
  bool int32_accumulator;  // an int32 bias, or none with quantized_bias_type int32
  int32_t act_min;
  int32_t act_max;
};

// Fills `e` from the bias and output tensors and the fused activation. TFLM
// accumulates in int32 (the int32 MultiplyByQuantizedMultiplier) when the
// bias is int32, or when there is no bias and the options' quantized_bias_type
// (CONV_2D, FULLY_CONNECTED) says int32; otherwise in int64.
TfLiteStatus PrepareInt16FilterEval(const TfLiteTensor* bias, const TfLiteTensor* output,
                                    TfLiteFusedActivation activation, Int16FilterEval* e,
                                    TfLiteType quantized_bias_type = kTfLiteNoType);

// The 64-bit sum of input * filter of output channel c (wrapping: the
// reference's sum modulo 2^64), plus the bias, requantized to int16 like
// TFLM: an int32 accumulator (the sum modulo 2^32) and the int32
// MultiplyByQuantizedMultiplier, or int64 and
// MultiplyByQuantizedMultiplierInt64 (see PrepareInt16FilterEval); then the
// activation clamp.
int16_t RequantizeInt16(const Int8ChannelQuant& q, const Int16FilterEval& e, uint64_t sum, int c);

// Largest right shift of Int8Requantizer's fast path (see its comment).
constexpr int kMaxFastRightShift = 22;

// RequantizeToInt8 for kernel loops, same results. The op's fields are copied
// into the object once (int8 output stores may alias the Int8ChannelQuant, so
// a loop would reload them after every output).
//
// Fast path (q.fast_requantize, decided in prepare: right shifts r in [1, 22],
// no left shift, zero point in int8), about 20 instructions per output:
//   x = (acc * m + 2^30) >> 31        the doubling high multiply (m != INT32_MIN: no saturation)
//   t = (x - (x < 0)) +sat ((2 zp + 1) << r) / 2     that is, + 2^(r-1) + (zp << r)
//   out = clamp(t >> r, act_min, act_max)
// Rounding x / 2^r to nearest with ties away from zero is
// floor((x + 2^(r-1) - (x < 0)) / 2^r), and adding zp << r before the floor
// adds zp after it. x - (x < 0) cannot wrap (x >= -2^31 + 1). When the add
// saturates the true sum is beyond int32, and both it and the saturated value
// shifted by r <= 22 lie beyond +-511, outside the activation range (inside
// int8), so the clamp gives the same output. |2 zp + 1| << 22 < 2^31; the reference's +-2^29 bound
// (kMaxRequantized) is inside the same margin. Other ops take the general
// path: the 2^29 bound merged into the activation clamp when the zero point
// allows, else RequantizeToInt8.
class Int8Requantizer {
 public:
  explicit Int8Requantizer(const Int8ChannelQuant& q)
      : q_(&q), multipliers_(q.multipliers), shifts_(q.shifts),
        mode_(!q.fast_requantize() ? kGeneral : (q.per_channel() ? kFastChannels : kFastTensor)),
        multiplier_(q.multiplier), shift_(q.shift), offset_(q.output_offset), round_base_(2 * q.output_offset + 1),
        act_min_(q.act_min), act_max_(q.act_max) {
    const int64_t lo = static_cast<int64_t>(q.act_min) - q.output_offset;
    const int64_t hi = static_cast<int64_t>(q.act_max) - q.output_offset;
    merged_ = lo >= -kMaxRequantized && hi <= kMaxRequantized && lo <= hi;
    lo_ = merged_ ? static_cast<int32_t>(lo) : 0;
    hi_ = merged_ ? static_cast<int32_t>(hi) : 0;
  }
  int8_t operator()(int32_t acc, int c) const {
    // Per-channel filters first: CONV_2D and DEPTHWISE_CONV_2D layers are.
    if (__builtin_expect(mode_ == kFastChannels, 1)) return Fast(acc, multipliers_[c], shifts_[c]);
    if (mode_ == kFastTensor) return Fast(acc, multiplier_, shift_);
    return General(acc, c);
  }

 private:
  enum Mode : uint8_t { kFastChannels, kFastTensor, kGeneral };

  int8_t Fast(int32_t acc, int32_t m, int shift) const {
    const int r = -shift;
    const int64_t ab = static_cast<int64_t>(acc) * m;
    const int32_t x = static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
    const int32_t t = SaturatingAddInt32(x - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31),
                                         static_cast<int32_t>(static_cast<uint32_t>(round_base_) << r) >> 1);
    return static_cast<int8_t>(ClampInt32(t >> r, act_min_, act_max_));
  }

  __attribute__((noinline)) int8_t General(int32_t acc, int c) const {
    const bool per_channel = multipliers_ != nullptr;
    const int32_t m = per_channel ? multipliers_[c] : multiplier_;
    const int32_t shift = per_channel ? shifts_[c] : shift_;
    if (!merged_ || m == INT32_MIN) return RequantizeToInt8(*q_, acc, c);
    const int left = shift > 0 ? shift : 0;
    const int right = shift > 0 ? 0 : -shift;
    // m != INT32_MIN: SaturatingRoundingDoublingHighMul never saturates.
    const int64_t ab = static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(acc) << left)) * m;
    const int32_t v = RoundingDivideByPOT(static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31), right);
    return static_cast<int8_t>(ClampInt32(v, lo_, hi_) + offset_);
  }

  const Int8ChannelQuant* q_;
  const int32_t* multipliers_;
  const int8_t* shifts_;
  Mode mode_;
  int32_t multiplier_;
  int32_t shift_;
  int32_t offset_;
  int32_t round_base_;
  int32_t act_min_;
  int32_t act_max_;
  int32_t lo_;
  int32_t hi_;
  bool merged_;
};

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_FILTER_OP_UTIL_H_
