#include "micro_runtime/kernels/data_movement.h"

#include <string.h>

#include "micro_runtime/kernels/kernel_util.h"

namespace micro_runtime {

TfLiteStatus PrepareCopy(const char* op, TfLiteContext* context, TfLiteNode* node, int min_inputs,
                         int max_inputs) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, min_inputs, max_inputs, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (TypeSize(input->type) == 0) {
    return ReportUnsupportedType(op, input->type, "float32, int8, uint8, int16, int32, int64, bool");
  }
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  constexpr int kMaxCopyDims = 8;  // TfLiteReshapeParams' and TfLiteSqueezeParams' capacity
  TF_LITE_ENSURE_OK(context, CheckRank(op, "input", input, kMaxCopyDims));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "output", output, kMaxCopyDims));
  return CheckSameElementCount(op, input, output);
}

TfLiteStatus EvalCopy(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const size_t bytes = static_cast<size_t>(ElementCount(output->dims)) * TypeSize(output->type);
  if (bytes > 0 && output->data.raw != input->data.raw_const) {
    // memmove: a planner may overlap the buffers without making them equal.
    memmove(output->data.raw, input->data.raw_const, bytes);
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareDataMovement(const char* op, TfLiteContext* context, TfLiteNode* node, int inputs,
                                 int max_rank) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, inputs, inputs, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(op, input));
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, GetOutput(context, node, 0)));
  return CheckRank(op, "input", input, max_rank);
}

struct StackingOpData {
  int32_t outer;       // product of the stacked tensor's dimensions before the axis
  int32_t part_bytes;  // bytes of one part's slice after the axis
};

TfLiteStatus PrepareStacking(const char* op, TfLiteContext* context, TfLiteNode* node, bool pack, int32_t axis,
                             int32_t count) {
  const char* part_name = pack ? "input" : "output";
  if (count < 1 || count > 255) {
    MicroPrintf("%s: %s count %d is outside [1, 255]", op, part_name, static_cast<int>(count));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, pack ? count : 1, pack ? count : 1, pack ? 1 : count));
  const TfLiteTensor* whole = pack ? GetOutput(context, node, 0) : GetInput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(op, whole));
  TF_LITE_ENSURE_OK(context, CheckRank(op, pack ? "output" : "input", whole, kMaxShapeDims));
  const int rank = whole->dims->size;
  const int32_t a = axis < 0 ? axis + rank : axis;
  if (rank < 1 || a < 0 || a >= rank) {
    MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D %s", op, static_cast<int>(axis), -rank, rank, rank,
                pack ? "output" : "input");
    return kTfLiteError;
  }
  if (whole->dims->data[a] != count) {
    MicroPrintf("%s: dimension %d of the %s is %d, expected the %s count %d", op, static_cast<int>(a),
                pack ? "output" : "input", static_cast<int>(whole->dims->data[a]), part_name,
                static_cast<int>(count));
    return kTfLiteError;
  }
  int32_t expected[kMaxShapeDims];
  for (int d = 0, e = 0; d < rank; ++d) {
    if (d != a) expected[e++] = whole->dims->data[d];
  }
  for (int i = 0; i < count; ++i) {
    const TfLiteTensor* part = pack ? GetInput(context, node, i) : GetOutput(context, node, i);
    TF_LITE_ENSURE_OK(context, CheckSameType(op, part, whole));
    if ((part->type == kTfLiteInt8 || part->type == kTfLiteInt16) &&
        (part->params.scale != whole->params.scale || part->params.zero_point != whole->params.zero_point)) {
      MicroPrintf("%s: %s %d has scale %f, zero point %d but the stacked tensor %f, %d; %s copies without "
                  "requantizing",
                  op, part_name, i, static_cast<double>(part->params.scale), static_cast<int>(part->params.zero_point),
                  static_cast<double>(whole->params.scale), static_cast<int>(whole->params.zero_point), op);
      return kTfLiteError;
    }
    bool same = part->dims->size == rank - 1;
    for (int d = 0; same && d < rank - 1; ++d) same = part->dims->data[d] == expected[d];
    if (!same) {
      char a_shape[48];
      char b_shape[48];
      FormatShape(part->dims, a_shape, sizeof(a_shape));
      FormatDims(expected, rank - 1, b_shape, sizeof(b_shape));
      MicroPrintf("%s: %s %d has shape %s, expected %s", op, part_name, i, a_shape, b_shape);
      return kTfLiteError;
    }
  }
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(StackingOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* data = static_cast<StackingOpData*>(node->user_data);
  data->outer = 1;
  for (int d = 0; d < a; ++d) data->outer *= whole->dims->data[d];
  int32_t bytes = static_cast<int32_t>(TypeSize(whole->type));
  for (int d = a + 1; d < rank; ++d) bytes *= whole->dims->data[d];
  data->part_bytes = bytes;
  return kTfLiteOk;
}

TfLiteStatus EvalStacking(const char* op, TfLiteContext* context, TfLiteNode* node, bool pack) {
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const auto& d = *static_cast<const StackingOpData*>(node->user_data);
  if (d.part_bytes == 0) return kTfLiteOk;
  const size_t bytes = static_cast<size_t>(d.part_bytes);
  // PACK reads part i at o * bytes and writes the whole in order; UNPACK the reverse.
  uint8_t* whole = static_cast<uint8_t*>(pack ? GetOutput(context, node, 0)->data.raw
                                              : GetInput(context, node, 0)->data.raw);
  const int count = pack ? NumInputs(node) : NumOutputs(node);
  for (int32_t o = 0; o < d.outer; ++o) {
    for (int i = 0; i < count; ++i) {
      uint8_t* part = static_cast<uint8_t*>(pack ? GetInput(context, node, i)->data.raw
                                                 : GetOutput(context, node, i)->data.raw) +
                      static_cast<size_t>(o) * bytes;
      memcpy(pack ? whole : part, pack ? part : whole, bytes);
      whole += bytes;
    }
  }
  return kTfLiteOk;
}

struct SplitOpData {
  int32_t outer;        // product of the input dimensions before the axis
  int32_t inner_bytes;  // bytes of one step along the axis
  int32_t axis;
};

TfLiteStatus PrepareSplit(const char* op, TfLiteContext* context, TfLiteNode* node, int input_index, int32_t axis,
                          int32_t count, const int32_t* sizes) {
  const TfLiteTensor* input = GetInput(context, node, input_index);
  TF_LITE_ENSURE_OK(context, CheckDataType(op, input));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "input", input, kMaxShapeDims));
  const int rank = input->dims->size;
  const int32_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D input", op, static_cast<int>(axis), -rank, rank, rank);
    return kTfLiteError;
  }
  const int32_t size = input->dims->data[a];
  int32_t fill = -1;  // the size of a -1 entry
  if (sizes == nullptr) {
    if (size % count != 0) {
      MicroPrintf("%s: dimension %d of the input (%d) does not split into %d equal parts", op, static_cast<int>(a),
                  static_cast<int>(size), static_cast<int>(count));
      return kTfLiteError;
    }
  } else {
    int64_t sum = 0;
    int unknown = 0;
    for (int i = 0; i < count; ++i) {
      if (sizes[i] < -1) {
        MicroPrintf("%s: size_splits[%d] is %d; sizes are >= 0 (or one -1)", op, i, static_cast<int>(sizes[i]));
        return kTfLiteError;
      }
      if (sizes[i] == -1) ++unknown;
      else sum += sizes[i];
    }
    if (unknown > 1 || (unknown == 0 && sum != size) || (unknown == 1 && sum > size)) {
      MicroPrintf("%s: size_splits (sum %d, %d of them -1) do not split dimension %d of size %d", op,
                  static_cast<int>(sum), unknown, static_cast<int>(a), static_cast<int>(size));
      return kTfLiteError;
    }
    fill = static_cast<int32_t>(size - sum);
  }
  int32_t expected[kMaxShapeDims];
  for (int d = 0; d < rank; ++d) expected[d] = input->dims->data[d];
  for (int i = 0; i < count; ++i) {
    const TfLiteTensor* output = GetOutput(context, node, i);
    TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
    if ((output->type == kTfLiteInt8 || output->type == kTfLiteInt16) &&
        (output->params.scale != input->params.scale || output->params.zero_point != input->params.zero_point)) {
      MicroPrintf("%s: output %d has scale %f, zero point %d but the input %f, %d; %s copies without requantizing",
                  op, i, static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point),
                  static_cast<double>(input->params.scale), static_cast<int>(input->params.zero_point), op);
      return kTfLiteError;
    }
    expected[a] = sizes == nullptr ? size / count : (sizes[i] == -1 ? fill : sizes[i]);
    TF_LITE_ENSURE_OK(context, CheckOutputShape(op, output, expected, rank));
  }
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(SplitOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* data = static_cast<SplitOpData*>(node->user_data);
  data->axis = a;
  data->outer = 1;
  for (int d = 0; d < a; ++d) data->outer *= input->dims->data[d];
  int32_t bytes = static_cast<int32_t>(TypeSize(input->type));
  for (int d = a + 1; d < rank; ++d) bytes *= input->dims->data[d];
  data->inner_bytes = bytes;
  return kTfLiteOk;
}

TfLiteStatus EvalSplit(const char* op, TfLiteContext* context, TfLiteNode* node, int input_index) {
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const auto& d = *static_cast<const SplitOpData*>(node->user_data);
  const uint8_t* in = static_cast<const uint8_t*>(GetInput(context, node, input_index)->data.raw_const);
  const int count = NumOutputs(node);
  for (int32_t o = 0; o < d.outer; ++o) {
    for (int i = 0; i < count; ++i) {
      TfLiteTensor* output = GetOutput(context, node, i);
      const size_t bytes = static_cast<size_t>(output->dims->data[d.axis]) * static_cast<size_t>(d.inner_bytes);
      if (bytes == 0) continue;
      memcpy(static_cast<uint8_t*>(output->data.raw) + static_cast<size_t>(o) * bytes, in, bytes);
      in += bytes;
    }
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
