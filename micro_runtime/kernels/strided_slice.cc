// STRIDED_SLICE: input[begin:end:stride] along every axis, with the constant
// int32 begin, end and strides tensors (inputs 1-3, one entry per input axis)
// and TFLite's masks: begin_mask / end_mask bit i takes the whole axis i
// (from its first or last element, by the stride's sign), shrink_axis_mask
// bit i takes the one element at begin and drops the axis. Negative indices
// count from the end; indices are clamped into the axis. TFLM ignores
// ellipsis_mask, new_axis_mask and offset (its results are then not TFLite's);
// prepare refuses them. Up to 5 dimensions (TFLM: 4), by element size:
// float32, int8, int16, int32, int64, bool. The output shape must be the
// slice's. Bit-exact (pure data movement).
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "STRIDED_SLICE";
constexpr int kMaxDims = 5;

// Per axis, left-padded to kMaxDims with whole size-1 axes.
struct StridedSliceOpData {
  int32_t start[kMaxDims];
  int32_t count[kMaxDims];  // elements taken along the axis
  int32_t step[kMaxDims];   // input element stride x slice stride
};

int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

TfLiteStatus StridedSlicePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareDataMovement(kOp, context, node, 4, kMaxDims));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const auto* params = static_cast<const TfLiteStridedSliceParams*>(node->builtin_data);
  if (params == nullptr) {
    MicroPrintf("%s: the operator has no StridedSliceOptions", kOp);
    return kTfLiteError;
  }
  if (params->ellipsis_mask != 0 || params->new_axis_mask != 0 || params->offset) {
    MicroPrintf("%s: ellipsis_mask %d, new_axis_mask %d and offset %d are not supported (TFLM ignores them); "
                "re-convert the model without them",
                kOp, static_cast<int>(params->ellipsis_mask), static_cast<int>(params->new_axis_mask),
                params->offset ? 1 : 0);
    return kTfLiteError;
  }
  const int rank = input->dims->size;
  const int32_t* begin = ConstantInt32Data(kOp, "begin", GetInput(context, node, 1), rank);
  const int32_t* end = ConstantInt32Data(kOp, "end", GetInput(context, node, 2), rank);
  const int32_t* strides = ConstantInt32Data(kOp, "strides", GetInput(context, node, 3), rank);
  if (begin == nullptr || end == nullptr || strides == nullptr) return kTfLiteError;
  if (node->user_data == nullptr) {
    node->user_data = AllocateOpData(kOp, context, sizeof(StridedSliceOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<StridedSliceOpData*>(node->user_data);
  const int lead = kMaxDims - rank;
  int32_t expected[kMaxDims] = {};
  int out_rank = 0;
  int32_t element_stride = 1;
  for (int i = kMaxDims - 1; i >= 0; --i) {
    if (i < lead) {
      d->start[i] = 0;
      d->count[i] = 1;
      d->step[i] = 0;
      continue;
    }
    const int axis = i - lead;
    const int32_t size = input->dims->data[axis];
    const int32_t stride = strides[axis];
    const uint32_t bit = uint32_t{1} << axis;
    if (stride == 0) {
      MicroPrintf("%s: stride of axis %d is 0", kOp, axis);
      return kTfLiteError;
    }
    // TFLite's StridedSliceStartForAxis / EndForAxis: negative indices from
    // the end, clamped into the axis by the stride's direction, then masks.
    const bool forward = stride > 0;
    int64_t start = begin[axis] < 0 ? int64_t{begin[axis]} + size : begin[axis];
    int64_t stop = end[axis] < 0 ? int64_t{end[axis]} + size : end[axis];
    start = forward ? Clamp(start, 0, size) : Clamp(start, -1, int64_t{size} - 1);
    stop = forward ? Clamp(stop, 0, size) : Clamp(stop, -1, int64_t{size} - 1);
    if ((static_cast<uint32_t>(params->begin_mask) & bit) != 0) start = forward ? 0 : size - 1;
    if ((static_cast<uint32_t>(params->end_mask) & bit) != 0) stop = forward ? size : -1;
    if ((static_cast<uint32_t>(params->shrink_axis_mask) & bit) != 0) {
      // The one element at start; TFLite writes nothing for a start past the
      // end or a negative stride, leaving the output undefined.
      if (!forward || start >= size) {
        MicroPrintf("%s: shrunk axis %d needs a positive stride and a begin inside its %d elements, got begin %d, "
                    "stride %d",
                    kOp, axis, static_cast<int>(size), static_cast<int>(begin[axis]), static_cast<int>(stride));
        return kTfLiteError;
      }
      d->start[i] = static_cast<int32_t>(start);
      d->count[i] = 1;
      d->step[i] = 0;
      element_stride *= size;
      continue;
    }
    const int64_t span = forward ? stop - start : start - stop;
    const int64_t magnitude = forward ? int64_t{stride} : -int64_t{stride};
    const int64_t count = span <= 0 ? 0 : (span + magnitude - 1) / magnitude;
    d->start[i] = static_cast<int32_t>(start);
    d->count[i] = static_cast<int32_t>(count);
    // With two or more elements |stride| < size, so the step fits; with fewer it is never used.
    d->step[i] = count > 1 ? static_cast<int32_t>(int64_t{stride} * element_stride) : 0;
    element_stride *= size;
    expected[kMaxDims - 1 - out_rank++] = static_cast<int32_t>(count);
  }
  return CheckOutputShape(kOp, output, expected + kMaxDims - out_rank, out_rank);
}

template <typename T>
void Slice(const StridedSliceOpData& d, const int32_t* in_strides, const T* in, T* out) {
  int32_t base[kMaxDims];
  for (int i = 0; i < kMaxDims; ++i) base[i] = d.start[i] * in_strides[i];
  for (int32_t a = 0, ia = base[0]; a < d.count[0]; ++a, ia += d.step[0]) {
    for (int32_t b = 0, ib = ia + base[1]; b < d.count[1]; ++b, ib += d.step[1]) {
      for (int32_t c = 0, ic = ib + base[2]; c < d.count[2]; ++c, ic += d.step[2]) {
        for (int32_t e = 0, ie = ic + base[3]; e < d.count[3]; ++e, ie += d.step[3]) {
          for (int32_t f = 0, i = ie + base[4]; f < d.count[4]; ++f, i += d.step[4]) *out++ = in[i];
        }
      }
    }
  }
}

TfLiteStatus StridedSliceInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const auto& d = *static_cast<const StridedSliceOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  // Input element strides per padded axis.
  int32_t in_strides[kMaxDims];
  const int lead = kMaxDims - input->dims->size;
  int32_t stride = 1;
  for (int i = kMaxDims - 1; i >= 0; --i) {
    in_strides[i] = stride;
    if (i >= lead) stride *= input->dims->data[i - lead];
  }
  switch (TypeSize(input->type)) {
    case 1:
      Slice(d, in_strides, static_cast<const uint8_t*>(input->data.raw_const), static_cast<uint8_t*>(output->data.raw));
      break;
    case 2:
      Slice(d, in_strides, input->data.i16, output->data.i16);
      break;
    case 4:
      Slice(d, in_strides, input->data.i32, output->data.i32);
      break;
    default:  // 8 bytes; int64 constants may be only 4-byte aligned in the model
      Slice(d, in_strides, static_cast<const Int64Words*>(input->data.raw_const),
            static_cast<Int64Words*>(output->data.raw));
      break;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_STRIDED_SLICE() { return {nullptr, nullptr, StridedSlicePrepare, StridedSliceInvoke}; }

}  // namespace micro_runtime
