// CONV_2D: output[b, y, x, oc] = act(bias[oc] + sum over the filter window
// and all input channels of input * filter[oc]).
//   input  [N, H, W, IC]
//   filter [OC, FH, FW, IC]
//   bias   [OC] (optional: absent, or index -1)
//   output [N, OH, OW, OC]
// float32, and int8 with per-channel (dimension 0) or per-tensor filter
// scales, SAME/VALID padding, strides, dilation.
//
// Speed: the valid part of each window is computed once per output pixel;
// with dilation_w == 1 a window row is one contiguous run of FW' * IC values
// in both the input and the filter, so the work is a few long dot products.
// int8: sum((in + offset) * f) = sum(in * f) + offset * sum(f); for windows
// that lie fully inside the input the second term is a per-channel constant
// folded into the bias in prepare (constant filters only).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "CONV_2D";

struct OpData {
  WindowGeometry g;
  Int8ChannelQuant q;  // int8 only
};

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
  TF_LITE_ENSURE_OK(context, CheckFilterOpTypes(kOp, input, filter, bias, output, g.out_ch,
                                                "output channel"));
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  return PrepareInt8ChannelQuant(kOp, context, input, filter, bias, output, params->activation,
                                 static_cast<int>(g.out_ch), 0, kFoldBias, &data->q);
}

inline int32_t Dot(const int8_t* a, const int8_t* b, int n) {
  int32_t sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<int32_t>(a[i]) * b[i];
  return sum;
}

// sum(a * b) and sum(b) together, for windows that need the offset term.
inline int32_t DotWithOffset(const int8_t* a, const int8_t* b, int n, int32_t offset) {
  int32_t sum = 0;
  int32_t b_sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += static_cast<int32_t>(a[i]) * b[i];
    b_sum += b[i];
  }
  return sum + offset * b_sum;
}

TfLiteStatus EvalInt8(const OpData* data, const int8_t* input, const int8_t* filter,
                      const int32_t* bias, int8_t* output) {
  const WindowGeometry& g = data->g;
  const Int8ChannelQuant& q = data->q;
  const int in_ch = g.in_ch;
  const int in_row_stride = g.in_w * in_ch;
  const int f_row_stride = g.filter_w * in_ch;
  const int f_channel_stride = g.filter_h * f_row_stride;
  const int in_step_y = g.dilation_h * in_row_stride;
  const int in_step_x = g.dilation_w * in_ch;
  const int32_t input_offset = q.input_offset;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    const bool full = p.ny == g.filter_h && p.nx == g.filter_w;
    const bool use_folded = full && q.folded_bias != nullptr;
    const int8_t* in_win = input + p.in_offset;
    const int row_len = p.nx * in_ch;  // contiguous run per window row when dilation_w == 1
    for (int oc = 0; oc < g.out_ch; ++oc) {
      const int8_t* f_win = filter + oc * f_channel_stride + p.fy0 * f_row_stride + p.fx0 * in_ch;
      // The (possibly corrupt) model bias is added last with WrappingAdd, so
      // only the bounded int8 products go through plain int32 sums (fuzzing).
      int32_t base;
      if (use_folded) {
        base = q.folded_bias[oc];
      } else {
        base = bias != nullptr ? bias[oc] : 0;
      }
      int32_t acc = 0;
      const int8_t* in_row = in_win;
      const int8_t* f_row = f_win;
      for (int y = 0; y < p.ny; ++y) {
        if (g.dilation_w == 1) {
          acc += use_folded ? Dot(in_row, f_row, row_len)
                            : DotWithOffset(in_row, f_row, row_len, input_offset);
        } else {
          for (int x = 0; x < p.nx; ++x) {
            acc += use_folded ? Dot(in_row + x * in_step_x, f_row + x * in_ch, in_ch)
                              : DotWithOffset(in_row + x * in_step_x, f_row + x * in_ch, in_ch,
                                              input_offset);
          }
        }
        in_row += in_step_y;
        f_row += f_row_stride;  // filter rows are dense; dilation only spreads the input
      }
      output[oc] = RequantizeToInt8(q, WrappingAdd(acc, base), oc);
    }
    output += g.out_ch;
  });
  return kTfLiteOk;
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
      return EvalInt8(data, input->data.int8, filter->data.int8,
                      bias != nullptr ? bias->data.i32 : nullptr, output->data.int8);
    default:
      MicroPrintf("%s: input type %s not supported (use float32 or int8)", kOp,
                  TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_CONV_2D() { return {Init, nullptr, Prepare, Eval}; }
