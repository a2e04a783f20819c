// AVERAGE_POOL_2D and MAX_POOL_2D over NHWC tensors, float32 and int8.
// Windows are clipped to the input (padding taps are not counted), so an
// average at the edge divides by the number of real taps, like TFLite.
// int8 keeps the input's quantization: average = round-half-away-from-zero of
// sum / count, max = the largest tap; both clamped to the fused activation.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

struct OpData {
  WindowGeometry g;
  int32_t act_min, act_max;  // int8 only
};

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus PreparePool(const char* op, TfLiteContext* context, TfLiteNode* node) {
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
  if (output->type != input->type) {
    MicroPrintf("%s: output type %s must match input type %s", op, TfLiteTypeName(output->type),
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  if (input->type != kTfLiteInt8) {
    MicroPrintf("%s: input type %s not supported (use float32 or int8)", op, TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  if (input->params.scale != output->params.scale ||
      input->params.zero_point != output->params.zero_point) {
    MicroPrintf("%s: int8 output must keep the input's quantization (scale %f zp %d vs %f zp %d)", op,
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point),
                static_cast<double>(input->params.scale), static_cast<int>(input->params.zero_point));
    return kTfLiteError;
  }
  return CalculateActivationRangeQuantized(params->activation, output, &data->act_min, &data->act_max);
}

TfLiteStatus PrepareAverage(TfLiteContext* context, TfLiteNode* node) {
  return PreparePool("AVERAGE_POOL_2D", context, node);
}
TfLiteStatus PrepareMax(TfLiteContext* context, TfLiteNode* node) {
  return PreparePool("MAX_POOL_2D", context, node);
}

// Visits every output element with its clipped window; `Reduce` computes it.
// Reduce(in, ny, nx, row_stride) -> output value, where `in` points at the
// window's first tap of the element's channel.
template <typename T, typename Reduce>
void ForEachWindow(const OpData* d, const T* input, T* output, Reduce reduce) {
  const int channels = d->g.in_ch;
  const int row_stride = d->g.in_w * channels;
  ForEachOutputPixel(d->g, [&](const WindowPos& p) {
    const T* window = input + p.in_offset;
    for (int c = 0; c < channels; ++c) output[c] = reduce(window + c, p.ny, p.nx, row_stride);
    output += channels;
  });
}

TfLiteStatus EvalAverage(TfLiteContext* context, TfLiteNode* node) {
  const OpData* d = static_cast<const OpData*>(node->user_data);
  const TfLitePoolParams* p = static_cast<const TfLitePoolParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int channels = d->g.in_ch;
  if (input->type == kTfLiteFloat32) {
    float act_min = 0.0f;
    float act_max = 0.0f;
    CalculateActivationRange(p->activation, &act_min, &act_max);
    ForEachWindow(d, input->data.f, output->data.f,
                  [&](const float* in, int ny, int nx, int row_stride) -> float {
                    float total = 0.0f;
                    for (int y = 0; y < ny; ++y) {
                      for (int x = 0; x < nx; ++x) total += in[y * row_stride + x * channels];
                    }
                    const int count = ny * nx;
                    const float average = count > 0 ? total / static_cast<float>(count) : 0.0f;
                    return ClampFloat(average, act_min, act_max);
                  });
    return kTfLiteOk;
  }
  if (input->type == kTfLiteInt8) {
    const int32_t lo = d->act_min;
    const int32_t hi = d->act_max;
    ForEachWindow(d, input->data.int8, output->data.int8,
                  [&](const int8_t* in, int ny, int nx, int row_stride) -> int8_t {
                    int32_t sum = 0;
                    for (int y = 0; y < ny; ++y) {
                      for (int x = 0; x < nx; ++x) sum += in[y * row_stride + x * channels];
                    }
                    const int32_t count = ny * nx;
                    if (count == 0) return static_cast<int8_t>(ClampInt32(0, lo, hi));
                    // Round half away from zero, as TFLite's int8 average pool.
                    const int32_t avg = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
                    return static_cast<int8_t>(ClampInt32(avg, lo, hi));
                  });
    return kTfLiteOk;
  }
  MicroPrintf("AVERAGE_POOL_2D: input type %s not supported (use float32 or int8)",
              TfLiteTypeName(input->type));
  return kTfLiteError;
}

TfLiteStatus EvalMax(TfLiteContext* context, TfLiteNode* node) {
  const OpData* d = static_cast<const OpData*>(node->user_data);
  const TfLitePoolParams* p = static_cast<const TfLitePoolParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int channels = d->g.in_ch;
  if (input->type == kTfLiteFloat32) {
    float act_min = 0.0f;
    float act_max = 0.0f;
    CalculateActivationRange(p->activation, &act_min, &act_max);
    ForEachWindow(d, input->data.f, output->data.f,
                  [&](const float* in, int ny, int nx, int row_stride) -> float {
                    float best = -3.402823466e+38f;
                    for (int y = 0; y < ny; ++y) {
                      for (int x = 0; x < nx; ++x) {
                        const float v = in[y * row_stride + x * channels];
                        if (v > best) best = v;
                      }
                    }
                    return ClampFloat(best, act_min, act_max);
                  });
    return kTfLiteOk;
  }
  if (input->type == kTfLiteInt8) {
    const int32_t lo = d->act_min;
    const int32_t hi = d->act_max;
    ForEachWindow(d, input->data.int8, output->data.int8,
                  [&](const int8_t* in, int ny, int nx, int row_stride) -> int8_t {
                    int32_t best = -128;
                    for (int y = 0; y < ny; ++y) {
                      for (int x = 0; x < nx; ++x) {
                        const int32_t v = in[y * row_stride + x * channels];
                        if (v > best) best = v;
                      }
                    }
                    return static_cast<int8_t>(ClampInt32(best, lo, hi));
                  });
    return kTfLiteOk;
  }
  MicroPrintf("MAX_POOL_2D: input type %s not supported (use float32 or int8)",
              TfLiteTypeName(input->type));
  return kTfLiteError;
}

}  // namespace

TfLiteRegistration Register_AVERAGE_POOL_2D() { return {Init, nullptr, PrepareAverage, EvalAverage}; }
TfLiteRegistration Register_MAX_POOL_2D() { return {Init, nullptr, PrepareMax, EvalMax}; }
