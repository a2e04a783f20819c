// AVERAGE_POOL_2D and MAX_POOL_2D over NHWC tensors, float32, int8 and int16
// (zero point 0). Windows are clipped to the input (padding taps are not
// counted), so an average at the edge divides by the number of real taps,
// like TFLite. int8/int16 keep the input's quantization: average =
// round-half-away-from-zero of the int32 sum / count, max = the largest tap;
// both clamped to the fused activation (TFLM's integer pooling). Both ops and
// every type share one eval (EvalPool), which keeps the int16 paths cheap in
// flash.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/pooling_int8.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

struct OpData {
  WindowGeometry g;
  int32_t act_min, act_max;  // int8/int16 only
};

// Taps one Invoke() may visit: 2^24 is about a second on a Cortex-M4 (several cycles a tap) and ~5x the
// largest pool of ImageNet-class models (ResNet's 3x3/2 max pool on 112x112x64: 1.8 M). A pool's options
// set its window freely: a SAME-padded window as large as its input visits ~(input elements)^2 taps, e.g.
// 2.4 x 10^9 for a 256x256 float input (found by fuzzing: seconds on host, minutes on a board).
constexpr int64_t kMaxPoolTaps = int64_t{1} << 24;

// The taps Eval visits (each output pixel's window clipped to the input, as ForEachOutputPixel walks it,
// times channels and batches), or kMaxPoolTaps + 1 when that is more.
int64_t PoolTaps(const WindowGeometry& g) {
  const int64_t over = kMaxPoolTaps + 1;
  if (g.batches <= 0 || g.in_ch <= 0 || g.out_h <= 0 || g.out_w <= 0) return 0;  // no output: no work
  // Every window holds a tap, so each output element costs one at least; this also bounds the loops below.
  if (static_cast<int64_t>(g.out_h) * g.out_w > kMaxPoolTaps / (static_cast<int64_t>(g.batches) * g.in_ch)) {
    return over;
  }
  int64_t rows = 0;
  int64_t cols = 0;
  int lo = 0;
  int hi = 0;
  for (int oy = 0; oy < g.out_h; ++oy) {
    ValidFilterRange(oy * g.stride_h - g.pad_h, 1, g.in_h, g.filter_h, &lo, &hi);
    rows += hi > lo ? hi - lo : 0;
  }
  for (int ox = 0; ox < g.out_w; ++ox) {
    ValidFilterRange(ox * g.stride_w - g.pad_w, 1, g.in_w, g.filter_w, &lo, &hi);
    cols += hi > lo ? hi - lo : 0;
  }
  // batches x channels <= kMaxPoolTaps (checked above); multiply on while the product stays within it.
  const int64_t per_row = static_cast<int64_t>(g.batches) * g.in_ch;
  if (rows == 0 || cols == 0) return 0;
  if (per_row > kMaxPoolTaps / rows) return over;
  if (per_row * rows > kMaxPoolTaps / cols) return over;
  return per_row * rows * cols;
}

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus PreparePool(const char* op, bool average, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(op, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLitePoolParams* params = static_cast<const TfLitePoolParams*>(node->builtin_data);
  if (NumInputs(node) != 1 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 1 input and 1 output, got %d and %d", op, NumInputs(node),
                NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, input != nullptr && output != nullptr);
  if (NumDimensions(input) != 4 || NumDimensions(output) != 4) {
    MicroPrintf("%s: input and output must be 4-D (NHWC), got ranks %d and %d", op,
                NumDimensions(input), NumDimensions(output));
    return kTfLiteError;
  }
  if (params->stride_height <= 0 || params->stride_width <= 0 || params->filter_height <= 0 ||
      params->filter_width <= 0) {
    MicroPrintf("%s: strides (%d, %d) and filter size (%d, %d) must be >= 1", op,
                static_cast<int>(params->stride_height), static_cast<int>(params->stride_width),
                static_cast<int>(params->filter_height), static_cast<int>(params->filter_width));
    return kTfLiteError;
  }
  WindowGeometry& g = data->g;
  g.out_ch = SizeOfDimension(input, 3);
  g.filter_h = params->filter_height;
  g.filter_w = params->filter_width;
  g.stride_h = params->stride_height;
  g.stride_w = params->stride_width;
  g.dilation_h = 1;
  g.dilation_w = 1;
  TF_LITE_ENSURE_OK(context, PrepareWindowGeometry(op, input, output, params->padding, &g));
  // Cap the work of one Invoke (every type, both ops), as a filter's data caps a convolution's window.
  const int64_t taps = PoolTaps(g);
  if (taps > kMaxPoolTaps) {
    MicroPrintf("%s: a %dx%d window (stride %dx%d) over input [%d, %d, %d, %d] visits more than %d taps per "
                "Invoke, the most one op may take here (about a second on a microcontroller); the model is "
                "corrupt or too heavy for one",
                op, static_cast<int>(g.filter_h), static_cast<int>(g.filter_w), static_cast<int>(g.stride_h),
                static_cast<int>(g.stride_w), static_cast<int>(g.batches), static_cast<int>(g.in_h),
                static_cast<int>(g.in_w), static_cast<int>(g.in_ch), static_cast<int>(kMaxPoolTaps));
    return kTfLiteError;
  }
  if (output->type != input->type) {
    MicroPrintf("%s: output type %s must match input type %s", op, TfLiteTypeName(output->type),
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  if (input->type != kTfLiteInt8 && input->type != kTfLiteInt16) {
    MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", op, TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input", input));
  if (input->params.scale != output->params.scale ||
      input->params.zero_point != output->params.zero_point) {
    MicroPrintf("%s: %s output must keep the input's quantization (scale %f zp %d vs %f zp %d)", op,
                TfLiteTypeName(input->type), static_cast<double>(output->params.scale),
                static_cast<int>(output->params.zero_point), static_cast<double>(input->params.scale),
                static_cast<int>(input->params.zero_point));
    return kTfLiteError;
  }
  // The average sums a window's taps in int32: at most 65,535 int16 taps
  // (2^31 / 32768) or 16.7 M int8 taps. A window holds at most
  // min(filter, input) taps per axis.
  const int32_t taps_h = g.filter_h < g.in_h ? g.filter_h : g.in_h;
  const int32_t taps_w = g.filter_w < g.in_w ? g.filter_w : g.in_w;
  const int32_t max_taps = input->type == kTfLiteInt16 ? 65535 : 16777215;
  if (average && static_cast<int64_t>(taps_h) * taps_w > max_taps) {
    MicroPrintf("%s: %dx%d %s taps per window, more than the int32 sum holds (%d)", op, static_cast<int>(taps_h),
                static_cast<int>(taps_w), TfLiteTypeName(input->type), static_cast<int>(max_taps));
    return kTfLiteError;
  }
  return CalculateActivationRangeQuantized(params->activation, output, &data->act_min, &data->act_max);
}

TfLiteStatus PrepareAverage(TfLiteContext* context, TfLiteNode* node) {
  return PreparePool("AVERAGE_POOL_2D", true, context, node);
}
TfLiteStatus PrepareMax(TfLiteContext* context, TfLiteNode* node) {
  return PreparePool("MAX_POOL_2D", false, context, node);
}

// One window's taps of one channel (`in` the first, rows `row_stride` and taps
// `channels` elements apart): their sum (average) or their maximum, from
// `lowest` (an empty window's maximum).
template <typename Acc, typename T>
Acc SumOrMax(bool average, const T* in, int ny, int nx, int row_stride, int channels, Acc lowest) {
  Acc acc = average ? Acc(0) : lowest;
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const Acc v = in[y * row_stride + x * channels];
      if (average) {
        acc += v;
      } else if (v > acc) {
        acc = v;
      }
    }
  }
  return acc;
}

// float32: the float sum / count (0 for an empty window) or the max.
float ReduceFloat(bool average, const float* in, int ny, int nx, int row_stride, int channels) {
  const float acc = SumOrMax(average, in, ny, nx, row_stride, channels, -3.402823466e+38f);
  const int count = ny * nx;
  if (!average) return acc;
  return count > 0 ? acc / static_cast<float>(count) : 0.0f;
}

// int8/int16: the int32 sum / count rounded half away from zero (TFLite's
// integer average pool; 0 for an empty window) or the max (the type's minimum
// for an empty window).
template <typename T>
int32_t Reduce(bool average, const T* in, int ny, int nx, int row_stride, int channels) {
  const int32_t acc = SumOrMax(average, in, ny, nx, row_stride, channels, int32_t{sizeof(T) == 1 ? -128 : -32768});
  const int32_t count = ny * nx;
  if (!average) return acc;
  if (count == 0) return 0;
  return acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
}

// Both ops, every type, in one loop nest over the output elements (the
// element type is picked per element), clamped to the fused activation: int16
// and MAX_POOL_2D cost little flash beside int8 AVERAGE_POOL_2D.
TfLiteStatus EvalPool(bool average, TfLiteContext* context, TfLiteNode* node) {
  const OpData* d = static_cast<const OpData*>(node->user_data);
  const TfLitePoolParams* params = static_cast<const TfLitePoolParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const TfLiteType type = input->type;
  float act_min_f = 0.0f;
  float act_max_f = 0.0f;
  CalculateActivationRange(params->activation, &act_min_f, &act_max_f);
  const int channels = d->g.in_ch;
  const int row_stride = d->g.in_w * channels;
  const int32_t lo = d->act_min;
  const int32_t hi = d->act_max;
  const float* in_f = input->data.f;
  const int8_t* in8 = input->data.int8;
  const int16_t* in16 = input->data.i16;
  float* out_f = output->data.f;
  int8_t* out8 = output->data.int8;
  int16_t* out16 = output->data.i16;
  if (average && type == kTfLiteInt8 && AveragePoolInt8(d->g, in8, out8, lo, hi)) return kTfLiteOk;
  int32_t out = 0;
  ForEachOutputPixel(d->g, [&](const WindowPos& p) {
    for (int c = 0; c < channels; ++c, ++out) {
      const int32_t first = p.in_offset + c;
      if (type == kTfLiteFloat32) {
        const float v = ReduceFloat(average, in_f + first, p.ny, p.nx, row_stride, channels);
        out_f[out] = ClampFloat(v, act_min_f, act_max_f);
      } else if (type == kTfLiteInt16) {
        out16[out] = static_cast<int16_t>(
            ClampInt32(Reduce(average, in16 + first, p.ny, p.nx, row_stride, channels), lo, hi));
      } else {
        out8[out] = static_cast<int8_t>(
            ClampInt32(Reduce(average, in8 + first, p.ny, p.nx, row_stride, channels), lo, hi));
      }
    }
  });
  return kTfLiteOk;
}

TfLiteStatus EvalAverage(TfLiteContext* context, TfLiteNode* node) { return EvalPool(true, context, node); }
TfLiteStatus EvalMax(TfLiteContext* context, TfLiteNode* node) { return EvalPool(false, context, node); }

}  // namespace

TfLiteRegistration Register_AVERAGE_POOL_2D() { return {Init, nullptr, PrepareAverage, EvalAverage}; }
TfLiteRegistration Register_MAX_POOL_2D() { return {Init, nullptr, PrepareMax, EvalMax}; }

}  // namespace micro_runtime
