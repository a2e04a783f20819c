// UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights, int32 biases,
// int16 cell state (TFLM's 8x8->16 LSTM): each gate's fully connected layers
// sum in int32 (prepare has bounded the sums; the sums wrap as unsigned, so
// even a corrupt bias cannot overflow) and are requantized to int16, then the
// shared integer cell step (unidirectional_sequence_lstm_common.cc).
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace micro_runtime {

namespace lstm {

TfLiteStatus EvalInt8(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  EvalSteps<int8_t, int16_t>(t, s, [&](const int8_t* x, const int8_t* h, int16_t* c, int32_t u) {
    uint32_t in_acc[kGates];
    uint32_t rec_acc[kGates];
    GateDots<int8_t>(t, s, u, x, d.input_offset, h, d.hidden_offset, in_acc, rec_acc);
    int16_t pre[kGates];
    for (int k = 0; k < kGates; ++k) {
      const int32_t in_sum = static_cast<int32_t>(in_acc[k] + static_cast<uint32_t>(t.bias[k]->data.i32[u]));
      pre[k] = GateSum(MultiplyByQuantizedMultiplier(in_sum, d.input_multiplier[k], d.input_shift[k]),
                       MultiplyByQuantizedMultiplier(static_cast<int32_t>(rec_acc[k]), d.recurrent_multiplier[k],
                                                     d.recurrent_shift[k]));
    }
    return static_cast<int8_t>(IntegerCellStep(d, pre, &c[u]));
  });
  return kTfLiteOk;
}

}  // namespace lstm

}  // namespace micro_runtime
