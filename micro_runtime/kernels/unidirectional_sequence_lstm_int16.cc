// UNIDIRECTIONAL_SEQUENCE_LSTM, int16 activations, int8 weights, int64 biases,
// int16 cell state (TFLM's 16x8->16 LSTM): each gate's fully connected layers
// sum in int64 (zero points are 0) and are requantized to int16 with TFLite's
// 64-bit MultiplyByQuantizedMultiplier, then the shared integer cell step
// (unidirectional_sequence_lstm_common.cc).
#include <string.h>

#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace lstm {
namespace {

// sum_i x[i] * w_k[i] for the four gates' rows at once, in 64 bits (wrapping:
// the reference's int64 sum modulo 2^64).
inline void Dot4(const int16_t* x, const int8_t* const w[kGates], int32_t n, uint64_t acc[kGates]) {
  uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t v = x[i];
    a0 += static_cast<uint64_t>(static_cast<int64_t>(v * w[0][i]));
    a1 += static_cast<uint64_t>(static_cast<int64_t>(v * w[1][i]));
    a2 += static_cast<uint64_t>(static_cast<int64_t>(v * w[2][i]));
    a3 += static_cast<uint64_t>(static_cast<int64_t>(v * w[3][i]));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

}  // namespace

TfLiteStatus EvalInt16(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  const int32_t n_in = s.input_size;
  const int32_t units = s.units;
  ForEachStep(s, [&](int32_t row, int32_t batch) {
    const int16_t* x = t.input->data.i16 + static_cast<size_t>(row) * n_in;
    int16_t* h = t.hidden->data.i16 + static_cast<size_t>(batch) * units;
    int16_t* c = t.cell->data.i16 + static_cast<size_t>(batch) * units;
    int16_t* out = t.output->data.i16 + static_cast<size_t>(row) * units;
    for (int32_t u = 0; u < units; ++u) {
      const int8_t* in_rows[kGates];
      const int8_t* rec_rows[kGates];
      for (int k = 0; k < kGates; ++k) {
        in_rows[k] = t.input_weights[k]->data.int8 + static_cast<size_t>(u) * n_in;
        rec_rows[k] = t.recurrent_weights[k]->data.int8 + static_cast<size_t>(u) * units;
      }
      uint64_t in_acc[kGates];
      uint64_t rec_acc[kGates];
      Dot4(x, in_rows, n_in, in_acc);
      Dot4(h, rec_rows, units, rec_acc);
      int16_t pre[kGates];
      for (int k = 0; k < kGates; ++k) {
        const uint64_t in_sum = in_acc[k] + static_cast<uint64_t>(LoadInt64(t.bias[k]->data.raw, u));
        pre[k] = GateSum(
            MultiplyByQuantizedMultiplierInt64(static_cast<int64_t>(in_sum), d.input_multiplier[k], d.input_shift[k]),
            MultiplyByQuantizedMultiplierInt64(static_cast<int64_t>(rec_acc[k]), d.recurrent_multiplier[k],
                                               d.recurrent_shift[k]));
      }
      out[u] = static_cast<int16_t>(IntegerCellStep(d, pre, &c[u]));
    }
    memcpy(h, out, static_cast<size_t>(units) * sizeof(int16_t));
  });
  return kTfLiteOk;
}

}  // namespace lstm
