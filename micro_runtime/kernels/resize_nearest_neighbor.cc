// RESIZE_NEAREST_NEIGHBOR: an NHWC image [b, h, w, c] to [b, size[0],
// size[1], c] (size: a constant int32 vector), each output pixel the input
// pixel TFLite's GetNearestNeighbor picks per row and column (float scale
// in / out or, with align_corners, (in - 1) / (out - 1); half_pixel_centers
// samples at +0.5; rounded with align_corners, floored otherwise). float32,
// int8 and int16 (versions 1-4: int8, the two options, int16); stored values
// are copied, so int8/int16 output quantization equals the input's.
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/resize.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "RESIZE_NEAREST_NEIGHBOR";

TfLiteStatus ResizeNearestNeighborPrepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareResize(kOp, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                      "float32, int8, int16");
}

TfLiteStatus ResizeNearestNeighborInvoke(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteResizeNearestNeighborParams*>(node->builtin_data);
  const bool align_corners = params != nullptr && params->align_corners;
  const bool half_pixel_centers = params != nullptr && params->half_pixel_centers;
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const ResizeShape s = ResizeShapeOf(input, output);
  const float scale_y = ResizeScale(s.in_h, s.out_h, align_corners);
  const float scale_x = ResizeScale(s.in_w, s.out_w, align_corners);
  // Elements are copied as bytes: one pixel is depth elements.
  const size_t pixel = TypeSize(input->type) * static_cast<size_t>(s.depth);
  const size_t image_bytes = static_cast<size_t>(s.in_h) * static_cast<size_t>(s.in_w) * pixel;
  const uint8_t* in = static_cast<const uint8_t*>(input->data.raw_const);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  for (int32_t b = 0; b < s.batches; ++b) {
    const uint8_t* image = in + static_cast<size_t>(b) * image_bytes;
    for (int32_t y = 0; y < s.out_h; ++y) {
      const int32_t in_y = NearestSource(y, scale_y, s.in_h, align_corners, half_pixel_centers);
      const uint8_t* row = image + static_cast<size_t>(in_y) * static_cast<size_t>(s.in_w) * pixel;
      for (int32_t x = 0; x < s.out_w; ++x) {
        const int32_t in_x = NearestSource(x, scale_x, s.in_w, align_corners, half_pixel_centers);
        memcpy(out, row + static_cast<size_t>(in_x) * pixel, pixel);
        out += pixel;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_RESIZE_NEAREST_NEIGHBOR() {
  return {nullptr, nullptr, ResizeNearestNeighborPrepare, ResizeNearestNeighborInvoke};
}

}  // namespace micro_runtime
