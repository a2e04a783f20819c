// FULLY_CONNECTED int8 dot products, portable C++ (any core); the loop is
// fully_connected.h's. Cores with the DSP extension use
// arm_dsp/fully_connected_int8.cc instead (board tag arm_dsp).
#include "micro_runtime/kernels/fully_connected.h"

namespace micro_runtime {

TfLiteStatus FullyConnectedEvalInt8(const Int8ChannelQuant& q, const FullyConnectedShape& shape,
                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                    int8_t* output) {
  return fully_connected::EvalInt8Rows(q, shape, input, filter, bias, output,
                                       fully_connected::FourRowsPortable);
}

}  // namespace micro_runtime
