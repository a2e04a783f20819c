#include "micro_runtime/kernels/conv_common.h"

namespace micro_runtime {

TfLiteStatus PrepareConvTensors(const char* op_name, const char* layout, TfLiteContext* context,
                                const TfLiteNode* node, const ConvWindowOptions& options, FilterOpTensors* t,
                                WindowGeometry* g) {
  TF_LITE_ENSURE_OK(context,
                    GetFilterOpTensors(op_name, context, node, &t->input, &t->filter, &t->bias, &t->output));
  if (NumDimensions(t->input) != 4 || NumDimensions(t->filter) != 4 || NumDimensions(t->output) != 4) {
    MicroPrintf("%s: input, filter and output must be 4-D (%s), got ranks %d, %d, %d", op_name, layout,
                NumDimensions(t->input), NumDimensions(t->filter), NumDimensions(t->output));
    return kTfLiteError;
  }
  if (options.stride_h <= 0 || options.stride_w <= 0 || options.dilation_h <= 0 || options.dilation_w <= 0) {
    MicroPrintf("%s: strides (%d, %d) and dilations (%d, %d) must be >= 1", op_name,
                static_cast<int>(options.stride_h), static_cast<int>(options.stride_w),
                static_cast<int>(options.dilation_h), static_cast<int>(options.dilation_w));
    return kTfLiteError;
  }
  g->stride_h = options.stride_h;
  g->stride_w = options.stride_w;
  g->dilation_h = options.dilation_h;
  g->dilation_w = options.dilation_w;
  return kTfLiteOk;
}

TfLiteStatus PrepareConvQuantization(const char* op_name, TfLiteContext* context, const TfLiteTensor* input,
                                     const TfLiteTensor* filter, const TfLiteTensor* bias,
                                     const TfLiteTensor* output, TfLiteFusedActivation activation,
                                     int32_t out_ch, Int8ChannelQuant* q, int channel_dim,
                                     bool int16_bias_int64_only) {
  TF_LITE_ENSURE_OK(context, CheckFilterOpTypes(op_name, input, filter, bias, output, out_ch, "output channel"));
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  if (int16_bias_int64_only && input->type == kTfLiteInt16 && bias != nullptr && bias->type != kTfLiteInt64) {
    MicroPrintf("%s: bias of an int16 op must be int64, got %s", op_name, TfLiteTypeName(bias->type));
    return kTfLiteError;
  }
  return PrepareInt8ChannelQuant(op_name, context, input, filter, bias, output, activation,
                                 static_cast<int>(out_ch), channel_dim,
                                 input->type == kTfLiteInt16 ? kInt16Activations : 0u, q);
}

}  // namespace micro_runtime
