// FULLY_CONNECTED int8 dot products, portable C++ (any core); the loop is
// fully_connected.h's. Cores with the DSP extension use
// arm_dsp/fully_connected_int8.cc instead (board tag arm_dsp).
#include "micro_runtime/kernels/fully_connected.h"

namespace {

// Four rows at a time: each input byte is loaded once for four dot products.
inline void FourRows(const int8_t* in, const int8_t* w, int32_t n, int32_t* acc) {
  const int8_t* w0 = w;
  const int8_t* w1 = w0 + n;
  const int8_t* w2 = w1 + n;
  const int8_t* w3 = w2 + n;
  int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = in[i];
    d0 += x * w0[i];
    d1 += x * w1[i];
    d2 += x * w2[i];
    d3 += x * w3[i];
  }
  acc[0] = d0;
  acc[1] = d1;
  acc[2] = d2;
  acc[3] = d3;
}

}  // namespace

TfLiteStatus FullyConnectedEvalInt8(const FullyConnectedOpData& d, const int8_t* input,
                                    const int8_t* filter, const int32_t* bias, int8_t* output) {
  return fully_connected::EvalInt8Rows(d, input, filter, bias, output, FourRows);
}
