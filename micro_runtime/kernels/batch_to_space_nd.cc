// BATCH_TO_SPACE_ND: SPACE_TO_BATCH_ND's inverse. The input's
// block_height x block_width batch groups (block_shape, constant int32 >= 1)
// are interleaved back into pixels, then crops [[top, bottom], [left, right]]
// (constant int32 >= 0) are cut off the height and width: input batch
// (shift_h * block_width + shift_w) * out_batch + b, pixel (y, x) goes to
// output (b, y * block_height + shift_h - top, x * block_width + shift_w -
// left) when that lies inside the output. 4-D NHWC or 3-D NHC input (one
// spatial dimension, as TFLM; space_batch_nd.h). float32, int8, int16, int32,
// int64, bool (TFLM: float32, int8). Pure data movement: bit-exact.
#include <string.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/space_batch_nd.h"

namespace {

constexpr const char* kOp = "BATCH_TO_SPACE_ND";

TfLiteStatus BatchToSpacePrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareSpaceBatch(kOp, context, node, false);
}

TfLiteStatus BatchToSpaceInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
  const auto& d = *static_cast<const micro_runtime::SpaceBatchOpData*>(node->user_data);
  TfLiteTensor* output = GetOutput(context, node, 0);
  // Every output pixel comes from one input pixel; nothing to do for an empty output.
  if (ElementCount(output->dims) == 0) return kTfLiteOk;  // then every size below is >= 1
  const uint8_t* in = static_cast<const uint8_t*>(GetInput(context, node, 0)->data.raw_const);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  const size_t pixel = static_cast<size_t>(d.pixel_bytes);
  for (int32_t ib = 0; ib < d.batch_batch; ++ib) {
    const int32_t b = ib % d.space_batch;
    const int32_t shift = ib / d.space_batch;
    const int32_t shift_h = shift / d.block_width;
    const int32_t shift_w = shift % d.block_width;
    for (int32_t iy = 0; iy < d.batch_height; ++iy) {
      const int32_t y = iy * d.block_height + shift_h - d.before_height;
      if (y < 0 || y >= d.space_height) continue;
      const uint8_t* row = in + (static_cast<size_t>(ib) * d.batch_height + iy) * d.batch_width * pixel;
      for (int32_t ix = 0; ix < d.batch_width; ++ix) {
        const int32_t x = ix * d.block_width + shift_w - d.before_width;
        if (x < 0 || x >= d.space_width) continue;
        memcpy(out + ((static_cast<size_t>(b) * d.space_height + y) * d.space_width + x) * pixel, row + ix * pixel,
               pixel);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_BATCH_TO_SPACE_ND() {
  return {nullptr, nullptr, BatchToSpacePrepare, BatchToSpaceInvoke};
}
