// DEPTHWISE_CONV_2D: each input channel ic is convolved with its own
// depth_multiplier filters; output channel oc = ic * depth_multiplier + m.
//   input  [N, H, W, IC]
//   filter [1, FH, FW, IC * M]
//   bias   [IC * M] (optional: absent, or index -1)
//   output [N, OH, OW, IC * M]
// float32, and int8 with per-channel (dimension 3) or per-tensor filter
// scales, SAME/VALID padding, strides, dilation.
//
// This file: init, prepare (its common part with CONV_2D in conv_common.cc)
// and the float eval; the int8 eval's channel-block
// loop is depthwise_conv.h's, with the accumulators of depthwise_conv_int8.cc
// (portable) or of a tag-specialized replacement (arm_dsp/).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/conv_common.h"
#include "micro_runtime/kernels/depthwise_conv.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "DEPTHWISE_CONV_2D";
// Output channels accumulated together by the float path (stack: 4 * 32 bytes).
constexpr int kBlock = 32;

using OpData = DepthwiseOpData;

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

// The depth multiplier's limit where the op data keeps it as int16 (MICRO_RUNTIME_LAYER_CLASS), in the
// message (a literal: an argument would cost the Cortex-M3 builds' flash).
#if MICRO_RUNTIME_LAYER_CLASS
#define MR_DW_MULTIPLIER_LIMIT " <= 32767"
#else
#define MR_DW_MULTIPLIER_LIMIT ""
#endif

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteDepthwiseConvParams* params =
      static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  WindowGeometry& g = data->g;
  FilterOpTensors t;
  TF_LITE_ENSURE_OK(context, PrepareConvTensors(kOp, "NHWC", context, node, ConvWindowOptionsOf(*params), &t, &g));
  const int32_t in_ch = SizeOfDimension(t.input, 3);
  g.filter_h = SizeOfDimension(t.filter, 1);
  g.filter_w = SizeOfDimension(t.filter, 2);
  g.out_ch = SizeOfDimension(t.filter, 3);
  if (SizeOfDimension(t.filter, 0) != 1 || in_ch <= 0 || g.out_ch % in_ch != 0 ||
      (MICRO_RUNTIME_LAYER_CLASS && g.out_ch / in_ch > INT16_MAX)) {
    MicroPrintf("%s: filter [%d, %d, %d, %d] must be [1, FH, FW, input channels (%d) x multiplier" MR_DW_MULTIPLIER_LIMIT
                "]",
                kOp, static_cast<int>(SizeOfDimension(t.filter, 0)), static_cast<int>(g.filter_h),
                static_cast<int>(g.filter_w), static_cast<int>(g.out_ch), static_cast<int>(in_ch));
    return kTfLiteError;
  }
  // The multiplier follows from the shapes (some converters leave the option 0).
  data->mult = static_cast<decltype(data->mult)>(g.out_ch / in_ch);
  TF_LITE_ENSURE_OK(context, PrepareWindowGeometry(kOp, t.input, t.output, params->padding, &g));
#if MICRO_RUNTIME_LAYER_CLASS
  TF_LITE_ENSURE_OK(context, PrepareConvQuantization(kOp, context, t.input, t.filter, t.bias, t.output,
                                                     params->activation, g.out_ch, &data->q, 3, true));
  data->int8_class =
      PreparedInt8Class(t, [data](const int32_t* bias) { return DepthwiseInt8LayerClass(*data, bias); });
  return kTfLiteOk;
#else
  return PrepareConvQuantization(kOp, context, t.input, t.filter, t.bias, t.output, params->activation, g.out_ch,
                                 &data->q, 3, true);
#endif
}

TfLiteStatus EvalFloat(const OpData* d, const TfLiteDepthwiseConvParams* params, const float* input,
                       const float* filter, const float* bias, float* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const WindowGeometry& g = d->g;
  const int in_ch = g.in_ch;
  const int out_ch = g.out_ch;
  const int mult = d->mult;
  const int in_step_y = g.dilation_h * g.in_w * in_ch;
  const int in_step_x = g.dilation_w * in_ch;
  const int f_row_stride = g.filter_w * out_ch;
  float acc[kBlock];
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    // Channel c reads input channel c / mult; blocks never straddle an
    // input channel when mult > 1 so the input index stays cheap.
    for (int ic = 0; ic < (mult == 1 ? 1 : in_ch); ++ic) {
      const int span = mult == 1 ? out_ch : mult;
      for (int m0 = 0; m0 < span; m0 += kBlock) {
        const int n = span - m0 < kBlock ? span - m0 : kBlock;
        const int c0 = ic * mult + m0;
        for (int j = 0; j < n; ++j) acc[j] = 0.0f;
        const float* in_row = input + p.in_offset;
        for (int fy = p.fy0; fy < p.fy1; ++fy) {
          const float* f_row = filter + fy * f_row_stride + c0;
          const float* in_px = in_row;
          for (int fx = p.fx0; fx < p.fx1; ++fx) {
            const float* f_px = f_row + fx * out_ch;
            if (mult == 1) {
              for (int j = 0; j < n; ++j) acc[j] += in_px[c0 + j] * f_px[j];
            } else {
              const float v = in_px[ic];
              for (int j = 0; j < n; ++j) acc[j] += v * f_px[j];
            }
            in_px += in_step_x;
          }
          in_row += in_step_y;
        }
        // Bias last, like the reference kernel, so float rounding matches.
        for (int j = 0; j < n; ++j) {
          const float v = acc[j] + (bias != nullptr ? bias[c0 + j] : 0.0f);
          output[c0 + j] = ClampFloat(v, act_min, act_max);
        }
      }
    }
    output += out_ch;
  });
  return kTfLiteOk;
}

// The int8 eval of Eval and of Register_DEPTHWISE_CONV_2D_INT8.
// Inlined into both: as a call of its own it cost hello_world_int8 156 instructions per Invoke.
__attribute__((always_inline)) inline TfLiteStatus EvalInt8Tensors(TfLiteContext* context, const OpData* data,
                                                                   const TfLiteTensor* input,
                                                                   const TfLiteTensor* filter,
                                                                   const TfLiteTensor* bias, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, CheckVariableBiasRange(kOp, input, filter, bias, data->g.out_ch, 3));
  return DepthwiseEvalInt8(*data, input->data.int8, filter->data.int8, bias != nullptr ? bias->data.i32 : nullptr,
                           output->data.int8);
}

TfLiteStatus EvalInt8(TfLiteContext* context, TfLiteNode* node) {
  return EvalInt8Tensors(context, static_cast<const OpData*>(node->user_data), GetInput(context, node, 0),
                         GetInput(context, node, 1), GetOptionalBias(context, node), GetOutput(context, node, 0));
}

TfLiteStatus PrepareInt8(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, RequireInt8Input(kOp, "Register_DEPTHWISE_CONV_2D_INT8", context, node));
  return Prepare(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteDepthwiseConvParams* params =
      static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = GetOptionalBias(context, node);
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      return EvalFloat(data, params, input->data.f, filter->data.f,
                       bias != nullptr ? bias->data.f : nullptr, output->data.f);
    case kTfLiteInt8:
      return EvalInt8Tensors(context, data, input, filter, bias, output);
    case kTfLiteInt16: {
      Int16FilterEval e;
      TF_LITE_ENSURE_OK(context, PrepareInt16FilterEval(bias, output, params->activation, &e));
      return DepthwiseEvalInt16(*data, e, input->data.i16, filter->data.int8, output->data.i16);
    }
    default:
      MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", kOp,
                  TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_DEPTHWISE_CONV_2D() { return {Init, nullptr, Prepare, Eval}; }
TfLiteRegistration Register_DEPTHWISE_CONV_2D_INT8() { return {Init, nullptr, PrepareInt8, EvalInt8}; }

}  // namespace micro_runtime
