#include <string.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/space_batch_nd.h"

namespace micro_runtime {

TfLiteStatus PrepareSpaceBatch(const char* op, TfLiteContext* context, TfLiteNode* node, bool to_batch) {
  const char* pads_name = to_batch ? "paddings" : "crops";
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 3, 3, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(op, input));
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  TF_LITE_ENSURE_OK(context, CheckSameQuantization(op, input, output));
  if (input->type == kTfLiteInt16 && input->params.zero_point != 0) {
    MicroPrintf("%s: int16 zero point %d; int16 activations are symmetric (zero point 0)", op,
                static_cast<int>(input->params.zero_point));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckRank(op, "input", input, 4));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "output", output, 4));
  const int rank = input->dims->size;
  if (rank < 3 || output->dims->size != rank) {
    MicroPrintf("%s: input and output must both be 3-D (NHC) or 4-D (NHWC), got %d-D and %d-D", op, rank,
                static_cast<int>(output->dims->size));
    return kTfLiteError;
  }
  const int spatial = rank - 2;
  const int32_t* block = ConstantInt32Data(op, "block_shape", GetInput(context, node, 1), spatial);
  const int32_t* pads = ConstantInt32Data(op, pads_name, GetInput(context, node, 2), 2 * spatial);
  if (block == nullptr || pads == nullptr) return kTfLiteError;
  for (int i = 0; i < spatial; ++i) {
    if (block[i] < 1) {
      MicroPrintf("%s: block_shape[%d] is %d; block sizes are >= 1", op, i, static_cast<int>(block[i]));
      return kTfLiteError;
    }
  }
  for (int i = 0; i < 2 * spatial; ++i) {
    if (pads[i] < 0) {
      MicroPrintf("%s: %s entry %d is %d; they are >= 0", op, pads_name, i, static_cast<int>(pads[i]));
      return kTfLiteError;
    }
  }
  // The input's spatial sizes (3-D: width 1), then the output's, in int64.
  const int64_t in_batch = input->dims->data[0];
  const int64_t in_size[2] = {input->dims->data[1], spatial == 2 ? input->dims->data[2] : 1};
  const int64_t block_size[2] = {block[0], spatial == 2 ? block[1] : 1};
  const int64_t before[2] = {pads[0], spatial == 2 ? pads[2] : 0};
  const int64_t after[2] = {pads[1], spatial == 2 ? pads[3] : 0};
  const int64_t blocks = block_size[0] * block_size[1];
  int64_t out_batch = 0;
  int64_t out_size[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    if (to_batch) {
      const int64_t padded = in_size[i] + before[i] + after[i];
      if (padded % block_size[i] != 0) {
        MicroPrintf("%s: spatial dimension %d padded to %d is not a multiple of the block size %d", op, i,
                    static_cast<int>(padded), static_cast<int>(block_size[i]));
        return kTfLiteError;
      }
      out_size[i] = padded / block_size[i];
    } else {
      out_size[i] = in_size[i] * block_size[i] - before[i] - after[i];
      if (out_size[i] < 0) {
        MicroPrintf("%s: crops of spatial dimension %d (%d + %d) exceed its %d elements", op, i,
                    static_cast<int>(before[i]), static_cast<int>(after[i]), static_cast<int>(in_size[i] * block_size[i]));
        return kTfLiteError;
      }
    }
  }
  if (to_batch) {
    out_batch = in_batch * blocks;
  } else {
    if (in_batch % blocks != 0) {
      MicroPrintf("%s: input batch %d is not a multiple of the block's %d elements", op, static_cast<int>(in_batch),
                  static_cast<int>(blocks));
      return kTfLiteError;
    }
    out_batch = in_batch / blocks;
  }
  // The output shape the model must carry; CheckRank then bounds its size.
  const int32_t depth = input->dims->data[rank - 1];
  int64_t expected[4] = {out_batch, out_size[0], spatial == 2 ? out_size[1] : depth, depth};
  int32_t expected32[4];
  for (int i = 0; i < rank; ++i) {
    if (expected[i] > INT32_MAX) {
      MicroPrintf("%s: output dimension %d would exceed 2^31 (the model is likely corrupt)", op, i);
      return kTfLiteError;
    }
    expected32[i] = static_cast<int32_t>(expected[i]);
  }
  TF_LITE_ENSURE_OK(context, CheckOutputShape(op, output, expected32, rank));
  const int64_t pixel_bytes = int64_t{depth} * static_cast<int64_t>(TypeSize(input->type));
  if (pixel_bytes > INT32_MAX) {
    MicroPrintf("%s: a pixel would have more than 2^31 bytes (the model is likely corrupt)", op);
    return kTfLiteError;
  }

  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(SpaceBatchOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<SpaceBatchOpData*>(node->user_data);
  const int64_t* space_size = to_batch ? in_size : out_size;
  const int64_t* batch_size = to_batch ? out_size : in_size;
  // Every value below is a dimension of the input or output, or at most one
  // (checked above to fit int32), or a padding or crop no larger than the
  // padded / uncropped dimension, whose product with the others is bounded by
  // a tensor's element count when no dimension is 0 (Invoke does nothing
  // otherwise).
  d->space_batch = static_cast<int32_t>(to_batch ? in_batch : out_batch);
  d->space_height = static_cast<int32_t>(space_size[0]);
  d->space_width = static_cast<int32_t>(space_size[1]);
  d->batch_batch = static_cast<int32_t>(to_batch ? out_batch : in_batch);
  d->batch_height = static_cast<int32_t>(batch_size[0]);
  d->batch_width = static_cast<int32_t>(batch_size[1]);
  d->block_height = static_cast<int32_t>(block_size[0]);
  d->block_width = static_cast<int32_t>(block_size[1]);
  d->before_height = static_cast<int32_t>(before[0]);
  d->before_width = static_cast<int32_t>(before[1]);
  d->pixel_bytes = static_cast<int32_t>(pixel_bytes);
  d->pad_byte = input->type == kTfLiteInt8 ? static_cast<uint8_t>(input->params.zero_point) : 0;
  return kTfLiteOk;
}

TfLiteStatus EvalSpaceBatch(const char* op, TfLiteContext* context, TfLiteNode* node, bool to_batch) {
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const auto& d = *static_cast<const SpaceBatchOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  // Every output element is written below; nothing to do for an empty
  // output, and otherwise every size is >= 1 (prepare: the index products
  // then stay below the tensors' element counts).
  if (ElementCount(output->dims) == 0) return kTfLiteOk;
  const uint8_t* in = static_cast<const uint8_t*>(input->data.raw_const);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  const size_t pixel = static_cast<size_t>(d.pixel_bytes);
  size_t batch_at = 0;  // byte offset of the batch side's pixel (bb, by, bx)
  for (int32_t bb = 0; bb < d.batch_batch; ++bb) {
    const int32_t b = bb % d.space_batch;
    const int32_t shift = bb / d.space_batch;
    const int32_t shift_h = shift / d.block_width;
    const int32_t shift_w = shift % d.block_width;
    for (int32_t by = 0; by < d.batch_height; ++by) {
      const int32_t y = by * d.block_height + shift_h - d.before_height;
      const bool row_inside = y >= 0 && y < d.space_height;
      for (int32_t bx = 0; bx < d.batch_width; ++bx, batch_at += pixel) {
        const int32_t x = bx * d.block_width + shift_w - d.before_width;
        if (row_inside && x >= 0 && x < d.space_width) {
          const size_t space_at = ((static_cast<size_t>(b) * d.space_height + y) * d.space_width + x) * pixel;
          if (to_batch) {
            memcpy(out + batch_at, in + space_at, pixel);
          } else {
            memcpy(out + space_at, in + batch_at, pixel);
          }
        } else if (to_batch) {
          memset(out + batch_at, d.pad_byte, pixel);
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
