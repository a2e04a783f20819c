// UNIDIRECTIONAL_SEQUENCE_LSTM: prepare's checks and quantization, and the
// integer cell update shared by the int8 (8x8) and int16 (16x8) evals.
// unidirectional_sequence_lstm.h describes the op.
#include <math.h>

#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/sigmoid_int16.h"
#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace micro_runtime {

namespace lstm {
namespace {

constexpr const char* kGateNames[kGates] = {"input", "forget", "cell", "output"};

// Scales TFLM fixes inside the integer LSTM: the gates' pre-activations are
// int16 at 2^-12 (Q3.12), their sigmoid/tanh outputs int16 at 2^-15 (Q0.15).
constexpr float kGateInputScale = 1.0f / 4096.0f;
constexpr float kGateOutputScale = 1.0f / 32768.0f;

// Logs "UNIDIRECTIONAL_SEQUENCE_LSTM: <what> ..." and fails.
TfLiteStatus Refuse(const char* what, const char* why) {
  MicroPrintf("%s: %s %s", kOp, what, why);
  return kTfLiteError;
}

// The optional parts of an LSTM TFLM's kernel does not compute: present
// tensors are refused by name.
TfLiteStatus CheckVariantTensors(TfLiteContext* context, const TfLiteNode* node) {
  for (int k = 0; k < 3; ++k) {
    if (GetInput(context, node, kPeepholeWeights + k) != nullptr) {
      return Refuse("peephole connections (cell-to-gate weights, inputs 9-11)",
                    "are not supported (TFLM's kernel computes the standard LSTM only)");
    }
  }
  if (GetInput(context, node, kProjectionWeights) != nullptr || GetInput(context, node, kProjectionBias) != nullptr) {
    return Refuse("a projection layer (inputs 16-17)", "is not supported (TFLM's kernel computes the standard LSTM only)");
  }
  for (int k = 0; k < kGates; ++k) {
    if (GetInput(context, node, kLayerNormWeights + k) != nullptr) {
      return Refuse("layer normalization (inputs 20-23)",
                    "is not supported (TFLM's kernel computes the standard LSTM only)");
    }
  }
  // CIFG (coupled input and forget gate): no input gate tensors.
  if (GetInput(context, node, kInputWeights + kInputGate) == nullptr ||
      GetInput(context, node, kRecurrentWeights + kInputGate) == nullptr ||
      GetInput(context, node, kGateBias + kInputGate) == nullptr) {
    return Refuse("CIFG (no input gate: input 1, 5 or 12 absent)",
                  "is not supported (TFLM's kernel needs all four gates)");
  }
  for (int k = 0; k < kGates; ++k) {
    if (GetInput(context, node, kInputWeights + k) == nullptr ||
        GetInput(context, node, kRecurrentWeights + k) == nullptr || GetInput(context, node, kGateBias + k) == nullptr) {
      MicroPrintf("%s: the %s gate's weights and bias (inputs %d, %d, %d) are required", kOp, kGateNames[k],
                  kInputWeights + k, kRecurrentWeights + k, kGateBias + k);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckTypes(const Tensors& t) {
  const TfLiteType type = t.input->type;
  if (type == kTfLiteFloat32 && t.input_weights[kForgetGate]->type != kTfLiteFloat32) {
    MicroPrintf("%s: hybrid models (float32 activations with %s weights, versions 2-3) are not supported, as in "
                "TFLM; use a float32 model or an integer one (int8 or int16 activations)",
                kOp, TfLiteTypeName(t.input_weights[kForgetGate]->type));
    return kTfLiteError;
  }
  TfLiteType weights = kTfLiteInt8;
  TfLiteType bias = kTfLiteInt32;
  TfLiteType cell = kTfLiteInt16;
  if (type == kTfLiteFloat32) {
    weights = bias = cell = kTfLiteFloat32;
  } else if (type == kTfLiteInt16) {
    bias = kTfLiteInt64;
  } else if (type != kTfLiteInt8) {
    return ReportUnsupportedType(
        kOp, type, "float32, int8 (int16 cell state) or int16 (16x8, int64 bias)", "input");
  }
  for (int k = 0; k < kGates; ++k) {
    TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "input weights", t.input_weights[k], weights));
    TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "recurrent weights", t.recurrent_weights[k], weights));
    TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "gate bias", t.bias[k], bias));
  }
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "hidden state (input 18)", t.hidden, type));
  TF_LITE_ENSURE_OK(nullptr, EnsureType(kOp, "cell state (input 19)", t.cell, cell));
  return EnsureType(kOp, "output", t.output, type);
}

TfLiteStatus CheckShape(const char* what, const TfLiteTensor* tensor, int32_t dim0, int32_t dim1) {
  const bool matrix = dim1 >= 0;
  if (NumDimensions(tensor) == (matrix ? 2 : 1) && SizeOfDimension(tensor, 0) == dim0 &&
      (!matrix || SizeOfDimension(tensor, 1) == dim1)) {
    return kTfLiteOk;
  }
  if (matrix) {
    MicroPrintf("%s: %s must be [%d, %d]", kOp, what, static_cast<int>(dim0), static_cast<int>(dim1));
  } else {
    MicroPrintf("%s: %s must be [%d]", kOp, what, static_cast<int>(dim0));
  }
  return kTfLiteError;
}

TfLiteStatus PrepareSizes(const Tensors& t, bool time_major, Sizes* s) {
  const TfLiteTensor* input = t.input;
  if (NumDimensions(input) != 3) {
    MicroPrintf("%s: input must be 3-D ([batch, time, features], or [time, batch, features] when time_major), "
                "got rank %d", kOp, NumDimensions(input));
    return kTfLiteError;
  }
  s->time_major = time_major;
  s->batches = SizeOfDimension(input, time_major ? 1 : 0);
  s->time_steps = SizeOfDimension(input, time_major ? 0 : 1);
  s->input_size = SizeOfDimension(input, 2);
  const TfLiteTensor* forget = t.input_weights[kForgetGate];
  s->units = NumDimensions(forget) == 2 ? SizeOfDimension(forget, 0) : 0;
  if (s->units < 1 || s->input_size < 1) {
    MicroPrintf("%s: needs at least one unit and one input feature (input-to-forget weights [units, features])",
                kOp);
    return kTfLiteError;
  }
  for (int k = 0; k < kGates; ++k) {
    TF_LITE_ENSURE_OK(nullptr, CheckShape("input weights [units, features]", t.input_weights[k], s->units,
                                          s->input_size));
    TF_LITE_ENSURE_OK(nullptr, CheckShape("recurrent weights [units, units]", t.recurrent_weights[k], s->units,
                                          s->units));
    TF_LITE_ENSURE_OK(nullptr, CheckShape("gate bias [units]", t.bias[k], s->units, -1));
  }
  const int64_t state = static_cast<int64_t>(s->batches) * s->units;
  if (ElementCount(t.hidden->dims) != state || ElementCount(t.cell->dims) != state) {
    MicroPrintf("%s: hidden and cell state need batch x units = %d elements, have %d and %d", kOp,
                static_cast<int>(state), static_cast<int>(ElementCount(t.hidden->dims)),
                static_cast<int>(ElementCount(t.cell->dims)));
    return kTfLiteError;
  }
  const TfLiteTensor* output = t.output;
  if (NumDimensions(output) != 3 || SizeOfDimension(output, 0) != SizeOfDimension(input, 0) ||
      SizeOfDimension(output, 1) != SizeOfDimension(input, 1) || SizeOfDimension(output, 2) != s->units) {
    MicroPrintf("%s: output must be [%d, %d, %d] (the input's first two dimensions, then units)", kOp,
                static_cast<int>(SizeOfDimension(input, 0)), static_cast<int>(SizeOfDimension(input, 1)),
                static_cast<int>(s->units));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The state tensors are written at every Invoke: they must be the model's
// variables, not constants, and the output must be a tensor of its own
// (each step's hidden values are written to the output before the hidden
// state is replaced).
TfLiteStatus CheckStateTensors(const TfLiteNode* node, const Tensors& t) {
  if (t.hidden->is_constant || t.cell->is_constant) {
    return Refuse("hidden and cell state (inputs 18, 19)", "must be variable tensors, not constants");
  }
  const int32_t output_index = node->outputs->data[0];
  for (int i = 0; i < NumInputs(node); ++i) {
    if (node->inputs->data[i] == output_index) return Refuse("output", "must not be one of the op's inputs");
  }
  if (node->inputs->data[kHiddenState] == node->inputs->data[kCellState]) {
    return Refuse("hidden and cell state", "must be two different tensors");
  }
  return kTfLiteOk;
}

TfLiteStatus QuantizeRatio(double ratio, int32_t* multiplier, int8_t* shift) {
  int s = 0;
  QuantizeMultiplier(ratio, multiplier, &s);
  *shift = static_cast<int8_t>(s);
  return kTfLiteOk;
}

// A fully connected layer of a gate: input_scale * weight_scale / 2^-12,
// the product formed in float as TFLM's FULLY_CONNECTED does.
TfLiteStatus GateMultiplier(const TfLiteTensor* input, const TfLiteTensor* weights, int32_t* multiplier,
                            int8_t* shift) {
  TfLiteTensor gate{};
  gate.params.scale = kGateInputScale;
  double ratio = 0.0;
  TF_LITE_ENSURE_OK(nullptr, GetQuantizedConvolutionMultiplier(kOp, input, weights, &gate, &ratio));
  return QuantizeRatio(ratio, multiplier, shift);
}

// The element-wise products: scale1 * scale2 / output_scale in double.
double ProductRatio(float scale1, float scale2, float output_scale) {
  return static_cast<double>(scale1) * static_cast<double>(scale2) / static_cast<double>(output_scale);
}

TfLiteStatus CheckWeights(const TfLiteTensor* weights, const char* what, int gate) {
  if (weights->params.scales != nullptr) {
    MicroPrintf("%s: %s weights of the %s gate are quantized per channel; TFLM's LSTM takes one scale per "
                "tensor", kOp, what, kGateNames[gate]);
    return kTfLiteError;
  }
  if (!(weights->params.scale > 0.0f) || weights->params.zero_point != 0) {
    MicroPrintf("%s: %s weights of the %s gate need a scale > 0 and zero point 0 (symmetric int8), got %f and %d",
                kOp, what, kGateNames[gate], static_cast<double>(weights->params.scale),
                static_cast<int>(weights->params.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareQuantization(const Tensors& t, float cell_clip, OpData* d) {
  TF_LITE_ENSURE_OK(nullptr, CheckQuantized(kOp, "input", t.input));
  TF_LITE_ENSURE_OK(nullptr, CheckQuantized(kOp, "hidden state (input 18)", t.hidden));
  TF_LITE_ENSURE_OK(nullptr, CheckQuantized(kOp, "output", t.output));
  // The output receives the hidden state's values unchanged.
  if (t.output->params.scale != t.hidden->params.scale || t.output->params.zero_point != t.hidden->params.zero_point) {
    MicroPrintf("%s: the output needs the hidden state's quantization (scale %f, zero point %d), got %f and %d", kOp,
                static_cast<double>(t.hidden->params.scale), static_cast<int>(t.hidden->params.zero_point),
                static_cast<double>(t.output->params.scale), static_cast<int>(t.output->params.zero_point));
    return kTfLiteError;
  }
  // The cell state's scale must be a power of two, 2^p: its tanh shifts by
  // p + 12 (TFLM rounds log2 of any other scale silently; TFLite requires a
  // power of two). p outside [-43, 2] would overflow or over-shift there.
  const float cell_scale = t.cell->params.scale;
  int exponent = 0;
  const float mantissa = cell_scale > 0.0f ? frexpf(cell_scale, &exponent) : 0.0f;
  const int power = exponent - 1;
  if (mantissa != 0.5f || t.cell->params.zero_point != 0 || power < -43 || power > 2) {
    MicroPrintf("%s: the int16 cell state (input 19) needs zero point 0 and a power-of-two scale from 2^-43 to 2^2, "
                "got %f and %d", kOp, static_cast<double>(cell_scale), static_cast<int>(t.cell->params.zero_point));
    return kTfLiteError;
  }
  for (int k = 0; k < kGates; ++k) {
    TF_LITE_ENSURE_OK(nullptr, CheckWeights(t.input_weights[k], "input", k));
    TF_LITE_ENSURE_OK(nullptr, CheckWeights(t.recurrent_weights[k], "recurrent", k));
    TF_LITE_ENSURE_OK(nullptr, GateMultiplier(t.input, t.input_weights[k], &d->input_multiplier[k],
                                              &d->input_shift[k]));
    TF_LITE_ENSURE_OK(nullptr, GateMultiplier(t.hidden, t.recurrent_weights[k], &d->recurrent_multiplier[k],
                                              &d->recurrent_shift[k]));
    if (t.input->type == kTfLiteInt8) {
      // int32 sums: bias + sum (x - zero point) * w must not overflow (TFLM's would be undefined).
      TF_LITE_ENSURE_OK(nullptr, CheckAccumulatorRange(kOp, t.input, t.input_weights[k], t.bias[k], d->sizes.units,
                                                       0, false));
      TF_LITE_ENSURE_OK(nullptr, CheckAccumulatorRange(kOp, t.hidden, t.recurrent_weights[k], nullptr,
                                                       d->sizes.units, 0, false));
    }
  }
  QuantizeRatio(ProductRatio(kGateOutputScale, cell_scale, cell_scale), &d->forget_multiplier, &d->forget_shift);
  QuantizeRatio(ProductRatio(kGateOutputScale, kGateOutputScale, cell_scale), &d->update_multiplier,
                &d->update_shift);
  QuantizeRatio(ProductRatio(kGateOutputScale, kGateOutputScale, t.hidden->params.scale), &d->hidden_multiplier,
                &d->hidden_shift);
  // tanh's input is Q3.12 scaled by 3/4 (x * 3, then a right shift of 2 inside the interpolation).
  const int left = power + 12;
  d->tanh_multiplier = left >= 0 ? 3 << left : 3;
  d->tanh_shift = static_cast<int8_t>(left >= 0 ? 0 : -left);
  d->input_offset = -t.input->params.zero_point;
  d->hidden_offset = -t.hidden->params.zero_point;
  d->hidden_zero_point = t.hidden->params.zero_point;
  d->hidden_min = t.hidden->type == kTfLiteInt8 ? -128 : -32768;
  d->hidden_max = t.hidden->type == kTfLiteInt8 ? 127 : 32767;
  d->clip_cell = cell_clip > 0.0f;
  if (d->clip_cell) {
    double q = static_cast<double>(cell_clip) / static_cast<double>(cell_scale);
    q = q < -32768.0 ? -32768.0 : (q > 32767.0 ? 32767.0 : q);
    d->cell_clip_q = static_cast<int16_t>(q);
  }
  return kTfLiteOk;
}

// TFLM's int16 sigmoid of a gate pre-activation x (2^-12): x * 3 is its
// input at 1 / 12288 (sigmoid_int16.h); the result is at 2^-15.
int32_t Sigmoid16(int32_t x) { return SigmoidInt16(x * 3); }

// TFLM's int16 tanh of `in`, the scaled input ((x * 3 << k) or (x * 3) >> k
// rounded); the result is at 2^-15.
int32_t Tanh16(int32_t in) { return TanhInt16(in); }

// TFLM's element-wise int16 x int16 product requantized (zero points 0).
int32_t Product(int32_t a, int32_t b, int32_t multiplier, int shift) {
  return MultiplyByQuantizedMultiplier(a * b, multiplier, shift);
}

}  // namespace

Tensors TensorsOf(TfLiteContext* context, const TfLiteNode* node) {
  Tensors t;
  t.input = GetInput(context, node, kInputTensor);
  for (int k = 0; k < kGates; ++k) {
    t.input_weights[k] = GetInput(context, node, kInputWeights + k);
    t.recurrent_weights[k] = GetInput(context, node, kRecurrentWeights + k);
    t.bias[k] = GetInput(context, node, kGateBias + k);
  }
  t.hidden = GetInput(context, node, kHiddenState);
  t.cell = GetInput(context, node, kCellState);
  t.output = GetOutput(context, node, 0);
  return t;
}

TfLiteStatus PrepareLstm(TfLiteContext* context, const TfLiteNode* node,
                         const TfLiteUnidirectionalSequenceLSTMParams* params, OpData* d) {
  if (NumInputs(node) != kNumInputs || NumOutputs(node) != 1) {
    MicroPrintf("%s: needs 24 inputs (absent optional ones as -1) and 1 output, got %d and %d", kOp,
                NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  if (params->diagonal_recurrent_tensors) {
    return Refuse("diagonal recurrent weights (version 4)", "are not supported (TFLM's kernel needs full matrices)");
  }
  if (params->activation != kTfLiteActTanh) {
    MicroPrintf("%s: fused activation %d is not supported; TFLM computes TANH (4) only", kOp,
                static_cast<int>(params->activation));
    return kTfLiteError;
  }
  const Tensors t = TensorsOf(context, node);
  if (t.input == nullptr || t.hidden == nullptr || t.cell == nullptr || t.output == nullptr) {
    return Refuse("input 0, hidden state (18), cell state (19) and the output", "are required");
  }
  TF_LITE_ENSURE_OK(context, CheckVariantTensors(context, node));
  TF_LITE_ENSURE_OK(context, CheckTypes(t));
  TF_LITE_ENSURE_OK(context, CheckStateTensors(node, t));
  TF_LITE_ENSURE_OK(context, PrepareSizes(t, params->time_major, &d->sizes));
  d->cell_clip = params->cell_clip;
  if (t.input->type == kTfLiteFloat32) return kTfLiteOk;
  return PrepareQuantization(t, params->cell_clip, d);
}

int32_t IntegerCellStep(const OpData& d, const int16_t pre[kGates], int16_t* cell) {
  const int32_t input_gate = Sigmoid16(pre[kInputGate]);
  const int32_t forget_gate = Sigmoid16(pre[kForgetGate]);
  const int32_t cell_gate = Tanh16(pre[kCellGate] * 3);
  const int32_t output_gate = Sigmoid16(pre[kOutputGate]);
  const int32_t kept = ClampToInt16(Product(forget_gate, *cell, d.forget_multiplier, d.forget_shift));
  const int32_t added = ClampToInt16(Product(input_gate, cell_gate, d.update_multiplier, d.update_shift));
  int32_t c = ClampToInt16(kept + added);
  if (d.clip_cell) {
    c = c > d.cell_clip_q ? d.cell_clip_q : c;
    c = c < -d.cell_clip_q ? -d.cell_clip_q : c;
  }
  *cell = static_cast<int16_t>(c);
  const int shift = d.tanh_shift;
  const int32_t round = shift > 0 ? 1 << (shift - 1) : 0;
  const int32_t tanh_c = Tanh16((c * d.tanh_multiplier + round) >> shift);
  const int32_t h = Product(tanh_c, output_gate, d.hidden_multiplier, d.hidden_shift) + d.hidden_zero_point;
  return ClampInt32(h, d.hidden_min, d.hidden_max);
}

}  // namespace lstm

}  // namespace micro_runtime
