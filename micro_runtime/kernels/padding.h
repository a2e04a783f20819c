// Output size and padding of the NHWC windowed ops (CONV_2D,
// DEPTHWISE_CONV_2D, TRANSPOSE_CONV, pooling) by TFLite's formulas, and the
// walk over their output pixels with each pixel's valid filter taps.
#ifndef MICRO_RUNTIME_KERNELS_PADDING_H_
#define MICRO_RUNTIME_KERNELS_PADDING_H_

#include <stdint.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// Output length of a windowed op along one axis (TFLite formula):
//   SAME:  ceil(in / stride)
//   VALID: ceil((in - effective_filter + 1) / stride), 0 if the window never fits
// where effective_filter = (filter - 1) * dilation + 1.
int ComputeOutSize(TfLitePadding padding, int in_size, int filter_size, int stride, int dilation = 1);

// Padding before the first element along one axis for an output of
// `out_size` (TFLite: half the total padding, the odd extra goes after).
// `offset` (optional) receives total_padding % 2.
int ComputePadding(int stride, int dilation, int in_size, int filter_size, int out_size,
                   int* offset = nullptr);

// Range [*lo, *hi) of filter taps f whose input coordinate
// origin + f * dilation lies inside [0, in_size); empty when *lo >= *hi.
// Lets windowed kernels skip padding without a test per tap.
inline void ValidFilterRange(int origin, int dilation, int in_size, int filter_size, int* lo,
                             int* hi) {
  int first = 0;
  if (origin < 0) first = (-origin + dilation - 1) / dilation;
  int last = filter_size;
  const int room = in_size - origin;  // taps need origin + f * dilation <= in_size - 1
  if (room <= 0) {
    last = 0;
  } else {
    const int fit = (room + dilation - 1) / dilation;
    if (fit < last) last = fit;
  }
  *lo = first;
  *hi = last;
}

// Height/width padding and output size together, for NHWC windowed ops.
struct PaddingValues {
  int width;
  int height;
  int width_offset;
  int height_offset;
};
PaddingValues ComputePaddingHeightWidth(int stride_height, int stride_width, int dilation_height,
                                        int dilation_width, int in_height, int in_width,
                                        int filter_height, int filter_width, TfLitePadding padding,
                                        int* out_height, int* out_width);

// The geometry of an NHWC windowed op (CONV_2D, DEPTHWISE_CONV_2D, pooling).
struct WindowGeometry {
  int32_t batches, in_h, in_w, in_ch;
  int32_t out_h, out_w, out_ch;
  int32_t filter_h, filter_w;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_h, pad_w;
};

// The caller sets filter_h/w, stride_h/w, dilation_h/w and out_ch of `g`
// (4-D input and output, strides/dilations >= 1 already checked); this fills
// batches, in_h/w/ch, out_h/w and the padding and checks that the output is
// [batches, out_h, out_w, out_ch].
TfLiteStatus PrepareWindowGeometry(const char* op_name, const TfLiteTensor* input,
                                   const TfLiteTensor* output, TfLitePadding padding,
                                   WindowGeometry* g);

// One output pixel of a windowed op: its valid filter taps are
// [fy0, fy1) x [fx0, fx1) (ny x nx of them), the first of which is input
// element `in_offset` (channel 0).
struct WindowPos {
  int origin_y, origin_x;
  int fy0, fy1, fx0, fx1;
  int ny, nx;
  int32_t in_offset;
};

// Calls f(pos) for every output pixel in NHWC order (batch, y, x).
template <typename F>
inline void ForEachOutputPixel(const WindowGeometry& g, F f) {
  const int32_t row_stride = g.in_w * g.in_ch;
  WindowPos pos;
  for (int b = 0; b < g.batches; ++b) {
    const int32_t batch_offset = b * g.in_h * row_stride;
    for (int oy = 0; oy < g.out_h; ++oy) {
      pos.origin_y = oy * g.stride_h - g.pad_h;
      ValidFilterRange(pos.origin_y, g.dilation_h, g.in_h, g.filter_h, &pos.fy0, &pos.fy1);
      pos.ny = pos.fy1 > pos.fy0 ? pos.fy1 - pos.fy0 : 0;
      const int32_t row_offset = batch_offset + (pos.origin_y + pos.fy0 * g.dilation_h) * row_stride;
      for (int ox = 0; ox < g.out_w; ++ox) {
        pos.origin_x = ox * g.stride_w - g.pad_w;
        ValidFilterRange(pos.origin_x, g.dilation_w, g.in_w, g.filter_w, &pos.fx0, &pos.fx1);
        pos.nx = pos.fx1 > pos.fx0 ? pos.fx1 - pos.fx0 : 0;
        pos.in_offset = row_offset + (pos.origin_x + pos.fx0 * g.dilation_w) * g.in_ch;
        f(static_cast<const WindowPos&>(pos));
      }
    }
  }
}

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_PADDING_H_
