// Shared by RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: the checks of their
// prepare and the source coordinates TFLite maps each output row or column
// to, in its float arithmetic (bilinear float32 and every nearest-neighbor
// type) or its 10-bit fixed point (bilinear int8).
#ifndef MICRO_RUNTIME_KERNELS_RESIZE_H_
#define MICRO_RUNTIME_KERNELS_RESIZE_H_

#include <stdint.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// Largest input or output height/width: keeps TFLite's int32 fixed-point
// coordinates (1024 * size, value * scale) far from overflow. Real models
// resize a few hundred pixels at most.
constexpr int32_t kMaxResizeSize = 1 << 16;

// An NHWC resize: the input [batches, in_h, in_w, depth] to the output
// [batches, out_h, out_w, depth].
struct ResizeShape {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
};

// The shape of a node prepared by PrepareResize (read from its tensors).
ResizeShape ResizeShapeOf(const TfLiteTensor* input, const TfLiteTensor* output);

// Prepare of both resize ops: inputs (image, size) and one output; the image
// 4-D of a type in `types` (named in `supported`) with nonzero dimensions;
// size a constant int32 vector [height, width], each in [1, kMaxResizeSize];
// the output [batches, height, width, depth] of the image's type and, for
// int8/int16, its scale and zero point (TFLite resizes the stored values and
// never requantizes). Logs "<op>: ..." and fails otherwise.
TfLiteStatus PrepareResize(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                           const char* supported);

// TFLite's scale from output to input coordinates: in / out, or with
// align_corners (and more than one output) (in - 1) / (out - 1), in float.
float ResizeScale(int32_t in_size, int32_t out_size, bool align_corners);

// RESIZE_NEAREST_NEIGHBOR's source index of output index `value` (TFLite's
// GetNearestNeighbor): (value + 0.5 if half_pixel_centers) * scale, rounded
// half away from zero with align_corners and down otherwise, at most
// in_size - 1.
int32_t NearestSource(int32_t value, float scale, int32_t in_size, bool align_corners, bool half_pixel_centers);

// RESIZE_BILINEAR float32's source position of output index `value`
// (TFLite's ComputeInterpolationValues): value * scale, or with
// half_pixel_centers (value + 0.5) * scale - 0.5; *lower is its floor (at
// least 0) and *upper its ceiling (at most in_size - 1).
float BilinearSource(int32_t value, float scale, bool half_pixel_centers, int32_t in_size, int32_t* lower,
                     int32_t* upper);

// The same in TFLite's integer scheme (int8), positions in units of 1/1024:
// the scale is in * 1024 / out (or (in - 1) * 1024 / (out - 1) with
// align_corners) rounded to nearest; *lower = position / 1024 (truncated,
// at least 0), *upper = (position + 1023) / 1024 (at most in_size - 1).
int32_t BilinearScale10(int32_t in_size, int32_t out_size, bool align_corners);
int32_t BilinearSource10(int32_t value, int32_t scale10, bool half_pixel_centers, int32_t in_size, int32_t* lower,
                         int32_t* upper);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_RESIZE_H_
