// UNIDIRECTIONAL_SEQUENCE_LSTM: what the op's files share (TFLM's layout:
// lstm_shared.h / lstm_eval_common.cc, then one eval per type).
//
//   unidirectional_sequence_lstm.cc         init, prepare, eval dispatch, registration
//   unidirectional_sequence_lstm_common.cc  prepare's checks and quantization; the
//                                           integer cell and hidden-state update
//   unidirectional_sequence_lstm_float.cc   float32
//   unidirectional_sequence_lstm_int8.cc    int8 activations, int8 weights, int32 bias (8x8)
//   unidirectional_sequence_lstm_int16.cc   int16 activations, int8 weights, int64 bias (16x8)
//
// The standard (Keras) LSTM, as TFLM computes it, one time step at a time:
//   gate_k = act_k(W_k x_t + b_k + R_k h_{t-1})   k = input, forget, cell, output
//            (sigmoid, except tanh for the cell gate)
//   c_t    = forget * c_{t-1} + input * cell      (then clipped to +-cell_clip if > 0)
//   h_t    = output * tanh(c_t)                   (also the op's output for step t)
// h and c are the variable tensors 18 and 19: they carry over from one Invoke
// to the next until the interpreter resets them.
//
// Integer models follow TFLM's arithmetic (not LiteRT's, which reads the gate
// scales from the operator's intermediate tensors): each gate's two fully
// connected layers are requantized to int16 at scale 2^-12 and added with
// saturation, TFLM's int16 sigmoid and tanh (table interpolation) give the gate
// outputs at 2^-15, and the products are requantized to the cell state's
// scale (a power of two) and to the hidden state's.
//
// Each time step is computed unit by unit: all four gates of unit u, then its
// cell value, then its hidden value, written straight into the output row of
// the step and copied to the hidden state once every unit has read the old
// one. Every value is computed with the same operations in the same order as
// TFLM's gate-by-gate passes, so the results are identical, and no scratch
// buffer is needed (TFLM requests four of batch x units cell values).
#ifndef MICRO_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
#define MICRO_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_

#include <stdint.h>
#include <string.h>

#include "micro_runtime/builtin_options.h"

namespace micro_runtime {

namespace lstm {

constexpr const char* kOp = "UNIDIRECTIONAL_SEQUENCE_LSTM";

// The node's 24 inputs, in TFLite's order.
constexpr int kInputTensor = 0;
constexpr int kInputWeights = 1;      // 1..4: input-to-gate weights [units, input_size], one per Gate
constexpr int kRecurrentWeights = 5;  // 5..8: recurrent weights [units, units]
constexpr int kPeepholeWeights = 9;   // 9..11: cell-to-gate (peephole) weights, refused
constexpr int kGateBias = 12;         // 12..15: gate biases [units]
constexpr int kProjectionWeights = 16;  // refused
constexpr int kProjectionBias = 17;     // refused
constexpr int kHiddenState = 18;  // variable: [batches, units] elements
constexpr int kCellState = 19;    // variable: [batches, units] elements
constexpr int kLayerNormWeights = 20;  // 20..23, refused
constexpr int kNumInputs = 24;

// Gate k uses inputs kInputWeights + k, kRecurrentWeights + k and kGateBias + k.
enum Gate : int { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };
constexpr int kGates = 4;

struct Sizes {
  int32_t batches;
  int32_t time_steps;
  int32_t input_size;
  int32_t units;  // the hidden and cell state of one batch
  bool time_major;
};

// Integer op data (unused for float32 but for `sizes` and `cell_clip`).
struct OpData {
  Sizes sizes;
  float cell_clip;  // float32: clip when > 0
  // Gate k's input and recurrent fully connected layers, requantized to
  // int16 at 2^-12 (multipliers and shifts as QuantizeMultiplier gives them).
  int32_t input_multiplier[kGates];
  int32_t recurrent_multiplier[kGates];
  int8_t input_shift[kGates];
  int8_t recurrent_shift[kGates];
  // forget (2^-15) x cell -> cell; input (2^-15) x cell gate (2^-15) -> cell;
  // tanh(cell) (2^-15) x output gate (2^-15) -> hidden.
  int32_t forget_multiplier;
  int32_t update_multiplier;
  int32_t hidden_multiplier;
  int8_t forget_shift;
  int8_t update_shift;
  int8_t hidden_shift;
  // tanh of the cell state: its input is (c * tanh_multiplier + round) >> tanh_shift.
  int8_t tanh_shift;
  int32_t tanh_multiplier;
  int32_t input_offset;   // -input zero point
  int32_t hidden_offset;  // -hidden state zero point
  int32_t hidden_zero_point;
  int32_t hidden_min;  // the hidden state type's range
  int32_t hidden_max;
  int16_t cell_clip_q;  // the quantized cell clip, when clip_cell
  bool clip_cell;
};

// The node's tensors (prepare has checked them).
struct Tensors {
  const TfLiteTensor* input;
  const TfLiteTensor* input_weights[kGates];
  const TfLiteTensor* recurrent_weights[kGates];
  const TfLiteTensor* bias[kGates];
  TfLiteTensor* hidden;
  TfLiteTensor* cell;
  TfLiteTensor* output;
};
Tensors TensorsOf(TfLiteContext* context, const TfLiteNode* node);

// Checks the node (tensors present or refused, types, shapes, options) and
// fills `data`: sizes for every type, quantization for int8 and int16.
TfLiteStatus PrepareLstm(TfLiteContext* context, const TfLiteNode* node,
                         const TfLiteUnidirectionalSequenceLSTMParams* params, OpData* data);

// Calls step(row, batch) for every time step of every sequence in the order
// the recurrence needs: `row` indexes the input viewed as [rows, input_size]
// and the output as [rows, units], `batch` the state's row.
template <typename Step>
inline void ForEachStep(const Sizes& s, Step step) {
  const int32_t outer = s.time_major ? s.time_steps : s.batches;
  const int32_t inner = s.time_major ? s.batches : s.time_steps;
  for (int32_t o = 0; o < outer; ++o) {
    for (int32_t i = 0; i < inner; ++i) step(o * inner + i, s.time_major ? i : o);
  }
}

// Runs the recurrence: for every step (ForEachStep), unit(x, h, c, u) computes
// unit u from the step's input row x and the state rows h and c (updating
// c[u]) and returns its new hidden value, which goes into the step's output
// row; the row becomes the hidden state once every unit has read the old one.
template <typename Act, typename Cell, typename Unit>
inline void EvalSteps(const Tensors& t, const Sizes& s, Unit unit) {
  const int32_t n_in = s.input_size;
  const int32_t units = s.units;
  ForEachStep(s, [&](int32_t row, int32_t batch) {
    const Act* x = static_cast<const Act*>(t.input->data.raw) + static_cast<size_t>(row) * n_in;
    Act* h = static_cast<Act*>(t.hidden->data.raw) + static_cast<size_t>(batch) * units;
    Cell* c = static_cast<Cell*>(t.cell->data.raw) + static_cast<size_t>(batch) * units;
    Act* out = static_cast<Act*>(t.output->data.raw) + static_cast<size_t>(row) * units;
    for (int32_t u = 0; u < units; ++u) out[u] = unit(x, h, c, u);
    memcpy(h, out, static_cast<size_t>(units) * sizeof(Act));
  });
}

template <typename T>
constexpr bool kIsFloat = static_cast<T>(0.5f) != static_cast<T>(0);

template <typename Acc, typename X, typename W>
inline void Dot4(const X* x, int32_t offset, const W* const w[kGates], int32_t n, Acc acc[kGates]) {
  Acc a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t i = 0; i < n; ++i) {
    Acc v;
    if constexpr (kIsFloat<X>) {
      v = x[i];
    } else {
      v = static_cast<Acc>(x[i] + offset);
    }
    a0 += v * static_cast<Acc>(w[0][i]);
    a1 += v * static_cast<Acc>(w[1][i]);
    a2 += v * static_cast<Acc>(w[2][i]);
    a3 += v * static_cast<Acc>(w[3][i]);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// The sums of unit u's gate layers: in_acc[k] over the input row x (plus
// x_offset), rec_acc[k] over the hidden state row h (plus h_offset), with row u
// of gate k's input and recurrent weights (of type W).
template <typename W, typename Acc, typename X>
inline void GateDots(const Tensors& t, const Sizes& s, int32_t u, const X* x, int32_t x_offset, const X* h,
                     int32_t h_offset, Acc in_acc[kGates], Acc rec_acc[kGates]) {
  const W* in_rows[kGates];
  const W* rec_rows[kGates];
  for (int k = 0; k < kGates; ++k) {
    in_rows[k] = static_cast<const W*>(t.input_weights[k]->data.raw) + static_cast<size_t>(u) * s.input_size;
    rec_rows[k] = static_cast<const W*>(t.recurrent_weights[k]->data.raw) + static_cast<size_t>(u) * s.units;
  }
  Dot4(x, x_offset, in_rows, s.input_size, in_acc);
  Dot4(h, h_offset, rec_rows, s.units, rec_acc);
}

// The integer cell: from the four gates' int16 pre-activations (2^-12) of
// one unit, updates its cell state value and returns its hidden state value
// (clamped to the hidden state type, zero point added).
int32_t IntegerCellStep(const OpData& d, const int16_t pre[kGates], int16_t* cell);

// v clamped to the int16 range.
inline int32_t ClampToInt16(int64_t v) { return static_cast<int32_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); }

// Gate pre-activation of the integer paths: the input and the recurrent layer
// each requantized to int16 (TFLM's fully connected layers with int16 outputs),
// then added with saturation.
inline int16_t GateSum(int64_t input_part, int64_t recurrent_part) {
  return static_cast<int16_t>(ClampToInt16(ClampToInt16(input_part) + ClampToInt16(recurrent_part)));
}

TfLiteStatus EvalFloat(const OpData& d, const Tensors& t);
TfLiteStatus EvalInt8(const OpData& d, const Tensors& t);
TfLiteStatus EvalInt16(const OpData& d, const Tensors& t);

}  // namespace lstm

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
