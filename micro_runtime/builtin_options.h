// Parsed builtin options, one plain struct per op family. The interpreter
// fills them from the model's flatbuffer options at AllocateTensors() (into
// the arena) and hands them to kernels as node->builtin_data; kernel tests
// fill them by hand.
#ifndef MICRO_RUNTIME_BUILTIN_OPTIONS_H_
#define MICRO_RUNTIME_BUILTIN_OPTIONS_H_

#include <stdint.h>

#include "micro_runtime/common.h"

// quantized_bias_type (CONV_2D, FULLY_CONNECTED): kTfLiteInt32 makes a
// 16x8 op without a bias accumulate in int32 like one with an int32 bias
// (TFLM's rule); the schema default (FLOAT32) and every other type do not.
struct TfLiteFullyConnectedParams {
  TfLiteFusedActivation activation;
  bool keep_num_dims;
  TfLiteType quantized_bias_type;
};

struct TfLiteConvParams {
  TfLitePadding padding;
  int32_t stride_width;
  int32_t stride_height;
  TfLiteFusedActivation activation;
  int32_t dilation_width_factor;
  int32_t dilation_height_factor;
  TfLiteType quantized_bias_type;
};

struct TfLiteDepthwiseConvParams {
  TfLitePadding padding;
  int32_t stride_width;
  int32_t stride_height;
  int32_t depth_multiplier;
  TfLiteFusedActivation activation;
  int32_t dilation_width_factor;
  int32_t dilation_height_factor;
};

struct TfLitePoolParams {
  TfLitePadding padding;
  int32_t stride_width;
  int32_t stride_height;
  int32_t filter_width;
  int32_t filter_height;
  TfLiteFusedActivation activation;
};

struct TfLiteSoftmaxParams {
  float beta;
};

// ADD, SUB, MUL and DIV.
struct TfLiteArithmeticParams {
  TfLiteFusedActivation activation;
};

// LEAKY_RELU: y = x for x > 0, alpha * x otherwise.
struct TfLiteLeakyReluParams {
  float alpha;
};

// RESHAPE: new_shape from options when the model gives no shape tensor.
struct TfLiteReshapeParams {
  int32_t num_dimensions;
  int32_t shape[8];
};

// SQUEEZE: the axes to remove (none: every axis of size 1). Same layout as
// TfLiteReshapeParams: both are one int vector of the options.
struct TfLiteSqueezeParams {
  int32_t num_squeeze_dims;
  int32_t squeeze_dims[8];
};

// CONCATENATION: the axis (negative counts from the end) and a fused
// activation, which TFLite requires to be NONE.
struct TfLiteConcatenationParams {
  int32_t axis;
  TfLiteFusedActivation activation;
};

// MEAN (and the other reducers TFLite shares ReducerOptions with).
struct TfLiteReducerParams {
  bool keep_dims;
};

// STRIDED_SLICE: bit i of a mask is about axis i.
struct TfLiteStridedSliceParams {
  int32_t begin_mask;
  int32_t end_mask;
  int32_t ellipsis_mask;
  int32_t new_axis_mask;
  int32_t shrink_axis_mask;
  bool offset;  // end is relative to begin (version 8)
};

// PACK: values_count inputs stacked along a new axis (negative counts from
// the end of the output's rank).
struct TfLitePackParams {
  int32_t values_count;
  int32_t axis;
};

// UNPACK: num outputs, the input split along axis (negative counts from the
// end of the input's rank).
struct TfLiteUnpackParams {
  int32_t num;
  int32_t axis;
};

// SPLIT and SPLIT_V: the number of outputs.
struct TfLiteSplitParams {
  int32_t num_splits;
};
struct TfLiteSplitVParams {
  int32_t num_splits;
};

// SVDF: rank (filters per output unit), the fused activation (float32 only:
// TFLM's integer SVDF, like LiteRT's, ignores it) and the hybrid-only
// asymmetric_quantize_inputs (hybrid models are refused).
struct TfLiteSVDFParams {
  int32_t rank;
  TfLiteFusedActivation activation;
  bool asymmetric_quantize_inputs;
};

// TRANSPOSE_CONV: padding, strides and (version 4) a fused activation. The
// bias type (version 5's quantized_bias_type) is read from the bias tensor.
struct TfLiteTransposeConvParams {
  TfLitePadding padding;
  int32_t stride_width;
  int32_t stride_height;
  TfLiteFusedActivation activation;
};

// UNIDIRECTIONAL_SEQUENCE_LSTM: the activation of the cell gate and of the
// cell state's output (TANH is the only one TFLM computes), cell and
// projection clipping (0: none), the input layout ([time, batch, features]
// when time_major), and two fields only hybrid (v3) and diagonal (v4) models
// use, which the kernel refuses.
struct TfLiteUnidirectionalSequenceLSTMParams {
  TfLiteFusedActivation activation;
  float cell_clip;
  float proj_clip;
  bool time_major;
  bool asymmetric_quantize_inputs;
  bool diagonal_recurrent_tensors;
};

// L2_NORMALIZATION: a fused activation, which TFLite requires to be NONE.
struct TfLiteL2NormParams {
  TfLiteFusedActivation activation;
};

// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: corner pixels aligned (the
// scale is (in - 1) / (out - 1)) and/or pixel centers at +0.5.
struct TfLiteResizeBilinearParams {
  bool align_corners;
  bool half_pixel_centers;
};
struct TfLiteResizeNearestNeighborParams {
  bool align_corners;
  bool half_pixel_centers;
};

// GATHER: the gathered axis of the input (negative counts from the end of
// its rank) and the number of leading batch dimensions shared by input and
// positions (negative counts from the end of the positions' rank).
struct TfLiteGatherParams {
  int32_t axis;
  int32_t batch_dims;
};

// ARG_MAX and ARG_MIN: the index type the model asks for (int32 or int64;
// the output tensor's type is what the kernels write).
struct TfLiteArgMaxParams {
  TfLiteType output_type;
};
struct TfLiteArgMinParams {
  TfLiteType output_type;
};

// CAST: the input and output types the converter recorded (FLOAT32, the
// schema default, when it recorded none); the tensors' types are what the
// kernel converts.
struct TfLiteCastParams {
  TfLiteType in_data_type;
  TfLiteType out_data_type;
};

#endif  // MICRO_RUNTIME_BUILTIN_OPTIONS_H_
