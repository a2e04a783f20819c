// Registration functions of every kernel in micro_runtime/kernels/. Each
// returns the op's init/free/prepare/invoke table; resolvers map builtin
// codes (or custom names) to them.
#ifndef MICRO_RUNTIME_KERNELS_MICRO_OPS_H_
#define MICRO_RUNTIME_KERNELS_MICRO_OPS_H_

#include "micro_runtime/common.h"

namespace micro_runtime {

TfLiteRegistration Register_ABS();
TfLiteRegistration Register_ADD();
TfLiteRegistration Register_ARG_MAX();
TfLiteRegistration Register_ARG_MIN();
TfLiteRegistration Register_AVERAGE_POOL_2D();
TfLiteRegistration Register_BATCH_TO_SPACE_ND();
TfLiteRegistration Register_CAST();
TfLiteRegistration Register_CONCATENATION();
TfLiteRegistration Register_CONV_2D();
TfLiteRegistration Register_DEPTHWISE_CONV_2D();
// int8-only registrations of the filter ops (like TFLM's): no float32 or
// int16 eval linked, for images that run int8 models only (micro_speech).
TfLiteRegistration Register_DEPTHWISE_CONV_2D_INT8();
TfLiteRegistration Register_DEQUANTIZE();
TfLiteRegistration Register_DIV();
TfLiteRegistration Register_EXP();
TfLiteRegistration Register_EXPAND_DIMS();
TfLiteRegistration Register_FILL();
TfLiteRegistration Register_FULLY_CONNECTED();
TfLiteRegistration Register_FULLY_CONNECTED_INT8();
TfLiteRegistration Register_GATHER();
TfLiteRegistration Register_HARD_SWISH();
TfLiteRegistration Register_L2_NORMALIZATION();
TfLiteRegistration Register_LEAKY_RELU();
TfLiteRegistration Register_LOG();
TfLiteRegistration Register_LOGISTIC();
TfLiteRegistration Register_MAXIMUM();
TfLiteRegistration Register_MAX_POOL_2D();
TfLiteRegistration Register_MEAN();
TfLiteRegistration Register_MINIMUM();
TfLiteRegistration Register_MUL();
TfLiteRegistration Register_PACK();
TfLiteRegistration Register_PAD();
TfLiteRegistration Register_PADV2();
TfLiteRegistration Register_PRELU();
TfLiteRegistration Register_QUANTIZE();
TfLiteRegistration Register_RELU();
TfLiteRegistration Register_RELU6();
TfLiteRegistration Register_RESHAPE();
TfLiteRegistration Register_RESIZE_BILINEAR();
TfLiteRegistration Register_RESIZE_NEAREST_NEIGHBOR();
TfLiteRegistration Register_RSQRT();
TfLiteRegistration Register_SHAPE();
TfLiteRegistration Register_SIN();
TfLiteRegistration Register_SOFTMAX();
// SOFTMAX for int8 inputs only (int8 or int16 output): no float path, so
// small images that need only int8 leave expf out (micro_speech).
TfLiteRegistration Register_SOFTMAX_INT8();
TfLiteRegistration Register_SPACE_TO_BATCH_ND();
TfLiteRegistration Register_SPLIT();
TfLiteRegistration Register_SPLIT_V();
TfLiteRegistration Register_SQRT();
TfLiteRegistration Register_SQUARED_DIFFERENCE();
TfLiteRegistration Register_SQUEEZE();
TfLiteRegistration Register_STRIDED_SLICE();
TfLiteRegistration Register_SUB();
TfLiteRegistration Register_SVDF();
TfLiteRegistration Register_TANH();
TfLiteRegistration Register_TRANSPOSE();
TfLiteRegistration Register_TRANSPOSE_CONV();
TfLiteRegistration Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
TfLiteRegistration Register_UNPACK();
TfLiteRegistration Register_ZEROS_LIKE();
// Custom op "Atan": y = atan(x), float32 (the custom-op documentation's example).
TfLiteRegistration Register_ATAN();

}  // namespace micro_runtime

// The registrations are the runtime's public API: applications, resolvers and
// tests name them unqualified (Register_CONV_2D()), as before the runtime had
// one namespace.
using micro_runtime::Register_ABS;
using micro_runtime::Register_ADD;
using micro_runtime::Register_ARG_MAX;
using micro_runtime::Register_ARG_MIN;
using micro_runtime::Register_AVERAGE_POOL_2D;
using micro_runtime::Register_BATCH_TO_SPACE_ND;
using micro_runtime::Register_CAST;
using micro_runtime::Register_CONCATENATION;
using micro_runtime::Register_CONV_2D;
using micro_runtime::Register_DEPTHWISE_CONV_2D;
using micro_runtime::Register_DEPTHWISE_CONV_2D_INT8;
using micro_runtime::Register_DEQUANTIZE;
using micro_runtime::Register_DIV;
using micro_runtime::Register_EXP;
using micro_runtime::Register_EXPAND_DIMS;
using micro_runtime::Register_FILL;
using micro_runtime::Register_FULLY_CONNECTED;
using micro_runtime::Register_FULLY_CONNECTED_INT8;
using micro_runtime::Register_GATHER;
using micro_runtime::Register_HARD_SWISH;
using micro_runtime::Register_L2_NORMALIZATION;
using micro_runtime::Register_LEAKY_RELU;
using micro_runtime::Register_LOG;
using micro_runtime::Register_LOGISTIC;
using micro_runtime::Register_MAXIMUM;
using micro_runtime::Register_MAX_POOL_2D;
using micro_runtime::Register_MEAN;
using micro_runtime::Register_MINIMUM;
using micro_runtime::Register_MUL;
using micro_runtime::Register_PACK;
using micro_runtime::Register_PAD;
using micro_runtime::Register_PADV2;
using micro_runtime::Register_PRELU;
using micro_runtime::Register_QUANTIZE;
using micro_runtime::Register_RELU;
using micro_runtime::Register_RELU6;
using micro_runtime::Register_RESHAPE;
using micro_runtime::Register_RESIZE_BILINEAR;
using micro_runtime::Register_RESIZE_NEAREST_NEIGHBOR;
using micro_runtime::Register_RSQRT;
using micro_runtime::Register_SHAPE;
using micro_runtime::Register_SIN;
using micro_runtime::Register_SOFTMAX;
using micro_runtime::Register_SOFTMAX_INT8;
using micro_runtime::Register_SPACE_TO_BATCH_ND;
using micro_runtime::Register_SPLIT;
using micro_runtime::Register_SPLIT_V;
using micro_runtime::Register_SQRT;
using micro_runtime::Register_SQUARED_DIFFERENCE;
using micro_runtime::Register_SQUEEZE;
using micro_runtime::Register_STRIDED_SLICE;
using micro_runtime::Register_SUB;
using micro_runtime::Register_SVDF;
using micro_runtime::Register_TANH;
using micro_runtime::Register_TRANSPOSE;
using micro_runtime::Register_TRANSPOSE_CONV;
using micro_runtime::Register_UNIDIRECTIONAL_SEQUENCE_LSTM;
using micro_runtime::Register_UNPACK;
using micro_runtime::Register_ZEROS_LIKE;
using micro_runtime::Register_ATAN;

#endif  // MICRO_RUNTIME_KERNELS_MICRO_OPS_H_
