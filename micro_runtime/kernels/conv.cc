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
  int32_t batches;
  int32_t in_h, in_w, in_ch;
  int32_t out_h, out_w, out_ch;
  int32_t filter_h, filter_w;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_h, pad_w;
  // int8 only.
  int32_t input_offset;
  int32_t output_offset;
  int32_t act_min, act_max;
  int32_t* multipliers;
  int32_t* shifts;
  int32_t* folded_bias;  // bias + input_offset * sum(filter[oc]); nullptr if not constant
};

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

const TfLiteTensor* GetBias(TfLiteContext* context, const TfLiteNode* node) {
  return NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteConvParams* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  if (data == nullptr) {
    MicroPrintf("%s: out of arena memory for op data (enlarge the tensor arena)", kOp);
    return kTfLiteError;
  }
  if (params == nullptr) {
    MicroPrintf("%s: missing builtin options", kOp);
    return kTfLiteError;
  }
  if (NumInputs(node) < 2 || NumInputs(node) > 3 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 2-3 inputs (input, filter, optional bias) and 1 output, got %d and %d",
                kOp, NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = GetBias(context, node);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, input != nullptr && filter != nullptr && output != nullptr);
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
  data->batches = SizeOfDimension(input, 0);
  data->in_h = SizeOfDimension(input, 1);
  data->in_w = SizeOfDimension(input, 2);
  data->in_ch = SizeOfDimension(input, 3);
  data->out_ch = SizeOfDimension(filter, 0);
  data->filter_h = SizeOfDimension(filter, 1);
  data->filter_w = SizeOfDimension(filter, 2);
  if (SizeOfDimension(filter, 3) != data->in_ch) {
    MicroPrintf("%s: filter has %d input channels but the input has %d (grouped convolution is not "
                "supported)",
                kOp, static_cast<int>(SizeOfDimension(filter, 3)), static_cast<int>(data->in_ch));
    return kTfLiteError;
  }
  data->stride_h = params->stride_height;
  data->stride_w = params->stride_width;
  data->dilation_h = params->dilation_height_factor;
  data->dilation_w = params->dilation_width_factor;
  int out_h = 0;
  int out_w = 0;
  const PaddingValues pad = ComputePaddingHeightWidth(
      data->stride_h, data->stride_w, data->dilation_h, data->dilation_w, data->in_h, data->in_w,
      data->filter_h, data->filter_w, params->padding, &out_h, &out_w);
  data->pad_h = pad.height;
  data->pad_w = pad.width;
  data->out_h = out_h;
  data->out_w = out_w;
  if (SizeOfDimension(output, 0) != data->batches || SizeOfDimension(output, 1) != out_h ||
      SizeOfDimension(output, 2) != out_w || SizeOfDimension(output, 3) != data->out_ch) {
    MicroPrintf("%s: output shape [%d, %d, %d, %d] does not match the computed [%d, %d, %d, %d]", kOp,
                static_cast<int>(SizeOfDimension(output, 0)), static_cast<int>(SizeOfDimension(output, 1)),
                static_cast<int>(SizeOfDimension(output, 2)), static_cast<int>(SizeOfDimension(output, 3)),
                static_cast<int>(data->batches), out_h, out_w, static_cast<int>(data->out_ch));
    return kTfLiteError;
  }
  if (bias != nullptr && ElementCount(bias->dims) != data->out_ch) {
    MicroPrintf("%s: bias has %d elements, expected %d (one per output channel)", kOp,
                static_cast<int>(ElementCount(bias->dims)), static_cast<int>(data->out_ch));
    return kTfLiteError;
  }
  if (output->type != input->type) {
    MicroPrintf("%s: output type %s must match input type %s", kOp, TfLiteTypeName(output->type),
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) {
    TF_LITE_ENSURE_OK(context, EnsureType(kOp, "filter", filter, kTfLiteFloat32));
    if (bias != nullptr) TF_LITE_ENSURE_OK(context, EnsureType(kOp, "bias", bias, kTfLiteFloat32));
    return kTfLiteOk;
  }
  if (input->type != kTfLiteInt8) {
    MicroPrintf("%s: input type %s not supported (use float32 or int8)", kOp,
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, EnsureType(kOp, "filter", filter, kTfLiteInt8));
  const int out_ch = static_cast<int>(data->out_ch);
  data->multipliers = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(out_ch));
  data->shifts = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(out_ch));
  if (data->multipliers == nullptr || data->shifts == nullptr) {
    MicroPrintf("%s: out of arena memory for %d per-channel multipliers", kOp, out_ch);
    return kTfLiteError;
  }
  data->input_offset = -input->params.zero_point;
  data->output_offset = output->params.zero_point;
  TF_LITE_ENSURE_OK(context, PopulateConvolutionQuantizationParams(
                                 kOp, input, filter, bias, output, params->activation, out_ch, 0,
                                 data->multipliers, data->shifts, &data->act_min, &data->act_max));
  data->folded_bias = nullptr;
  if (filter->is_constant && (bias == nullptr || bias->is_constant)) {
    data->folded_bias = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(out_ch));
    if (data->folded_bias == nullptr) {
      MicroPrintf("%s: out of arena memory for %d folded bias values", kOp, out_ch);
      return kTfLiteError;
    }
    const int32_t per_channel = data->filter_h * data->filter_w * data->in_ch;
    const int8_t* f = filter->data.int8;
    for (int oc = 0; oc < out_ch; ++oc) {
      int32_t sum = 0;
      for (int32_t i = 0; i < per_channel; ++i) sum += f[i];
      f += per_channel;
      data->folded_bias[oc] = (bias != nullptr ? bias->data.i32[oc] : 0) + data->input_offset * sum;
    }
  }
  return kTfLiteOk;
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

TfLiteStatus EvalInt8(const OpData* d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                      int8_t* output) {
  const int in_ch = d->in_ch;
  const int in_row_stride = d->in_w * in_ch;
  const int f_row_stride = d->filter_w * in_ch;
  const int f_channel_stride = d->filter_h * f_row_stride;
  const int32_t input_offset = d->input_offset;
  for (int b = 0; b < d->batches; ++b) {
    const int8_t* in_batch = input + b * d->in_h * in_row_stride;
    for (int oy = 0; oy < d->out_h; ++oy) {
      const int origin_y = oy * d->stride_h - d->pad_h;
      int fy0 = 0;
      int fy1 = 0;
      ValidFilterRange(origin_y, d->dilation_h, d->in_h, d->filter_h, &fy0, &fy1);
      for (int ox = 0; ox < d->out_w; ++ox) {
        const int origin_x = ox * d->stride_w - d->pad_w;
        int fx0 = 0;
        int fx1 = 0;
        ValidFilterRange(origin_x, d->dilation_w, d->in_w, d->filter_w, &fx0, &fx1);
        const int ny = fy1 > fy0 ? fy1 - fy0 : 0;
        const int nx = fx1 > fx0 ? fx1 - fx0 : 0;
        const bool full = ny == d->filter_h && nx == d->filter_w;
        const bool use_folded = full && d->folded_bias != nullptr;
        const int8_t* in_win = in_batch + (origin_y + fy0 * d->dilation_h) * in_row_stride +
                               (origin_x + fx0 * d->dilation_w) * in_ch;
        const int in_step_y = d->dilation_h * in_row_stride;
        const int in_step_x = d->dilation_w * in_ch;
        const int row_len = nx * in_ch;  // contiguous run per window row when dilation_w == 1
        for (int oc = 0; oc < d->out_ch; ++oc) {
          const int8_t* f_win = filter + oc * f_channel_stride + fy0 * f_row_stride + fx0 * in_ch;
          int32_t acc;
          if (use_folded) {
            acc = d->folded_bias[oc];
          } else {
            acc = bias != nullptr ? bias[oc] : 0;
          }
          const int8_t* in_row = in_win;
          const int8_t* f_row = f_win;
          for (int y = 0; y < ny; ++y) {
            if (d->dilation_w == 1) {
              acc += use_folded ? Dot(in_row, f_row, row_len)
                                : DotWithOffset(in_row, f_row, row_len, input_offset);
            } else {
              for (int x = 0; x < nx; ++x) {
                acc += use_folded ? Dot(in_row + x * in_step_x, f_row + x * in_ch, in_ch)
                                  : DotWithOffset(in_row + x * in_step_x, f_row + x * in_ch, in_ch,
                                                  input_offset);
              }
            }
            in_row += in_step_y;
            f_row += f_row_stride;  // filter rows are dense; dilation only spreads the input
          }
          int32_t v = MultiplyByQuantizedMultiplier(acc, d->multipliers[oc], static_cast<int>(d->shifts[oc]));
          v += d->output_offset;
          output[oc] = static_cast<int8_t>(ClampInt32(v, d->act_min, d->act_max));
        }
        output += d->out_ch;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus EvalFloat(const OpData* d, const TfLiteConvParams* params, const float* input,
                       const float* filter, const float* bias, float* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const int in_ch = d->in_ch;
  const int in_row_stride = d->in_w * in_ch;
  const int f_row_stride = d->filter_w * in_ch;
  const int f_channel_stride = d->filter_h * f_row_stride;
  for (int b = 0; b < d->batches; ++b) {
    const float* in_batch = input + b * d->in_h * in_row_stride;
    for (int oy = 0; oy < d->out_h; ++oy) {
      const int origin_y = oy * d->stride_h - d->pad_h;
      int fy0 = 0;
      int fy1 = 0;
      ValidFilterRange(origin_y, d->dilation_h, d->in_h, d->filter_h, &fy0, &fy1);
      for (int ox = 0; ox < d->out_w; ++ox) {
        const int origin_x = ox * d->stride_w - d->pad_w;
        int fx0 = 0;
        int fx1 = 0;
        ValidFilterRange(origin_x, d->dilation_w, d->in_w, d->filter_w, &fx0, &fx1);
        for (int oc = 0; oc < d->out_ch; ++oc) {
          const float* f_oc = filter + oc * f_channel_stride;
          // Same summation order as the reference kernel (fy, fx, ic), bias last.
          float acc = 0.0f;
          for (int fy = fy0; fy < fy1; ++fy) {
            const float* in_row = in_batch + (origin_y + fy * d->dilation_h) * in_row_stride;
            const float* f_row = f_oc + fy * f_row_stride;
            for (int fx = fx0; fx < fx1; ++fx) {
              const float* in_px = in_row + (origin_x + fx * d->dilation_w) * in_ch;
              const float* f_px = f_row + fx * in_ch;
              for (int ic = 0; ic < in_ch; ++ic) acc += in_px[ic] * f_px[ic];
            }
          }
          if (bias != nullptr) acc += bias[oc];
          output[oc] = ClampFloat(acc, act_min, act_max);
        }
        output += d->out_ch;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteConvParams* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = GetBias(context, node);
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
