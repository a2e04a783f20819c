// SVDF: a fully connected layer over the last M inputs, factored into rank
// R filters per output unit (singular value decomposition filter).
//   input            [B, I]
//   weights_feature  [F, I]      F = units * R filters
//   weights_time     [F, M]
//   bias             [units]     optional (index -1)
//   activation_state [B, F * M]  variable tensor: filter f's last M feature
//                                values, oldest first, kept across Invoke()
//   output           [B, units]
// Each Invoke() moves every filter's memory one step back (the oldest value
// drops out), stores feature[b, f] = weights_feature[f] . input[b] as the
// newest, then
//   output[b, u] = act(bias[u] + sum over r < R, m < M of
//                      weights_time[u*R + r, m] * state[b, u*R + r, m]).
//
// float32; and TFLM's integer SVDF: int8 input and output, int8
// weights_feature, int16 (or int8) weights_time with a state of the same
// type, int32 bias. Its arithmetic, step by step (bit-exact):
//   feature = requantize(sum wf * (in - in_zp), in_scale * wf_scale / state_scale),
//             clamped to the state type, + state_zp
//   time    = sum wt * (state - state_zp)                   (int32)
//   output  = requantize(bias + sum over the unit's filters of time,
//             state_scale * wt_scale / output_scale) + out_zp, clamped to int8
// with both scale ratios formed in float (TFLM's order), then widened. The
// integer kernel ignores the fused activation, as TFLM's and LiteRT's do (the
// converter puts a RELU into the output's range). The time sums are taken
// modulo 2^32: int16 weights times an int16 state can leave int32 over a long
// memory, where TFLM's int32 arithmetic wraps on every target it runs on (and
// is undefined in C++); ours is defined and gives the same bits.
//
// Hybrid models (float32 input, int8 weights) are refused, as in TFLM.
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "SVDF";
constexpr int kInput = 0;
constexpr int kWeightsFeature = 1;
constexpr int kWeightsTime = 2;
constexpr int kBias = 3;
constexpr int kState = 4;

struct OpData {
  int32_t batches, input_size, filters, units, memory, rank;
  int32_t feature_multiplier;  // input * weights_feature -> state
  int32_t output_multiplier;   // state * weights_time -> output
  int32_t feature_shift;
  int32_t output_shift;
  int32_t input_zero_point;
  int32_t state_zero_point;
  int32_t output_zero_point;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

// Logs and fails unless `t` is the 2-D shape [d0, d1].
TfLiteStatus CheckShape(const char* what, const TfLiteTensor* t, int32_t d0, int64_t d1) {
  if (NumDimensions(t) != 2) {
    MicroPrintf("%s: %s must be 2-D, got rank %d", kOp, what, NumDimensions(t));
    return kTfLiteError;
  }
  if (SizeOfDimension(t, 0) != d0 || SizeOfDimension(t, 1) != d1) {
    MicroPrintf("%s: %s is [%d, %d], expected [%d, %d]", kOp, what, static_cast<int>(SizeOfDimension(t, 0)),
                static_cast<int>(SizeOfDimension(t, 1)), static_cast<int>(d0), static_cast<int>(d1));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Scale of a weights tensor; fails on per-channel scales (TFLM's SVDF reads
// one scale) and on an asymmetric (zero point != 0) quantization.
TfLiteStatus PerTensorWeightScale(const char* what, const TfLiteTensor* t, float* scale) {
  if (t->params.scales != nullptr && t->params.scales->size > 1) {
    MicroPrintf("%s: %s has %d per-channel scales; SVDF weights take one (per-tensor) scale", kOp, what,
                static_cast<int>(t->params.scales->size));
    return kTfLiteError;
  }
  if (t->params.zero_point != 0) {
    MicroPrintf("%s: %s zero point must be 0 (symmetric weights), got %d", kOp, what,
                static_cast<int>(t->params.zero_point));
    return kTfLiteError;
  }
  *scale = t->params.scale;
  return kTfLiteOk;
}

TfLiteStatus CheckZeroPoint(const char* what, int32_t zero_point, int32_t lo, int32_t hi) {
  if (zero_point >= lo && zero_point <= hi) return kTfLiteOk;
  MicroPrintf("%s: %s zero point %d is outside [%d, %d]", kOp, what, static_cast<int>(zero_point),
              static_cast<int>(lo), static_cast<int>(hi));
  return kTfLiteError;
}

TfLiteStatus PrepareFloat(const TfLiteSVDFParams* params, const TfLiteTensor* weights_time,
                          const TfLiteTensor* bias, const TfLiteTensor* state, const TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "weights_time", weights_time, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "activation_state", state, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "output", output, kTfLiteFloat32));
  if (bias != nullptr) TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "bias", bias, kTfLiteFloat32));
  if (params->activation > kTfLiteActRelu6) {
    MicroPrintf("%s: fused activation %d is not supported (use NONE, RELU, RELU_N1_TO_1 or RELU6)", kOp,
                static_cast<int>(params->activation));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareInt8(OpData* data, const TfLiteTensor* input, const TfLiteTensor* weights_feature,
                         const TfLiteTensor* weights_time, const TfLiteTensor* bias, const TfLiteTensor* state,
                         const TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "output", output, kTfLiteInt8));
  if (weights_time->type != kTfLiteInt16 && weights_time->type != kTfLiteInt8) {
    MicroPrintf("%s: weights_time of an int8 SVDF must be int16 or int8, got %s", kOp,
                TfLiteTypeName(weights_time->type));
    return kTfLiteError;
  }
  if (state->type != weights_time->type) {
    MicroPrintf("%s: activation_state has type %s; it must have weights_time's type %s", kOp,
                TfLiteTypeName(state->type), TfLiteTypeName(weights_time->type));
    return kTfLiteError;
  }
  if (bias != nullptr) TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "bias", bias, kTfLiteInt32));
  float feature_scale = 0.0f;
  float time_scale = 0.0f;
  TF_LITE_ENSURE_OK(nullptr, PerTensorWeightScale("weights_feature", weights_feature, &feature_scale));
  TF_LITE_ENSURE_OK(nullptr, PerTensorWeightScale("weights_time", weights_time, &time_scale));
  const float input_scale = input->params.scale;
  const float state_scale = state->params.scale;
  const float output_scale = output->params.scale;
  if (!(input_scale > 0.0f) || !(feature_scale > 0.0f) || !(time_scale > 0.0f) || !(state_scale > 0.0f) ||
      !(output_scale > 0.0f)) {
    MicroPrintf("%s: input, weights_feature, weights_time, activation_state and output need positive scales "
                "(got %.9f, %.9f, %.9f, %.9f, %.9f)",
                kOp, static_cast<double>(input_scale), static_cast<double>(feature_scale),
                static_cast<double>(time_scale), static_cast<double>(state_scale),
                static_cast<double>(output_scale));
    return kTfLiteError;
  }
  const bool int16_state = state->type == kTfLiteInt16;
  TF_LITE_ENSURE_OK(nullptr, CheckZeroPoint("input", input->params.zero_point, -128, 127));
  TF_LITE_ENSURE_OK(nullptr, CheckZeroPoint("output", output->params.zero_point, -128, 127));
  TF_LITE_ENSURE_OK(nullptr, CheckZeroPoint("activation_state", state->params.zero_point,
                                            int16_state ? -32768 : -128, int16_state ? 32767 : 127));
  // The bias is in units of state * weights_time, as TFLM requires.
  const float bias_scale = state_scale * time_scale;
  if (bias != nullptr) {
    const double difference = static_cast<double>(bias->params.scale) - static_cast<double>(bias_scale);
    if (!(difference < 1e-5 && difference > -1e-5)) {
      MicroPrintf("%s: bias scale %.9f must be activation_state scale x weights_time scale (%.9f)", kOp,
                  static_cast<double>(bias->params.scale), static_cast<double>(bias_scale));
      return kTfLiteError;
    }
  }
  // The feature dot products stay in int32 for any input (TFLM's would
  // overflow otherwise).
  TF_LITE_ENSURE_OK(nullptr, CheckAccumulatorRange(kOp, input, weights_feature, nullptr, data->filters, 0, false));
  // Both ratios in float, then widened (TFLM's order).
  const float feature_ratio = input_scale * feature_scale / state_scale;
  const float output_ratio = state_scale * time_scale / output_scale;
  int shift = 0;
  QuantizeMultiplier(static_cast<double>(feature_ratio), &data->feature_multiplier, &shift);
  data->feature_shift = shift;
  QuantizeMultiplier(static_cast<double>(output_ratio), &data->output_multiplier, &shift);
  data->output_shift = shift;
  data->input_zero_point = input->params.zero_point;
  data->state_zero_point = state->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteSVDFParams* params = static_cast<const TfLiteSVDFParams*>(node->builtin_data);
  if (NumInputs(node) != 5 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 5 inputs (input, weights_feature, weights_time, bias or -1, activation_state) and "
                "1 output, got %d and %d",
                kOp, NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* weights_feature = GetInput(context, node, kWeightsFeature);
  const TfLiteTensor* weights_time = GetInput(context, node, kWeightsTime);
  const TfLiteTensor* bias = GetInput(context, node, kBias);  // nullptr for index -1
  const TfLiteTensor* state = GetInput(context, node, kState);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input == nullptr || weights_feature == nullptr || weights_time == nullptr || state == nullptr ||
      output == nullptr) {
    MicroPrintf("%s: input, weights_feature, weights_time, activation_state and output are required", kOp);
    return kTfLiteError;
  }
  if (state->is_constant) {
    MicroPrintf("%s: activation_state (input %d) is a constant; it must be a variable tensor", kOp, kState);
    return kTfLiteError;
  }
  if (params->rank < 1) {
    MicroPrintf("%s: rank %d must be at least 1", kOp, static_cast<int>(params->rank));
    return kTfLiteError;
  }
  if (NumDimensions(input) != 2 || NumDimensions(weights_feature) != 2 || NumDimensions(weights_time) != 2) {
    MicroPrintf("%s: input, weights_feature and weights_time must be 2-D, got ranks %d, %d, %d", kOp,
                NumDimensions(input), NumDimensions(weights_feature), NumDimensions(weights_time));
    return kTfLiteError;
  }
  data->rank = params->rank;
  data->batches = SizeOfDimension(input, 0);
  data->input_size = SizeOfDimension(input, 1);
  data->filters = SizeOfDimension(weights_feature, 0);
  data->memory = SizeOfDimension(weights_time, 1);
  if (data->batches < 1 || data->input_size < 1 || data->filters < 1 || data->memory < 1) {
    MicroPrintf("%s: batches %d, input size %d, filters %d and memory size %d must all be at least 1", kOp,
                static_cast<int>(data->batches), static_cast<int>(data->input_size),
                static_cast<int>(data->filters), static_cast<int>(data->memory));
    return kTfLiteError;
  }
  if (data->filters % data->rank != 0) {
    MicroPrintf("%s: %d filters are not a multiple of rank %d", kOp, static_cast<int>(data->filters),
                static_cast<int>(data->rank));
    return kTfLiteError;
  }
  data->units = data->filters / data->rank;
  TF_LITE_ENSURE_OK(context,
                    CheckShape("weights_feature", weights_feature, data->filters, data->input_size));
  TF_LITE_ENSURE_OK(context, CheckShape("weights_time", weights_time, data->filters, data->memory));
  // int64: prepare runs before the arena plan bounds the shapes.
  TF_LITE_ENSURE_OK(context, CheckShape("activation_state", state, data->batches,
                                        static_cast<int64_t>(data->memory) * data->filters));
  TF_LITE_ENSURE_OK(context, CheckShape("output", output, data->batches, data->units));
  if (bias != nullptr && (NumDimensions(bias) != 1 || SizeOfDimension(bias, 0) != data->units)) {
    MicroPrintf("%s: bias must be 1-D with one element per unit (%d)", kOp, static_cast<int>(data->units));
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) {
    TF_LITE_ENSURE_OK(context, CheckNotHybrid(kOp, "weights_feature", weights_feature));
    TF_LITE_ENSURE_OK(context, EnsureType(kOp, "weights_feature", weights_feature, kTfLiteFloat32));
    return PrepareFloat(params, weights_time, bias, state, output);
  }
  if (input->type != kTfLiteInt8) {
    MicroPrintf("%s: input type %s not supported (use float32, or int8 with int8 weights_feature)", kOp,
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, EnsureType(kOp, "weights_feature", weights_feature, kTfLiteInt8));
  return PrepareInt8(data, input, weights_feature, weights_time, bias, state, output);
}

// Moves every filter's memory one step back; the slot of the newest value
// (index memory - 1 of each filter) is then written by the caller. One move
// over the whole state: what crosses from one filter into the previous one
// lands exactly in that newest slot.
template <typename T>
void ShiftState(const OpData& d, T* state) {
  const size_t count = static_cast<size_t>(d.batches) * static_cast<size_t>(d.filters) * d.memory;
  memmove(state, state + 1, (count - 1) * sizeof(T));
}

TfLiteStatus EvalFloat(const OpData& d, const TfLiteSVDFParams* params, const float* input,
                       const float* weights_feature, const float* weights_time, const float* bias, float* state,
                       float* output) {
  ShiftState(d, state);
  const int32_t m_count = d.memory;
  for (int32_t b = 0; b < d.batches; ++b) {
    const float* in = input + b * d.input_size;
    float* newest = state + static_cast<size_t>(b) * d.filters * m_count + (m_count - 1);
    for (int32_t f = 0; f < d.filters; ++f) {
      const float* w = weights_feature + f * d.input_size;
      float dot = 0.0f;  // in TFLM's order: from 0, one product at a time
      for (int32_t i = 0; i < d.input_size; ++i) dot += w[i] * in[i];
      newest[f * m_count] = dot;
    }
  }
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  for (int32_t b = 0; b < d.batches; ++b) {
    const float* s_batch = state + static_cast<size_t>(b) * d.filters * m_count;
    for (int32_t u = 0; u < d.units; ++u) {
      // TFLM sums each filter's memory from 0, then adds the filters of the
      // unit to the bias one by one: the same additions in the same order.
      float acc = bias != nullptr ? bias[u] : 0.0f;
      for (int32_t r = 0; r < d.rank; ++r) {
        const int32_t f = u * d.rank + r;
        const float* wt = weights_time + f * m_count;
        const float* s = s_batch + f * m_count;
        float sum = 0.0f;
        for (int32_t m = 0; m < m_count; ++m) sum += wt[m] * s[m];
        acc += sum;
      }
      output[b * d.units + u] = ClampFloat(acc, act_min, act_max);
    }
  }
  return kTfLiteOk;
}

// T: the type of weights_time and the state (int16 or int8).
template <typename T>
TfLiteStatus EvalInteger(const OpData& d, const int8_t* input, const int8_t* weights_feature, const T* weights_time,
                         const int32_t* bias, T* state, int8_t* output) {
  ShiftState(d, state);
  const int32_t m_count = d.memory;
  const int32_t state_min = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  const int32_t state_max = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  for (int32_t b = 0; b < d.batches; ++b) {
    const int8_t* in = input + b * d.input_size;
    T* newest = state + static_cast<size_t>(b) * d.filters * m_count + (m_count - 1);
    for (int32_t f = 0; f < d.filters; ++f) {
      const int8_t* w = weights_feature + f * d.input_size;
      int32_t dot = 0;  // bounded by prepare's CheckAccumulatorRange
      for (int32_t i = 0; i < d.input_size; ++i) dot += w[i] * (in[i] - d.input_zero_point);
      const int32_t v = MultiplyByQuantizedMultiplier(dot, d.feature_multiplier, d.feature_shift);
      // Clamped to the state type, then the zero point added and narrowed
      // (TFLM's order; wraps for an int8 state whose zero point pushes it out).
      newest[f * m_count] = static_cast<T>(ClampInt32(v, state_min, state_max) + d.state_zero_point);
    }
  }
  for (int32_t b = 0; b < d.batches; ++b) {
    const T* s_batch = state + static_cast<size_t>(b) * d.filters * m_count;
    for (int32_t u = 0; u < d.units; ++u) {
      uint32_t acc = bias != nullptr ? static_cast<uint32_t>(bias[u]) : 0u;  // modulo 2^32 (see the top)
      for (int32_t r = 0; r < d.rank; ++r) {
        const int32_t f = u * d.rank + r;
        const T* wt = weights_time + f * m_count;
        const T* s = s_batch + f * m_count;
        for (int32_t m = 0; m < m_count; ++m) {
          acc += static_cast<uint32_t>(wt[m]) * static_cast<uint32_t>(s[m] - d.state_zero_point);
        }
      }
      const int32_t v = MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), d.output_multiplier,
                                                      d.output_shift) +
                        d.output_zero_point;
      output[b * d.units + u] = static_cast<int8_t>(ClampInt32(v, INT8_MIN, INT8_MAX));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData& d = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* weights_feature = GetInput(context, node, kWeightsFeature);
  const TfLiteTensor* weights_time = GetInput(context, node, kWeightsTime);
  const TfLiteTensor* bias = GetInput(context, node, kBias);  // nullptr for index -1
  TfLiteTensor* state = GetInput(context, node, kState);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type == kTfLiteFloat32) {
    return EvalFloat(d, static_cast<const TfLiteSVDFParams*>(node->builtin_data), input->data.f,
                     weights_feature->data.f, weights_time->data.f, bias != nullptr ? bias->data.f : nullptr,
                     state->data.f, output->data.f);
  }
  const int32_t* bias_data = bias != nullptr ? bias->data.i32 : nullptr;
  if (state->type == kTfLiteInt16) {
    return EvalInteger<int16_t>(d, input->data.int8, weights_feature->data.int8, weights_time->data.i16,
                                bias_data, state->data.i16, output->data.int8);
  }
  return EvalInteger<int8_t>(d, input->data.int8, weights_feature->data.int8, weights_time->data.int8, bias_data,
                             state->data.int8, output->data.int8);
}

}  // namespace

TfLiteRegistration Register_SVDF() { return {Init, nullptr, Prepare, Eval}; }

}  // namespace micro_runtime
