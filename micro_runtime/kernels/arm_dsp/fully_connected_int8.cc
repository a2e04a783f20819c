// FULLY_CONNECTED int8 dot products for cores with the DSP extension
// (replaces kernels/fully_connected_int8.cc under the arm_dsp tag; the loop,
// prepare and op data are fully_connected.h's / fully_connected.cc's).
// Four units per pass over the input: dsp.h's DotRows4 (one input word
// unpacked with SXTAB16, the input offset added in the same instruction, once
// for four rows; two SMLADs per row and word: 25 instructions per 16 MACs).
// Integer sums are exact (modulo 2^32), so the outputs are bit-exact with the
// portable kernel.
#include "micro_runtime/kernels/arm_dsp/dsp.h"
#include "micro_runtime/kernels/fully_connected.h"

namespace micro_runtime {

TfLiteStatus FullyConnectedEvalInt8(const Int8ChannelQuant& q, const FullyConnectedShape& shape,
                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                    int8_t* output) {
  return fully_connected::EvalInt8Rows(q, shape, input, filter, bias, output,
                                       [](const int8_t* in, const int8_t* w, int32_t n, int32_t offset,
                                          int32_t* acc) {
                                         // The offset fits the lanes: prepare keeps zero points in int8.
                                         dsp::DotRows4(in, w, n, n, offset, acc);
                                       });
}

}  // namespace micro_runtime
