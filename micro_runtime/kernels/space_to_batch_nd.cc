// SPACE_TO_BATCH_ND: the input's height and width zero-padded (paddings
// [[top, bottom], [left, right]], constant int32 >= 0), then cut into
// block_height x block_width blocks (block_shape, constant int32 >= 1) whose
// pixels go to block_height x block_width batches: output batch
// (shift_h * block_width + shift_w) * in_batch + b holds the padded input
// pixels (b, y * block_height + shift_h, x * block_width + shift_w). 4-D NHWC
// or 3-D NHC input (one spatial dimension, as TFLM; space_batch_nd.h).
// float32, int8, int16, int32, int64, bool (TFLM: float32, int8). The padding
// is the value 0: an int8 tensor's zero point, as LiteRT pads; TFLM fills
// padded pixels with a byte of op data it never initializes, so its outputs
// there are not defined (docs/ops.md). Pure data movement otherwise.
#include <string.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/space_batch_nd.h"

namespace {

constexpr const char* kOp = "SPACE_TO_BATCH_ND";

TfLiteStatus SpaceToBatchPrepare(TfLiteContext* context, TfLiteNode* node) {
  return micro_runtime::PrepareSpaceBatch(kOp, context, node, true);
}

TfLiteStatus SpaceToBatchInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
  const auto& d = *static_cast<const micro_runtime::SpaceBatchOpData*>(node->user_data);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (ElementCount(output->dims) == 0) return kTfLiteOk;  // then every size below is >= 1
  const uint8_t* in = static_cast<const uint8_t*>(GetInput(context, node, 0)->data.raw_const);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  const size_t pixel = static_cast<size_t>(d.pixel_bytes);
  for (int32_t ob = 0; ob < d.batch_batch; ++ob) {
    const int32_t b = ob % d.space_batch;
    const int32_t shift = ob / d.space_batch;
    const int32_t shift_h = shift / d.block_width;
    const int32_t shift_w = shift % d.block_width;
    for (int32_t oy = 0; oy < d.batch_height; ++oy) {
      const int32_t y = oy * d.block_height + shift_h - d.before_height;  // in the unpadded input
      const bool row_inside = y >= 0 && y < d.space_height;
      for (int32_t ox = 0; ox < d.batch_width; ++ox, out += pixel) {
        const int32_t x = ox * d.block_width + shift_w - d.before_width;
        if (row_inside && x >= 0 && x < d.space_width) {
          memcpy(out, in + ((static_cast<size_t>(b) * d.space_height + y) * d.space_width + x) * pixel, pixel);
        } else {
          memset(out, d.pad_byte, pixel);
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_SPACE_TO_BATCH_ND() {
  return {nullptr, nullptr, SpaceToBatchPrepare, SpaceToBatchInvoke};
}
