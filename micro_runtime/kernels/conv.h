// CONV_2D's op data and its int8 eval, shared between conv.cc (init, prepare,
// float eval, registration) and the int8 eval: conv_int8.cc, or a
// tag-specialized replacement (arm_dsp/conv_int8.cc), the way TFLM's
// conv_common.cc shares prepare between its reference and CMSIS-NN kernels.
#ifndef MICRO_RUNTIME_KERNELS_CONV_H_
#define MICRO_RUNTIME_KERNELS_CONV_H_

#include "micro_runtime/kernels/kernel_util.h"

struct ConvOpData {
  WindowGeometry g;
  Int8ChannelQuant q;  // int8 only
};

// output = requantized conv of (input + input offset) with filter, + bias;
// shapes and quantization from prepare.
TfLiteStatus ConvEvalInt8(const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output);

#endif  // MICRO_RUNTIME_KERNELS_CONV_H_
