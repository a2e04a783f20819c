// ARG_MAX / ARG_MIN: the index of the largest / smallest value along one
// axis (input 1: a constant int32 or int64 scalar or one-element vector;
// negative counts from the end of the rank), the axis dropped from the
// output's shape. The first index wins a tie (a later value must be strictly
// greater / smaller), and NaN compares false as in TFLM and LiteRT: a NaN is
// never picked unless it is the first value, and then nothing beats it.
// Input float32, int8, uint8, int32 or bool (TFLM: float32 and int8;
// quantized values compare as stored, which orders them like their real
// values); output int32 or int64 (TFLM: int32). The two ops share Prepare and
// the search loop; ARG_MAX compares value > best, ARG_MIN best > value.
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kArgMax = "ARG_MAX";
constexpr const char* kArgMin = "ARG_MIN";

struct ArgMinMaxOpData {
  int32_t outer_size;  // product of the dimensions before the axis
  int32_t axis_size;
  int32_t inner_size;  // product of the dimensions after the axis
};

TfLiteStatus ArgMinMaxPrepare(const char* op, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 2, 2, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis_tensor = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt32:
    case kTfLiteBool:
      break;
    default:
      return ReportUnsupportedType(op, input->type, "float32, int8, uint8, int32, bool", "input");
  }
  if (output->type != kTfLiteInt32 && output->type != kTfLiteInt64) {
    return ReportUnsupportedType(op, output->type, "int32, int64", "output");
  }
  // Both options tables hold one output_type at the same place. A model that
  // asks for the other index type contradicts its output tensor (LiteRT
  // would write that type); the schema default (float32, no options) is
  // not a request.
  const auto* params = static_cast<const TfLiteArgMaxParams*>(node->builtin_data);
  if (params != nullptr && (params->output_type == kTfLiteInt32 || params->output_type == kTfLiteInt64) &&
      params->output_type != output->type) {
    MicroPrintf("%s: output_type %s in the options differs from the output tensor's %s", op,
                TfLiteTypeName(params->output_type), TfLiteTypeName(output->type));
    return kTfLiteError;
  }
  if (!axis_tensor->is_constant || axis_tensor->data.raw_const == nullptr) {
    MicroPrintf("%s: the axis tensor must be constant (micro_runtime needs static shapes)", op);
    return kTfLiteError;
  }
  if (axis_tensor->type != kTfLiteInt32 && axis_tensor->type != kTfLiteInt64) {
    return ReportUnsupportedType(op, axis_tensor->type, "int32, int64", "axis");
  }
  if (ElementCount(axis_tensor->dims) != 1) {
    MicroPrintf("%s: the axis tensor has %d elements, expected 1", op,
                static_cast<int>(ElementCount(axis_tensor->dims)));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckRank(op, "input", input, kMaxShapeDims));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "output", output, kMaxShapeDims));
  const int rank = input->dims->size;
  const int64_t axis_value =
      axis_tensor->type == kTfLiteInt32 ? axis_tensor->data.i32[0] : LoadInt64(axis_tensor->data.raw_const, 0);
  const int64_t axis = axis_value < 0 ? axis_value + rank : axis_value;
  if (axis < 0 || axis >= rank) {
    const int32_t shown = axis_value < -1000 ? -1000 : (axis_value > 1000 ? 1000 : static_cast<int32_t>(axis_value));
    MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D input", op, static_cast<int>(shown), -rank, rank, rank);
    return kTfLiteError;
  }
  const int a = static_cast<int>(axis);
  int32_t expected[kMaxShapeDims];
  for (int i = 0, e = 0; i < rank; ++i) {
    if (i != a) expected[e++] = input->dims->data[i];
  }
  TF_LITE_ENSURE_OK(context, CheckOutputShape(op, output, expected, rank - 1));
  if (input->dims->data[a] == 0 && ElementCount(output->dims) != 0) {
    MicroPrintf("%s: axis %d has no elements to pick an index from", op, a);
    return kTfLiteError;
  }
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(ArgMinMaxOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<ArgMinMaxOpData*>(node->user_data);
  d->outer_size = 1;
  for (int i = 0; i < a; ++i) d->outer_size *= input->dims->data[i];
  d->axis_size = input->dims->data[a];
  d->inner_size = 1;
  for (int i = a + 1; i < rank; ++i) d->inner_size *= input->dims->data[i];
  return kTfLiteOk;
}

// For every (outer, inner): the first index along the axis whose value no
// later value beats. `is_max` swaps the operands of the one comparison.
template <typename T>
void Search(const ArgMinMaxOpData& d, const T* in, bool is_max, TfLiteTensor* output) {
  const bool wide = output->type == kTfLiteInt64;
  int32_t out_index = 0;
  for (int32_t o = 0; o < d.outer_size; ++o) {
    const T* row = in + static_cast<size_t>(o) * d.axis_size * d.inner_size;
    for (int32_t i = 0; i < d.inner_size; ++i, ++out_index) {
      T best = row[i];
      int32_t best_index = 0;
      for (int32_t k = 1; k < d.axis_size; ++k) {
        const T v = row[static_cast<size_t>(k) * d.inner_size + i];
        if (is_max ? v > best : best > v) {
          best = v;
          best_index = k;
        }
      }
      if (wide) {
        const int64_t index = best_index;  // int64 outputs need no 8-byte alignment
        memcpy(static_cast<uint8_t*>(output->data.raw) + static_cast<size_t>(out_index) * sizeof(index), &index,
               sizeof(index));
      } else {
        output->data.i32[out_index] = best_index;
      }
    }
  }
}

TfLiteStatus ArgMinMaxInvoke(const char* op, TfLiteContext* context, TfLiteNode* node, bool is_max) {
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const auto& d = *static_cast<const ArgMinMaxOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      Search(d, input->data.f, is_max, output);
      break;
    case kTfLiteInt8:
      Search(d, input->data.int8, is_max, output);
      break;
    case kTfLiteInt32:
      Search(d, input->data.i32, is_max, output);
      break;
    default:  // uint8 and bool (bytes 0 and 1)
      Search(d, input->data.uint8, is_max, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_ARG_MAX() {
  return {nullptr, nullptr, [](TfLiteContext* c, TfLiteNode* n) { return ArgMinMaxPrepare(kArgMax, c, n); },
          [](TfLiteContext* c, TfLiteNode* n) { return ArgMinMaxInvoke(kArgMax, c, n, true); }};
}

TfLiteRegistration Register_ARG_MIN() {
  return {nullptr, nullptr, [](TfLiteContext* c, TfLiteNode* n) { return ArgMinMaxPrepare(kArgMin, c, n); },
          [](TfLiteContext* c, TfLiteNode* n) { return ArgMinMaxInvoke(kArgMin, c, n, false); }};
}

}  // namespace micro_runtime
