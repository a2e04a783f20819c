// CONV_2D: output[b, y, x, oc] = act(bias[oc] + sum over the filter window
// and all input channels of input * filter[oc]).
//   input  [N, H, W, IC]
//   filter [OC, FH, FW, IC]
//   bias   [OC] (optional: absent, or index -1)
//   output [N, OH, OW, OC]
// float32, and int8 with per-channel (dimension 0) or per-tensor filter
// scales, SAME/VALID padding, strides, dilation.
//
// This file: init, prepare (shared by every int8 eval) and the float eval.
// The int8 eval is ConvEvalInt8 (conv.h): conv_int8.cc, the portable one, or
// a tag-specialized replacement such as arm_dsp/conv_int8.cc.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/conv.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

TfLiteStatus PrepareConvQuantization(const char* op_name, TfLiteContext* context, const TfLiteTensor* input,
                                     const TfLiteTensor* filter, const TfLiteTensor* bias,
                                     const TfLiteTensor* output, TfLiteFusedActivation activation,
                                     int32_t out_ch, Int8ChannelQuant* q) {
  TF_LITE_ENSURE_OK(context, CheckFilterOpTypes(op_name, input, filter, bias, output, out_ch, "output channel"));
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  return PrepareInt8ChannelQuant(op_name, context, input, filter, bias, output, activation,
                                 static_cast<int>(out_ch), 0, input->type == kTfLiteInt16 ? kInt16Activations : 0u,
                                 q);
}

namespace {

constexpr const char* kOp = "CONV_2D";

using OpData = ConvOpData;

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteConvParams* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  const TfLiteTensor* input = nullptr;
  const TfLiteTensor* filter = nullptr;
  const TfLiteTensor* bias = nullptr;
  const TfLiteTensor* output = nullptr;
  TF_LITE_ENSURE_OK(context, GetFilterOpTensors(kOp, context, node, &input, &filter, &bias, &output));
  if (NumDimensions(input) != 4 || NumDimensions(filter) != 4 || NumDimensions(output) != 4) {
    MicroPrintf("%s: input, filter and output must be 4-D (NHWC / OHWI), got ranks %d, %d, %d", kOp,
                NumDimensions(input), NumDimensions(filter), NumDimensions(output));
    return kTfLiteError;
  }
  if (params->stride_height <= 0 || params->stride_width <= 0 ||
      params->dilation_height_factor <= 0 || params->dilation_width_factor <= 0) {
    MicroPrintf("%s: strides (%d, %d) and dilations (%d, %d) must be >= 1", kOp,
                static_cast<int>(params->stride_height), static_cast<int>(params->stride_width),
                static_cast<int>(params->dilation_height_factor),
                static_cast<int>(params->dilation_width_factor));
    return kTfLiteError;
  }
  WindowGeometry& g = data->g;
  if (SizeOfDimension(filter, 3) != SizeOfDimension(input, 3)) {
    MicroPrintf("%s: filter has %d input channels but the input has %d (grouped convolution is not "
                "supported)",
                kOp, static_cast<int>(SizeOfDimension(filter, 3)),
                static_cast<int>(SizeOfDimension(input, 3)));
    return kTfLiteError;
  }
  g.out_ch = SizeOfDimension(filter, 0);
  g.filter_h = SizeOfDimension(filter, 1);
  g.filter_w = SizeOfDimension(filter, 2);
  g.stride_h = params->stride_height;
  g.stride_w = params->stride_width;
  g.dilation_h = params->dilation_height_factor;
  g.dilation_w = params->dilation_width_factor;
  TF_LITE_ENSURE_OK(context, PrepareWindowGeometry(kOp, input, output, params->padding, &g));
  return PrepareConvQuantization(kOp, context, input, filter, bias, output, params->activation, g.out_ch,
                                 &data->q);
}

TfLiteStatus EvalFloat(const OpData* data, const TfLiteConvParams* params, const float* input,
                       const float* filter, const float* bias, float* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const WindowGeometry& g = data->g;
  const int in_ch = g.in_ch;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  const int in_step_x = g.dilation_w * in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    for (int oc = 0; oc < g.out_ch; ++oc) {
      const float* f_oc = filter + oc * f_channel_stride;
      // Same summation order as the reference kernel (fy, fx, ic), bias last.
      float acc = 0.0f;
      const float* in_row = input + p.in_offset;
      for (int fy = p.fy0; fy < p.fy1; ++fy) {
        const float* f_row = f_oc + fy * f_row_stride;
        const float* in_px = in_row;
        for (int fx = p.fx0; fx < p.fx1; ++fx) {
          const float* f_px = f_row + fx * in_ch;
          for (int ic = 0; ic < in_ch; ++ic) acc += in_px[ic] * f_px[ic];
          in_px += in_step_x;
        }
        in_row += in_step_y;
      }
      if (bias != nullptr) acc += bias[oc];
      output[oc] = ClampFloat(acc, act_min, act_max);
    }
    output += g.out_ch;
  });
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteConvParams* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = GetOptionalBias(context, node);
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      return EvalFloat(data, params, input->data.f, filter->data.f,
                       bias != nullptr ? bias->data.f : nullptr, output->data.f);
    case kTfLiteInt8:
      TF_LITE_ENSURE_OK(context, CheckVariableBiasRange(kOp, input, filter, bias, data->g.out_ch, 0));
      return ConvEvalInt8(*data, input->data.int8, filter->data.int8,
                      bias != nullptr ? bias->data.i32 : nullptr, output->data.int8);
    case kTfLiteInt16: {
      Int16FilterEval e;
      TF_LITE_ENSURE_OK(context,
                        PrepareInt16FilterEval(bias, output, params->activation, &e, params->quantized_bias_type));
      return ConvEvalInt16(*data, e, input->data.i16, filter->data.int8, output->data.i16);
    }
    default:
      MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", kOp,
                  TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_CONV_2D() { return {Init, nullptr, Prepare, Eval}; }

}  // namespace micro_runtime
