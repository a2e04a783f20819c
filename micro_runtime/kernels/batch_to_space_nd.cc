// BATCH_TO_SPACE_ND: SPACE_TO_BATCH_ND's inverse. The input's
// block_height x block_width batch groups (block_shape, constant int32 >= 1)
// are interleaved back into pixels, then crops [[top, bottom], [left, right]]
// (constant int32 >= 0) are cut off the height and width: input batch
// (shift_h * block_width + shift_w) * out_batch + b, pixel (y, x) goes to
// output (b, y * block_height + shift_h - top, x * block_width + shift_w -
// left) when that lies inside the output. 4-D NHWC or 3-D NHC input (one
// spatial dimension, as TFLM; space_batch_nd.h). float32, int8, int16, int32,
// int64, bool (TFLM: float32, int8). Pure data movement: bit-exact.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/space_batch_nd.h"

namespace micro_runtime {

constexpr char kOp[] = "BATCH_TO_SPACE_ND";  // internal linkage (const)

TfLiteRegistration Register_BATCH_TO_SPACE_ND() { return SpaceBatchRegistration<kOp, false>(); }

}  // namespace micro_runtime
