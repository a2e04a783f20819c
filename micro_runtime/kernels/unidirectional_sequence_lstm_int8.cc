// UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights, int32 biases,
// int16 cell state (TFLM's 8x8->16 LSTM): each gate's fully connected layers
// sum in int32 (prepare has bounded the sums) and are requantized to int16,
// then the shared integer cell step (unidirectional_sequence_lstm_common.cc).
#include <string.h>

#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace lstm {
namespace {

// sum_i (x[i] + offset) * w_k[i] for the four gates' rows at once; wrapping
// arithmetic, so the sums equal TFLM's int32 sums in any order.
inline void Dot4(const int8_t* x, int32_t offset, const int8_t* const w[kGates], int32_t n, uint32_t acc[kGates]) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t v = static_cast<uint32_t>(x[i] + offset);
    a0 += v * static_cast<uint32_t>(w[0][i]);
    a1 += v * static_cast<uint32_t>(w[1][i]);
    a2 += v * static_cast<uint32_t>(w[2][i]);
    a3 += v * static_cast<uint32_t>(w[3][i]);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

}  // namespace

TfLiteStatus EvalInt8(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  const int32_t n_in = s.input_size;
  const int32_t units = s.units;
  ForEachStep(s, [&](int32_t row, int32_t batch) {
    const int8_t* x = t.input->data.int8 + static_cast<size_t>(row) * n_in;
    int8_t* h = t.hidden->data.int8 + static_cast<size_t>(batch) * units;
    int16_t* c = t.cell->data.i16 + static_cast<size_t>(batch) * units;
    int8_t* out = t.output->data.int8 + static_cast<size_t>(row) * units;
    for (int32_t u = 0; u < units; ++u) {
      const int8_t* in_rows[kGates];
      const int8_t* rec_rows[kGates];
      for (int k = 0; k < kGates; ++k) {
        in_rows[k] = t.input_weights[k]->data.int8 + static_cast<size_t>(u) * n_in;
        rec_rows[k] = t.recurrent_weights[k]->data.int8 + static_cast<size_t>(u) * units;
      }
      uint32_t in_acc[kGates];
      uint32_t rec_acc[kGates];
      Dot4(x, d.input_offset, in_rows, n_in, in_acc);
      Dot4(h, d.hidden_offset, rec_rows, units, rec_acc);
      int16_t pre[kGates];
      for (int k = 0; k < kGates; ++k) {
        const int32_t in_sum = static_cast<int32_t>(in_acc[k] + static_cast<uint32_t>(t.bias[k]->data.i32[u]));
        pre[k] = GateSum(MultiplyByQuantizedMultiplier(in_sum, d.input_multiplier[k], d.input_shift[k]),
                         MultiplyByQuantizedMultiplier(static_cast<int32_t>(rec_acc[k]), d.recurrent_multiplier[k],
                                                       d.recurrent_shift[k]));
      }
      out[u] = static_cast<int8_t>(IntegerCellStep(d, pre, &c[u]));
    }
    memcpy(h, out, static_cast<size_t>(units));
  });
  return kTfLiteOk;
}

}  // namespace lstm
