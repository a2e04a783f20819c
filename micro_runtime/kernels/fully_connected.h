// FULLY_CONNECTED's op data and the int8 eval's loop, shared by
// fully_connected.cc (init, prepare, float eval) and the int8 dot products:
// fully_connected_int8.cc (portable) or a tag-specialized replacement
// (arm_dsp/fully_connected_int8.cc), like CONV_2D's conv.h.
#ifndef MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_
#define MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_

#include "micro_runtime/kernels/kernel_util.h"

struct FullyConnectedOpData {
  int32_t batches;
  int32_t input_size;
  int32_t units;
  Int8ChannelQuant q;  // int8 only; one channel per unit
};

// output[b, u] = requantized sum_i input[b, i] * filter[u, i] + bias[u] (+ the
// input offset term); shapes and quantization from prepare.
TfLiteStatus FullyConnectedEvalInt8(const FullyConnectedOpData& d, const int8_t* input,
                                    const int8_t* filter, const int32_t* bias, int8_t* output);

namespace fully_connected {

// The int8 eval: with the bias folded in prepare (constant weights), units
// four at a time through four(in, w, n, acc) (acc[k] += dot(in, w + k * n)
// over n values); other units one at a time here.
template <typename Four>
TfLiteStatus EvalInt8Rows(const FullyConnectedOpData& d, const int8_t* in, const int8_t* filter,
                          const int32_t* b, int8_t* out, Four four) {
  const int32_t n = d.input_size;
  const int32_t units = d.units;
  const Int8ChannelQuant& q = d.q;
  const int32_t* folded = q.folded_bias;
  const Int8Requantizer requantize(q);
  for (int32_t batch = 0; batch < d.batches; ++batch) {
    const int8_t* w = filter;
    int32_t u = 0;
    if (folded != nullptr) {
      for (; u + 4 <= units; u += 4) {
        int32_t acc[4] = {0, 0, 0, 0};
        four(in, w, n, acc);
        for (int k = 0; k < 4; ++k) out[u + k] = requantize(WrappingAdd(folded[u + k], acc[k]), u + k);
        w += 4 * n;
      }
    }
    for (; u < units; ++u) {
      int32_t dot = 0;
      int32_t acc;
      if (folded != nullptr) {
        for (int32_t i = 0; i < n; ++i) dot += static_cast<int32_t>(in[i]) * w[i];
        acc = WrappingAdd(folded[u], dot);
      } else {
        // Non-constant weights: the input-offset term is computed per row here.
        int32_t row_sum = 0;
        for (int32_t i = 0; i < n; ++i) {
          dot += static_cast<int32_t>(in[i]) * w[i];
          row_sum += w[i];
        }
        acc = WrappingAdd(dot + q.input_offset * row_sum, b != nullptr ? b[u] : 0);
      }
      w += n;
      out[u] = requantize(acc, u);
    }
    in += n;
    out += units;
  }
  return kTfLiteOk;
}

}  // namespace fully_connected

#endif  // MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_
