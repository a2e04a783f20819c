// FULLY_CONNECTED 16x8 eval (int16 input and output, int8 weights per tensor
// or per unit, int64 or int32 bias), portable C++ on every core: arm_dsp
// replaces fully_connected_int8.cc only. TFLM's reference arithmetic: sum of
// input * filter (zero points are 0), the bias, then RequantizeInt16.
#include "micro_runtime/kernels/fully_connected.h"

namespace micro_runtime {

TfLiteStatus FullyConnectedEvalInt16(const Int8ChannelQuant& q, const Int16FilterEval& e,
                                     const FullyConnectedShape& s, const int16_t* input,
                                     const int8_t* filter, int16_t* output) {
  const int32_t n = s.input_size;
  for (int32_t b = 0; b < s.batches; ++b) {
    const int8_t* w = filter;
    for (int32_t u = 0; u < s.units; ++u) {
      uint64_t sum = 0;  // wrapping: the reference's sum modulo 2^64
      // |input * weight| <= 2^22: 2^8 products fit an int32 partial sum.
      for (int32_t i0 = 0; i0 < n; i0 += 256) {
        const int32_t i1 = n - i0 < 256 ? n : i0 + 256;
        int32_t part = 0;
        for (int32_t i = i0; i < i1; ++i) part += input[i] * w[i];
        sum += static_cast<uint64_t>(static_cast<int64_t>(part));
      }
      output[u] = RequantizeInt16(q, e, sum, u);
      w += n;
    }
    input += n;
    output += s.units;
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
