// GATHER: slices of input 0 picked along `axis` by the positions of input 1
// (TFLite's GatherOptions; a negative axis counts from the end of the input's
// rank, a negative batch_dims from the end of the positions' rank). With
// batch_dims b the first b dimensions of input and positions are shared
// batches: output[batch, outer..., coords..., inner...] =
// input[batch, outer..., positions[batch, coords...], inner...], of shape
// input[:axis] + positions[b:] + input[axis + 1:]. Input float32, int8, int16,
// int32, int64 or bool (TFLM: float32 and int8); positions int16, int32 or
// int64 (TFLM: int32). Int8/int16 input and output share one quantization
// (pure copies). A position outside [0, axis size) is refused: in Prepare
// when the positions are constant, else at Invoke before anything is copied
// (TFLM reads outside the input there, LiteRT fails the invoke).
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "GATHER";

struct GatherOpData {
  int32_t batch_size;   // product of the batch dimensions
  int32_t outer_size;   // product of the input's dimensions from batch_dims to the axis
  int32_t axis_size;    // the input's dimension at the axis
  int32_t coord_size;   // positions per batch
  int32_t inner_bytes;  // bytes of one gathered slice
};

// Position i of an int16, int32 or int64 positions tensor (int64 constants
// may be only 4-byte aligned in the model: LoadInt64).
int64_t Position(const TfLiteTensor* positions, int32_t i) {
  switch (positions->type) {
    case kTfLiteInt16:
      return positions->data.i16[i];
    case kTfLiteInt32:
      return positions->data.i32[i];
    default:
      return LoadInt64(positions->data.raw_const, i);
  }
}

// Every position in [0, axis size); logs the first one outside.
TfLiteStatus CheckPositions(const GatherOpData& d, const TfLiteTensor* positions) {
  const int32_t count = ElementCount(positions->dims);
  for (int32_t i = 0; i < count; ++i) {
    const int64_t p = Position(positions, i);
    if (p < 0 || p >= d.axis_size) {
      const int32_t shown = p < INT32_MIN ? INT32_MIN : (p > INT32_MAX ? INT32_MAX : static_cast<int32_t>(p));
      MicroPrintf("%s: position %d (element %d of the positions) is outside [0, %d), the size of the gathered axis",
                  kOp, static_cast<int>(shown), static_cast<int>(i), static_cast<int>(d.axis_size));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

int32_t Product(const TfLiteIntArray* dims, int from, int to) {
  int32_t p = 1;
  for (int i = from; i < to; ++i) p *= dims->data[i];
  return p;
}

TfLiteStatus GatherPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 2, 2, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* positions = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const auto* params = static_cast<const TfLiteGatherParams*>(node->builtin_data);
  if (params == nullptr) {
    MicroPrintf("%s: the operator has no GatherOptions", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckDataType(kOp, input));
  TF_LITE_ENSURE_OK(context, CheckSameType(kOp, input, output));
  TF_LITE_ENSURE_OK(context, CheckSameQuantization(kOp, input, output));
  if (positions->type != kTfLiteInt16 && positions->type != kTfLiteInt32 && positions->type != kTfLiteInt64) {
    return ReportUnsupportedType(kOp, positions->type, "int16, int32, int64", "positions");
  }
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "input", input, kMaxShapeDims));
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "positions", positions, kMaxShapeDims));
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "output", output, kMaxShapeDims));
  const int rank = input->dims->size;
  const int coords_rank = positions->dims->size;
  const int32_t axis = params->axis < 0 ? params->axis + rank : params->axis;
  if (axis < 0 || axis >= rank) {
    MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D input", kOp, static_cast<int>(params->axis), -rank, rank,
                rank);
    return kTfLiteError;
  }
  const int32_t batch_dims = params->batch_dims < 0 ? params->batch_dims + coords_rank : params->batch_dims;
  if (batch_dims < 0 || batch_dims > coords_rank || batch_dims > axis) {
    MicroPrintf("%s: batch_dims %d must lie in [%d, %d] and not exceed the axis %d", kOp,
                static_cast<int>(params->batch_dims), -coords_rank, coords_rank, static_cast<int>(axis));
    return kTfLiteError;
  }
  for (int i = 0; i < batch_dims; ++i) {
    if (input->dims->data[i] != positions->dims->data[i]) {
      MicroPrintf("%s: batch dimension %d is %d in the input but %d in the positions", kOp, i,
                  static_cast<int>(input->dims->data[i]), static_cast<int>(positions->dims->data[i]));
      return kTfLiteError;
    }
  }
  const int out_rank = rank + coords_rank - 1 - batch_dims;
  if (out_rank > kMaxShapeDims) {
    MicroPrintf("%s: the output would have %d dimensions; supported up to %d", kOp, out_rank, kMaxShapeDims);
    return kTfLiteError;
  }
  int32_t expected[kMaxShapeDims];
  int e = 0;
  for (int i = 0; i < axis; ++i) expected[e++] = input->dims->data[i];
  for (int i = batch_dims; i < coords_rank; ++i) expected[e++] = positions->dims->data[i];
  for (int i = axis + 1; i < rank; ++i) expected[e++] = input->dims->data[i];
  TF_LITE_ENSURE_OK(context, CheckOutputShape(kOp, output, expected, out_rank));

  const int64_t inner_bytes = int64_t{Product(input->dims, axis + 1, rank)} * static_cast<int64_t>(TypeSize(input->type));
  if (inner_bytes > INT32_MAX) {
    MicroPrintf("%s: a gathered slice would have more than 2^31 bytes (the model is likely corrupt)", kOp);
    return kTfLiteError;
  }
  if (node->user_data == nullptr) node->user_data = AllocateOpData(kOp, context, sizeof(GatherOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<GatherOpData*>(node->user_data);
  d->batch_size = Product(input->dims, 0, batch_dims);
  d->outer_size = Product(input->dims, batch_dims, axis);
  d->axis_size = input->dims->data[axis];
  d->coord_size = Product(positions->dims, batch_dims, coords_rank);
  d->inner_bytes = static_cast<int32_t>(inner_bytes);
  // Constant positions are checked once, here.
  return positions->is_constant ? CheckPositions(*d, positions) : kTfLiteOk;
}

TfLiteStatus GatherInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const auto& d = *static_cast<const GatherOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* positions = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (!positions->is_constant) TF_LITE_ENSURE_OK(context, CheckPositions(d, positions));
  const size_t inner = static_cast<size_t>(d.inner_bytes);
  if (inner == 0) return kTfLiteOk;
  const uint8_t* in = static_cast<const uint8_t*>(input->data.raw_const);
  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  for (int32_t b = 0; b < d.batch_size; ++b) {
    for (int32_t o = 0; o < d.outer_size; ++o) {
      // Slice (b, o, p) of the input starts at ((b * outer + o) * axis + p) * inner bytes.
      const uint8_t* base = in + (static_cast<size_t>(b) * d.outer_size + o) * d.axis_size * inner;
      for (int32_t c = 0; c < d.coord_size; ++c) {
        const size_t p = static_cast<size_t>(Position(positions, b * d.coord_size + c));
        memcpy(out, base + p * inner, inner);
        out += inner;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_GATHER() { return {nullptr, nullptr, GatherPrepare, GatherInvoke}; }

}  // namespace micro_runtime
