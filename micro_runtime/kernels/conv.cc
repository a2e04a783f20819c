// CONV_2D: output[b, y, x, oc] = act(bias[oc] + sum over the filter window
// and all input channels of input * filter[oc]).
//   input  [N, H, W, IC]
//   filter [OC, FH, FW, IC]
//   bias   [OC] (optional: absent, or index -1)
//   output [N, OH, OW, OC]
// float32, and int8 with per-channel (dimension 0) or per-tensor filter
// scales, SAME/VALID padding, strides, dilation.
//
// This file: init, prepare (shared by every int8 eval; its common part with
// DEPTHWISE_CONV_2D in conv_common.cc) and the float eval.
// The int8 eval is ConvEvalInt8 (conv.h): conv_int8.cc, the portable one, or
// a tag-specialized replacement such as arm_dsp/conv_int8.cc.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/conv.h"
#include "micro_runtime/kernels/conv_common.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

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
  WindowGeometry& g = data->g;
  FilterOpTensors t;
  TF_LITE_ENSURE_OK(context,
                    PrepareConvTensors(kOp, "NHWC / OHWI", context, node, ConvWindowOptionsOf(*params), &t, &g));
  if (SizeOfDimension(t.filter, 3) != SizeOfDimension(t.input, 3)) {
    MicroPrintf("%s: filter has %d input channels but the input has %d (grouped convolution is not "
                "supported)",
                kOp, static_cast<int>(SizeOfDimension(t.filter, 3)),
                static_cast<int>(SizeOfDimension(t.input, 3)));
    return kTfLiteError;
  }
  g.out_ch = SizeOfDimension(t.filter, 0);
  g.filter_h = SizeOfDimension(t.filter, 1);
  g.filter_w = SizeOfDimension(t.filter, 2);
  TF_LITE_ENSURE_OK(context, PrepareWindowGeometry(kOp, t.input, t.output, params->padding, &g));
  for (int i = 0; i < 2; ++i) {
    data->scratch[i] = -1;
    const size_t scratch = t.input->type == kTfLiteInt8 ? ConvInt8ScratchBytes(g, i) : 0;
    if (scratch > 0) {
      int index = -1;
      TF_LITE_ENSURE_OK(context, context->RequestOptionalScratchBufferInArena(context, scratch, &index));
      data->scratch[i] = static_cast<int16_t>(index);
    }
  }
#if MICRO_RUNTIME_LAYER_CLASS
  TF_LITE_ENSURE_OK(context, PrepareConvQuantization(kOp, context, t.input, t.filter, t.bias, t.output,
                                                     params->activation, g.out_ch, &data->q));
  data->int8_class = PreparedInt8Class(t, [data](const int32_t* bias) { return ConvInt8LayerClass(*data, bias); });
  return kTfLiteOk;
#else
  return PrepareConvQuantization(kOp, context, t.input, t.filter, t.bias, t.output, params->activation, g.out_ch,
                                 &data->q);
#endif
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
      return ConvEvalInt8(context, *data, input->data.int8, filter->data.int8,
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
