// Parsed builtin options, one plain struct per op family. The interpreter
// fills them from the model's flatbuffer options at AllocateTensors() (into
// the arena) and hands them to kernels as node->builtin_data; kernel tests
// fill them by hand.
#ifndef MICRO_RUNTIME_BUILTIN_OPTIONS_H_
#define MICRO_RUNTIME_BUILTIN_OPTIONS_H_

#include <stdint.h>

#include "micro_runtime/common.h"

struct TfLiteFullyConnectedParams {
  TfLiteFusedActivation activation;
  bool keep_num_dims;
};

struct TfLiteConvParams {
  TfLitePadding padding;
  int32_t stride_width;
  int32_t stride_height;
  TfLiteFusedActivation activation;
  int32_t dilation_width_factor;
  int32_t dilation_height_factor;
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

#endif  // MICRO_RUNTIME_BUILTIN_OPTIONS_H_
