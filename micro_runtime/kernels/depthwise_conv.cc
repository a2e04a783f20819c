// DEPTHWISE_CONV_2D: each input channel ic is convolved with its own
// depth_multiplier filters; output channel oc = ic * depth_multiplier + m.
//   input  [N, H, W, IC]
//   filter [1, FH, FW, IC * M]
//   bias   [IC * M] (optional: absent, or index -1)
//   output [N, OH, OW, IC * M]
// float32, and int8 with per-channel (dimension 3) or per-tensor filter
// scales, SAME/VALID padding, strides, dilation.
//
// Speed: for each output pixel the valid filter rows/columns are computed
// once (no per-tap bounds test), and a block of output channels is
// accumulated together in registers/stack so the innermost loop is a
// contiguous multiply-add over channels. With depth_multiplier > 1 one input
// value feeds a run of M adjacent filter values (micro_speech: 1 x 8).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "DEPTHWISE_CONV_2D";
// Output channels accumulated together by the float path (stack: 4 * 32 bytes).
constexpr int kBlock = 32;

struct OpData {
  int32_t batches;
  int32_t in_h, in_w, in_ch;
  int32_t out_h, out_w, out_ch;
  int32_t filter_h, filter_w;
  int32_t mult;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_h, pad_w;
  // int8 only.
  int32_t input_offset;
  int32_t output_offset;
  int32_t act_min, act_max;
  int32_t* multipliers;
  int32_t* shifts;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

const TfLiteTensor* GetBias(TfLiteContext* context, const TfLiteNode* node) {
  return NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteDepthwiseConvParams* params =
      static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
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
    MicroPrintf("%s: input, filter and output must be 4-D (NHWC), got ranks %d, %d, %d", kOp,
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
  data->filter_h = SizeOfDimension(filter, 1);
  data->filter_w = SizeOfDimension(filter, 2);
  data->out_ch = SizeOfDimension(filter, 3);
  if (SizeOfDimension(filter, 0) != 1 || data->in_ch <= 0 || data->out_ch % data->in_ch != 0) {
    MicroPrintf("%s: filter [%d, %d, %d, %d] must be [1, FH, FW, input channels (%d) x multiplier]",
                kOp, static_cast<int>(SizeOfDimension(filter, 0)), static_cast<int>(data->filter_h),
                static_cast<int>(data->filter_w), static_cast<int>(data->out_ch),
                static_cast<int>(data->in_ch));
    return kTfLiteError;
  }
  // The multiplier follows from the shapes (some converters leave the option 0).
  data->mult = data->out_ch / data->in_ch;
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
  const size_t channels = static_cast<size_t>(data->out_ch);
  data->multipliers = AllocatePersistentArray<int32_t>(context, channels);
  data->shifts = AllocatePersistentArray<int32_t>(context, channels);
  if (data->multipliers == nullptr || data->shifts == nullptr) {
    MicroPrintf("%s: out of arena memory for %d per-channel multipliers", kOp,
                static_cast<int>(data->out_ch));
    return kTfLiteError;
  }
  data->input_offset = -input->params.zero_point;
  data->output_offset = output->params.zero_point;
  return PopulateConvolutionQuantizationParams(kOp, input, filter, bias, output, params->activation,
                                               static_cast<int>(data->out_ch), 3, data->multipliers,
                                               data->shifts, &data->act_min, &data->act_max);
}

// Requantizes `n` accumulators of channels [c0, c0 + n) into `out`.
inline void StoreInt8(const OpData* d, const int32_t* acc, int c0, int n, int8_t* out) {
  for (int j = 0; j < n; ++j) {
    int32_t v = MultiplyByQuantizedMultiplier(acc[j], d->multipliers[c0 + j],
                                              static_cast<int>(d->shifts[c0 + j]));
    v += d->output_offset;
    out[j] = static_cast<int8_t>(ClampInt32(v, d->act_min, d->act_max));
  }
}

// The valid taps of one output pixel: `ny` x `nx` taps starting at `in` /
// `filter`, with the byte steps between taps along y and x.
struct Window {
  const int8_t* in;
  const int8_t* filter;
  int ny, nx;
  int in_step_y, in_step_x;
  int f_step_y, f_step_x;
};

// N output channels that share one input channel (depth_multiplier > 1):
// acc[j] += (in + offset) * filter[j]. N is a compile-time constant so the
// accumulators live in registers across all taps.
template <int N>
inline void AccumulateShared(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[N];
  for (int j = 0; j < N; ++j) a[j] = acc[j];
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
      const int32_t v = *in + offset;
#pragma GCC unroll 16
      for (int j = 0; j < N; ++j) a[j] += v * f[j];
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < N; ++j) acc[j] = a[j];
}

// N output channels, each reading its own input channel (multiplier 1).
template <int N>
inline void AccumulateOwn(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[N];
  for (int j = 0; j < N; ++j) a[j] = acc[j];
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
#pragma GCC unroll 16
      for (int j = 0; j < N; ++j) a[j] += (in[j] + offset) * f[j];
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < N; ++j) acc[j] = a[j];
}

// Leftover channels (fewer than a full block), one at a time.
inline void AccumulateRest(const Window& w, int32_t offset, bool shared, int n, int32_t* acc) {
  for (int j = 0; j < n; ++j) {
    int32_t a = acc[j];
    const int8_t* in_row = w.in + (shared ? 0 : j);
    const int8_t* f_row = w.filter + j;
    for (int y = 0; y < w.ny; ++y) {
      for (int x = 0; x < w.nx; ++x) a += (in_row[x * w.in_step_x] + offset) * f_row[x * w.f_step_x];
      in_row += w.in_step_y;
      f_row += w.f_step_y;
    }
    acc[j] = a;
  }
}

constexpr int kLanes = 8;

TfLiteStatus EvalInt8(const OpData* d, const int8_t* input, const int8_t* filter, const int32_t* bias,
                      int8_t* output) {
  const int in_ch = d->in_ch;
  const int out_ch = d->out_ch;
  const int mult = d->mult;
  const int32_t input_offset = d->input_offset;
  const int in_row_stride = d->in_w * in_ch;
  const int f_row_stride = d->filter_w * out_ch;
  Window w;
  w.in_step_y = d->dilation_h * in_row_stride;
  w.in_step_x = d->dilation_w * in_ch;
  w.f_step_y = f_row_stride;
  w.f_step_x = out_ch;
  int32_t acc[kLanes];
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
        w.ny = fy1 > fy0 ? fy1 - fy0 : 0;
        w.nx = fx1 > fx0 ? fx1 - fx0 : 0;
        const int8_t* in_px = in_batch + (origin_y + fy0 * d->dilation_h) * in_row_stride +
                              (origin_x + fx0 * d->dilation_w) * in_ch;
        const int8_t* f_px = filter + fy0 * f_row_stride + fx0 * out_ch;
        // Channel blocks: [c0, c0 + n) of the output, all within one input
        // channel when mult > 1.
        const int groups = mult == 1 ? 1 : in_ch;
        const int span = mult == 1 ? out_ch : mult;
        for (int g = 0; g < groups; ++g) {
          for (int m0 = 0; m0 < span; m0 += kLanes) {
            const int n = span - m0 < kLanes ? span - m0 : kLanes;
            const int c0 = g * mult + m0;
            for (int j = 0; j < n; ++j) acc[j] = bias != nullptr ? bias[c0 + j] : 0;
            w.filter = f_px + c0;
            if (mult == 1) {
              w.in = in_px + c0;
              if (n == kLanes) {
                AccumulateOwn<kLanes>(w, input_offset, acc);
              } else {
                AccumulateRest(w, input_offset, false, n, acc);
              }
            } else {
              w.in = in_px + g;
              if (n == kLanes) {
                AccumulateShared<kLanes>(w, input_offset, acc);
              } else {
                AccumulateRest(w, input_offset, true, n, acc);
              }
            }
            StoreInt8(d, acc, c0, n, output + c0);
          }
        }
        output += out_ch;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus EvalFloat(const OpData* d, const TfLiteDepthwiseConvParams* params, const float* input,
                       const float* filter, const float* bias, float* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const int in_ch = d->in_ch;
  const int out_ch = d->out_ch;
  const int mult = d->mult;
  const int in_row_stride = d->in_w * in_ch;
  const int f_row_stride = d->filter_w * out_ch;
  float acc[kBlock];
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
        // Channel c reads input channel c / mult; blocks never straddle an
        // input channel when mult > 1 so the input index stays cheap.
        for (int ic = 0; ic < (mult == 1 ? 1 : in_ch); ++ic) {
          const int span = mult == 1 ? out_ch : mult;
          for (int m0 = 0; m0 < span; m0 += kBlock) {
            const int n = span - m0 < kBlock ? span - m0 : kBlock;
            const int c0 = ic * mult + m0;
            for (int j = 0; j < n; ++j) acc[j] = 0.0f;
            for (int fy = fy0; fy < fy1; ++fy) {
              const float* in_row = in_batch + (origin_y + fy * d->dilation_h) * in_row_stride;
              const float* f_row = filter + fy * f_row_stride + c0;
              for (int fx = fx0; fx < fx1; ++fx) {
                const float* in_px = in_row + (origin_x + fx * d->dilation_w) * in_ch;
                const float* f_px = f_row + fx * out_ch;
                if (mult == 1) {
                  for (int j = 0; j < n; ++j) acc[j] += in_px[c0 + j] * f_px[j];
                } else {
                  const float v = in_px[ic];
                  for (int j = 0; j < n; ++j) acc[j] += v * f_px[j];
                }
              }
            }
            // Bias last, like the reference kernel, so float rounding matches.
            for (int j = 0; j < n; ++j) {
              const float v = acc[j] + (bias != nullptr ? bias[c0 + j] : 0.0f);
              output[c0 + j] = ClampFloat(v, act_min, act_max);
            }
          }
        }
        output += out_ch;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteDepthwiseConvParams* params =
      static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
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

TfLiteRegistration Register_DEPTHWISE_CONV_2D() { return {Init, nullptr, Prepare, Eval}; }
