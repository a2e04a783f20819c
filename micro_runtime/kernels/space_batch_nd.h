// Shared by SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND: inputs (data, constant
// int32 block_shape, constant int32 paddings / crops) and the op data of
// both. TFLM's kernels take 4-D NHWC data with two spatial dimensions, or
// 3-D NHC data with one (seen as NH1C: width 1, block width 1, no padding
// along it); so does this.
#ifndef MICRO_RUNTIME_KERNELS_SPACE_BATCH_ND_H_
#define MICRO_RUNTIME_KERNELS_SPACE_BATCH_ND_H_

#include <stdint.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// Both ops' shapes seen as 4-D. `space_*` are the batch-sized side (the
// input of SPACE_TO_BATCH_ND, the output of BATCH_TO_SPACE_ND), `batch_*`
// the other; `before_*` are the paddings (crops) before the data along the
// height and width.
struct SpaceBatchOpData {
  int32_t space_batch, space_height, space_width;
  int32_t batch_batch, batch_height, batch_width;
  int32_t block_height, block_width;
  int32_t before_height, before_width;
  int32_t pixel_bytes;  // one pixel: depth x element size
  uint8_t pad_byte;     // SPACE_TO_BATCH_ND's padding: an int8 zero point, else 0
};

// Prepare of both (to_batch: SPACE_TO_BATCH_ND): 3 inputs and one output of
// one type (float32, int8, int16, int32, int64, bool; int8/int16 with one
// quantization, int16 with zero point 0), 3-D or 4-D with one rank, a block
// of sizes >= 1 and paddings / crops >= 0 that fit the input, and the output
// shape they give. Keeps the sizes in node->user_data.
TfLiteStatus PrepareSpaceBatch(const char* op, TfLiteContext* context, TfLiteNode* node, bool to_batch);

// Invoke of both: walks the batch-sized side's pixels in order (output
// batch (shift_h * block_width + shift_w) * space_batch + b, pixel (y, x)
// is space pixel (b, y * block_height + shift_h - before_height,
// x * block_width + shift_w - before_width)); SPACE_TO_BATCH_ND copies each
// from the space side or pads it, BATCH_TO_SPACE_ND copies each that lands
// inside the space side there (the others are cropped).
TfLiteStatus EvalSpaceBatch(const char* op, TfLiteContext* context, TfLiteNode* node, bool to_batch);

// Registration of SPACE_TO_BATCH_ND (kToBatch) or BATCH_TO_SPACE_ND named
// kOp: PrepareSpaceBatch and EvalSpaceBatch.
template <const char* kOp, bool kToBatch>
TfLiteRegistration SpaceBatchRegistration() {
  return {nullptr, nullptr,
          [](TfLiteContext* context, TfLiteNode* node) { return PrepareSpaceBatch(kOp, context, node, kToBatch); },
          [](TfLiteContext* context, TfLiteNode* node) { return EvalSpaceBatch(kOp, context, node, kToBatch); }};
}

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_SPACE_BATCH_ND_H_
