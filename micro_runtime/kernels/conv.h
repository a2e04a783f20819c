// CONV_2D's op data and its int8 eval, shared between conv.cc (init, prepare
// with conv_common.h, float eval, registration) and the int8 eval: conv_int8.cc, or a
// tag-specialized replacement (arm_dsp/conv_int8.cc), the way TFLM's
// conv_common.cc shares prepare between its reference and CMSIS-NN kernels.
#ifndef MICRO_RUNTIME_KERNELS_CONV_H_
#define MICRO_RUNTIME_KERNELS_CONV_H_

#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/padding.h"

namespace micro_runtime {

struct ConvOpData {
  WindowGeometry g;
  Int8ChannelQuant q;  // int8, and the multipliers and shifts of int16 (16x8)
#if MICRO_RUNTIME_LAYER_CLASS
  int16_t scratch[2];  // optional scratch buffers of the int8 eval, or -1
  int8_t int8_class;   // ConvInt8LayerClass's, from prepare; -1: the int8 eval finds it per Invoke
#else
  int scratch[2];
#endif
};

// Bytes of optional scratch buffer `which` (0, 1) the int8 eval can use for
// this layer (0: none), requested in prepare with
// RequestOptionalScratchBufferInArena: working buffers larger than the
// kernel's stack buffer, used when the arena had room for them below its
// high-water mark (buffer 1 a smaller alternative where 0 did not fit).
size_t ConvInt8ScratchBytes(const WindowGeometry& g, int which);

// The int8 eval's class of the layer (a kernel's own figure of its requantization and accumulator range,
// which depends only on the prepared quantization and the bias), made once in prepare when the bias is constant
// or absent; -1 where the eval has none to cache (its portable form).
int ConvInt8LayerClass(const ConvOpData& data, const int32_t* bias);

// output = requantized conv of (input + input offset) with filter, + bias;
// shapes and quantization from prepare; the optional scratch buffers
// (data.scratch) from `context`.
TfLiteStatus ConvEvalInt8(TfLiteContext* context, const ConvOpData& data, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output);

// The 16x8 eval (int16 input and output, int8 filter): conv_int16.cc on
// every core (no tag replaces it).
TfLiteStatus ConvEvalInt16(const ConvOpData& data, const Int16FilterEval& e, const int16_t* input,
                           const int8_t* filter, int16_t* output);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_CONV_H_
