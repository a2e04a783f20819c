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
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/space_batch_nd.h"

namespace micro_runtime {

constexpr char kOp[] = "SPACE_TO_BATCH_ND";  // internal linkage (const)

TfLiteRegistration Register_SPACE_TO_BATCH_ND() { return SpaceBatchRegistration<kOp, true>(); }

}  // namespace micro_runtime
