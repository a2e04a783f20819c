// UNIDIRECTIONAL_SEQUENCE_LSTM, int16 activations, int8 weights, int64 biases,
// int16 cell state (TFLM's 16x8->16 LSTM): each gate's fully connected layers
// sum in 64 bits (zero points are 0; wrapping, as the reference's int64 sums
// modulo 2^64) and are requantized to int16 with TFLite's 64-bit
// MultiplyByQuantizedMultiplier, then the shared integer cell step
// (unidirectional_sequence_lstm_common.cc).
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unidirectional_sequence_lstm.h"

namespace micro_runtime {

namespace lstm {

TfLiteStatus EvalInt16(const OpData& d, const Tensors& t) {
  const Sizes& s = d.sizes;
  EvalSteps<int16_t, int16_t>(t, s, [&](const int16_t* x, const int16_t* h, int16_t* c, int32_t u) {
    uint64_t in_acc[kGates];
    uint64_t rec_acc[kGates];
    GateDots<int8_t>(t, s, u, x, 0, h, 0, in_acc, rec_acc);
    int16_t pre[kGates];
    for (int k = 0; k < kGates; ++k) {
      const uint64_t in_sum = in_acc[k] + static_cast<uint64_t>(LoadInt64(t.bias[k]->data.raw, u));
      pre[k] = GateSum(
          MultiplyByQuantizedMultiplierInt64(static_cast<int64_t>(in_sum), d.input_multiplier[k], d.input_shift[k]),
          MultiplyByQuantizedMultiplierInt64(static_cast<int64_t>(rec_acc[k]), d.recurrent_multiplier[k],
                                             d.recurrent_shift[k]));
    }
    return static_cast<int16_t>(IntegerCellStep(d, pre, &c[u]));
  });
  return kTfLiteOk;
}

}  // namespace lstm

}  // namespace micro_runtime
