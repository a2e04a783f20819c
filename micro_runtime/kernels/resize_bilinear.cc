// RESIZE_BILINEAR: an NHWC image [b, h, w, c] to [b, size[0], size[1], c]
// (size: a constant int32 vector), each output the bilinear interpolation of
// the four input pixels around its source position. float32 in TFLite's
// float arithmetic (ComputeInterpolationValues, the four products summed in
// its order); int8 in TFLM's integer scheme: positions and weights in units
// of 1/1024 (scale = round(1024 * in / out)), the weighted sum in units of
// 2^-20 rounded half away from zero. align_corners uses (in - 1) / (out - 1),
// half_pixel_centers samples at +0.5 (not both). Versions 1-3 (int8,
// half_pixel_centers); version 4 is int16, which TFLM does not have. The
// output keeps the input's quantization (no requantization). Outputs whose
// source rows or columns would run past the input with TFLite's rounded
// scale (TFLM reads out of bounds there) are refused in prepare.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/resize.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "RESIZE_BILINEAR";

struct Options {
  bool align_corners;
  bool half_pixel_centers;
};

Options OptionsOf(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
  return params == nullptr ? Options{false, false} : Options{params->align_corners, params->half_pixel_centers};
}

// The first input row (column) the last output row (column) reads, in the
// arithmetic of `type`.
int32_t LastSource(TfLiteType type, int32_t in_size, int32_t out_size, const Options& o) {
  int32_t lower;
  int32_t upper;
  if (type == kTfLiteInt8) {
    BilinearSource10(out_size - 1, BilinearScale10(in_size, out_size, o.align_corners),
                                    o.half_pixel_centers, in_size, &lower, &upper);
  } else {
    BilinearSource(out_size - 1, ResizeScale(in_size, out_size, o.align_corners),
                                  o.half_pixel_centers, in_size, &lower, &upper);
  }
  return lower;
}

TfLiteStatus ResizeBilinearPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareResize(kOp, context, node,
                                                          kTypeFloat32 | kTypeInt8,
                                                          "float32, int8"));
  const Options o = OptionsOf(node);
  if (o.align_corners && o.half_pixel_centers) {
    MicroPrintf("%s: align_corners and half_pixel_centers are both set; TFLite allows one of them", kOp);
    return kTfLiteError;
  }
  const ResizeShape s =
      ResizeShapeOf(GetInput(context, node, 0), GetOutput(context, node, 0));
  const TfLiteType type = GetInput(context, node, 0)->type;
  // Source positions grow with the output index: the last row and column are the farthest.
  for (int axis = 0; axis < 2; ++axis) {
    const int32_t in_size = axis == 0 ? s.in_h : s.in_w;
    const int32_t out_size = axis == 0 ? s.out_h : s.out_w;
    const int32_t last = LastSource(type, in_size, out_size, o);
    if (last > in_size - 1) {
      MicroPrintf("%s: output %s %d from input %s %d: TFLite's rounded scale puts the last source at %d, past the "
                  "input (TFLM reads out of bounds)",
                  kOp, axis == 0 ? "height" : "width", static_cast<int>(out_size), axis == 0 ? "height" : "width",
                  static_cast<int>(in_size), static_cast<int>(last));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// The interpolation loop of both types: source(axis, value, &lower, &upper)
// gives output row (axis 0) or column (axis 1) `value`'s two input rows or
// columns and the distance from the lower one (the weight of the upper);
// blend(p00, p10, p01, p11, dy, dx) interpolates one channel.
template <typename T, typename Source, typename Blend>
void Interpolate(const ResizeShape& s, const T* in, T* out, Source source, Blend blend) {
  const int32_t row = s.in_w * s.depth;
  for (int32_t b = 0; b < s.batches; ++b) {
    const T* image = in + static_cast<size_t>(b) * static_cast<size_t>(s.in_h) * static_cast<size_t>(row);
    for (int32_t y = 0; y < s.out_h; ++y) {
      int32_t y0;
      int32_t y1;
      const auto dy = source(0, y, &y0, &y1);
      const T* row0 = image + y0 * row;
      const T* row1 = image + y1 * row;
      for (int32_t x = 0; x < s.out_w; ++x) {
        int32_t x0;
        int32_t x1;
        const auto dx = source(1, x, &x0, &x1);
        const T* p00 = row0 + x0 * s.depth;
        const T* p10 = row1 + x0 * s.depth;
        const T* p01 = row0 + x1 * s.depth;
        const T* p11 = row1 + x1 * s.depth;
        for (int32_t c = 0; c < s.depth; ++c) *out++ = blend(p00[c], p10[c], p01[c], p11[c], dy, dx);
      }
    }
  }
}

void ResizeFloat(const ResizeShape& s, const Options& o, const float* in, float* out) {
  const float scales[2] = {ResizeScale(s.in_h, s.out_h, o.align_corners),
                           ResizeScale(s.in_w, s.out_w, o.align_corners)};
  const int32_t sizes[2] = {s.in_h, s.in_w};
  Interpolate(
      s, in, out,
      [&](int axis, int32_t value, int32_t* lower, int32_t* upper) {
        const float position =
            BilinearSource(value, scales[axis], o.half_pixel_centers, sizes[axis], lower, upper);
        return position - static_cast<float>(*lower);
      },
      [](float p00, float p10, float p01, float p11, float dy, float dx) {
        // TFLite's order: each corner times its y weight, then its x weight; summed left to right.
        return p00 * (1 - dy) * (1 - dx) + p10 * dy * (1 - dx) + p01 * (1 - dy) * dx + p11 * dy * dx;
      });
}

void ResizeInt8(const ResizeShape& s, const Options& o, const int8_t* in, int8_t* out) {
  const int32_t scales[2] = {BilinearScale10(s.in_h, s.out_h, o.align_corners),
                             BilinearScale10(s.in_w, s.out_w, o.align_corners)};
  const int32_t sizes[2] = {s.in_h, s.in_w};
  Interpolate(
      s, in, out,
      [&](int axis, int32_t value, int32_t* lower, int32_t* upper) {
        // In [-512, 1023]: below 0 only before the first row or column, where lower = upper.
        return BilinearSource10(value, scales[axis], o.half_pixel_centers, sizes[axis], lower, upper) -
               1024 * *lower;
      },
      [](int8_t p00, int8_t p10, int8_t p01, int8_t p11, int32_t dy, int32_t dx) {
        // (|1024 - d| + |d|) <= 2048 per axis: the |weights| sum to at most 2^22 and |sum| <= 2^29, so int32
        // holds what TFLite sums in int64. The weights sum to 2^20 (a negative one shares its pixel with its
        // partner): the result is inside the range of the four inputs.
        const int32_t sum = p00 * ((1024 - dy) * (1024 - dx)) + p10 * (dy * (1024 - dx)) +
                            p01 * ((1024 - dy) * dx) + p11 * (dy * dx);
        return static_cast<int8_t>(RoundingDivideByPOT(sum, 20));
      });
}

TfLiteStatus ResizeBilinearInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const ResizeShape s = ResizeShapeOf(input, output);
  if (input->type == kTfLiteFloat32) {
    ResizeFloat(s, OptionsOf(node), input->data.f, output->data.f);
  } else {
    ResizeInt8(s, OptionsOf(node), input->data.int8, output->data.int8);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_RESIZE_BILINEAR() {
  return {nullptr, nullptr, ResizeBilinearPrepare, ResizeBilinearInvoke};
}

}  // namespace micro_runtime
