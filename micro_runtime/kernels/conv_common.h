// Prepare shared by CONV_2D and DEPTHWISE_CONV_2D (TFLM's conv_common.cc and
// depthwise_conv_common.cc): the node's tensors and their ranks, the window
// options, and the type and per-channel quantization checks (also used by
// TRANSPOSE_CONV). Each op's file keeps its own shape checks and evals; an
// optimized int8 eval under a tag folder (arm_dsp/, cortex_m/) replaces only
// the eval and shares this prepare and the op data of conv.h /
// depthwise_conv.h.
#ifndef MICRO_RUNTIME_KERNELS_CONV_COMMON_H_
#define MICRO_RUNTIME_KERNELS_CONV_COMMON_H_

#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/padding.h"

namespace micro_runtime {

// Input 0, filter 1, optional bias 2 and output 0 of a filter op.
struct FilterOpTensors {
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  const TfLiteTensor* bias;
  const TfLiteTensor* output;
};

#if MICRO_RUNTIME_LAYER_CLASS
// A layer's int8 class made in prepare by `layer_class` (from the bias values, nullptr without a bias) where
// the input is int8 and the bias is constant or absent; else -1: the eval finds it per Invoke.
template <typename LayerClass>
inline int8_t PreparedInt8Class(const FilterOpTensors& t, LayerClass layer_class) {
  if (t.input->type != kTfLiteInt8 || (t.bias != nullptr && !t.bias->is_constant)) return -1;
  return static_cast<int8_t>(layer_class(t.bias != nullptr ? t.bias->data.i32 : nullptr));
}
#endif

// The window options of TfLiteConvParams and TfLiteDepthwiseConvParams.
struct ConvWindowOptions {
  int32_t stride_h, stride_w, dilation_h, dilation_w;
};

template <typename Params>
inline ConvWindowOptions ConvWindowOptionsOf(const Params& p) {
  return {p.stride_height, p.stride_width, p.dilation_height_factor, p.dilation_width_factor};
}

// The start of the prepare (after CheckOpDataAndOptions): the node's tensors
// (GetFilterOpTensors), input, filter and output 4-D (`layout` names their
// layouts in the message), strides and dilations >= 1, which go into `g`
// (the caller sets the filter size and output channels, then calls
// PrepareWindowGeometry).
TfLiteStatus PrepareConvTensors(const char* op_name, const char* layout, TfLiteContext* context,
                                const TfLiteNode* node, const ConvWindowOptions& options, FilterOpTensors* t,
                                WindowGeometry* g);

// The type and quantization part: CheckFilterOpTypes, then for int8 and
// int16 (16x8) inputs the per-channel requantization into `q`
// (PrepareInt8ChannelQuant, output channels along filter dimension
// `channel_dim`: 0 for CONV_2D and TRANSPOSE_CONV [OC, FH, FW, IC], 3 for
// DEPTHWISE_CONV_2D [1, FH, FW, OC]). With `int16_bias_int64_only` an int16
// op's bias must be int64 (TFLM's 16x8 depthwise kernel reads it as int64
// whatever its type).
TfLiteStatus PrepareConvQuantization(const char* op_name, TfLiteContext* context, const TfLiteTensor* input,
                                     const TfLiteTensor* filter, const TfLiteTensor* bias,
                                     const TfLiteTensor* output, TfLiteFusedActivation activation,
                                     int32_t out_ch, Int8ChannelQuant* q, int channel_dim = 0,
                                     bool int16_bias_int64_only = false);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_CONV_COMMON_H_
