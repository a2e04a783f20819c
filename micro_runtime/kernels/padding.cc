#include "micro_runtime/kernels/padding.h"

namespace micro_runtime {

// 64-bit intermediates: a corrupt model's huge stride, dilation or filter
// size must not overflow int (found by fuzzing). Results never exceed in_size
// (out size) or are clamped to INT32_MAX (padding).
int ComputeOutSize(TfLitePadding padding, int in_size, int filter_size, int stride, int dilation) {
  if (stride <= 0) return 0;
  const int64_t effective_filter = (static_cast<int64_t>(filter_size) - 1) * dilation + 1;
  if (padding == kTfLitePaddingSame) return static_cast<int>((static_cast<int64_t>(in_size) + stride - 1) / stride);
  if (in_size < effective_filter) return 0;
  return static_cast<int>((in_size - effective_filter + stride) / stride);
}

int ComputePadding(int stride, int dilation, int in_size, int filter_size, int out_size, int* offset) {
  const int64_t effective_filter = (static_cast<int64_t>(filter_size) - 1) * dilation + 1;
  int64_t total = (static_cast<int64_t>(out_size) - 1) * stride + effective_filter - in_size;
  if (total < 0) total = 0;
  if (total > INT32_MAX) total = INT32_MAX;
  if (offset != nullptr) *offset = static_cast<int>(total % 2);
  return static_cast<int>(total / 2);
}

PaddingValues ComputePaddingHeightWidth(int stride_height, int stride_width, int dilation_height,
                                        int dilation_width, int in_height, int in_width,
                                        int filter_height, int filter_width, TfLitePadding padding,
                                        int* out_height, int* out_width) {
  *out_height = ComputeOutSize(padding, in_height, filter_height, stride_height, dilation_height);
  *out_width = ComputeOutSize(padding, in_width, filter_width, stride_width, dilation_width);
  PaddingValues p;
  p.height = ComputePadding(stride_height, dilation_height, in_height, filter_height, *out_height,
                            &p.height_offset);
  p.width = ComputePadding(stride_width, dilation_width, in_width, filter_width, *out_width,
                           &p.width_offset);
  return p;
}

TfLiteStatus PrepareWindowGeometry(const char* op_name, const TfLiteTensor* input,
                                   const TfLiteTensor* output, TfLitePadding padding,
                                   WindowGeometry* g) {
  // A filter with a zero dimension holds no taps, however large its other dimension (fuzzing found a
  // 540,016,642 x 0 filter: its window walk took 24 s per Invoke); a real filter's size is bounded by its data.
  if (g->filter_h < 1 || g->filter_w < 1) {
    MicroPrintf("%s: filter window %d x %d has no taps; the model is corrupt", op_name,
                static_cast<int>(g->filter_h), static_cast<int>(g->filter_w));
    return kTfLiteError;
  }
  g->batches = SizeOfDimension(input, 0);
  g->in_h = SizeOfDimension(input, 1);
  g->in_w = SizeOfDimension(input, 2);
  g->in_ch = SizeOfDimension(input, 3);
  int out_h = 0;
  int out_w = 0;
  const PaddingValues pad = ComputePaddingHeightWidth(
      g->stride_h, g->stride_w, g->dilation_h, g->dilation_w, g->in_h, g->in_w, g->filter_h,
      g->filter_w, padding, &out_h, &out_w);
  g->pad_h = pad.height;
  g->pad_w = pad.width;
  g->out_h = out_h;
  g->out_w = out_w;
  if (SizeOfDimension(output, 0) != g->batches || SizeOfDimension(output, 1) != out_h ||
      SizeOfDimension(output, 2) != out_w || SizeOfDimension(output, 3) != g->out_ch) {
    MicroPrintf("%s: output shape [%d, %d, %d, %d] does not match the computed [%d, %d, %d, %d]",
                op_name, static_cast<int>(SizeOfDimension(output, 0)),
                static_cast<int>(SizeOfDimension(output, 1)),
                static_cast<int>(SizeOfDimension(output, 2)),
                static_cast<int>(SizeOfDimension(output, 3)), static_cast<int>(g->batches), out_h,
                out_w, static_cast<int>(g->out_ch));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
