// TRANSPOSE: output axis i is input axis perm[i] (perm: a constant int32
// permutation of the input's axes, input 1). Up to 6 dimensions (TFLM: 5;
// TFLite version 6 is beyond 5), by element size: float32, int8, int16,
// int32, int64, bool (TFLM: float32, int8, int16). The output shape must be
// the permuted input shape. Bit-exact (pure data movement).
#include "micro_runtime/kernels/data_movement.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "TRANSPOSE";
constexpr int kMaxDims = kMaxShapeDims;

// Output dims and, per output axis, the input element stride, both
// left-padded to kMaxDims with size-1 axes.
struct TransposeOpData {
  int32_t dims[kMaxDims];
  int32_t in_stride[kMaxDims];
};

TfLiteStatus TransposePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareDataMovement(kOp, context, node, 2, kMaxDims));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const int rank = input->dims->size;
  const int32_t* perm = ConstantInt32Data(kOp, "perm", GetInput(context, node, 1), rank);
  if (perm == nullptr) return kTfLiteError;
  int32_t expected[kMaxDims] = {};
  bool seen[kMaxDims] = {};
  for (int i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
      MicroPrintf("%s: perm entry %d (%d) is not a permutation of the %d input axes", kOp, i,
                  static_cast<int>(perm[i]), rank);
      return kTfLiteError;
    }
    seen[perm[i]] = true;
    expected[i] = input->dims->data[perm[i]];
  }
  TF_LITE_ENSURE_OK(context, CheckOutputShape(kOp, output, expected, rank));
  if (node->user_data == nullptr) {
    node->user_data = AllocateOpData(kOp, context, sizeof(TransposeOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<TransposeOpData*>(node->user_data);
  int32_t in_stride[kMaxDims];
  int32_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    in_stride[i] = stride;
    stride *= input->dims->data[i];
  }
  const int lead = kMaxDims - rank;
  for (int i = 0; i < kMaxDims; ++i) {
    d->dims[i] = i < lead ? 1 : expected[i - lead];
    d->in_stride[i] = i < lead ? 0 : in_stride[perm[i - lead]];
  }
  return kTfLiteOk;
}

template <typename T>
void Permute(const TransposeOpData& d, const T* in, T* out) {
  const int32_t* n = d.dims;
  const int32_t* s = d.in_stride;
  for (int32_t a = 0; a < n[0]; ++a) {
    for (int32_t b = 0; b < n[1]; ++b) {
      for (int32_t c = 0; c < n[2]; ++c) {
        for (int32_t e = 0; e < n[3]; ++e) {
          const int32_t base = a * s[0] + b * s[1] + c * s[2] + e * s[3];
          for (int32_t f = 0; f < n[4]; ++f) {
            const T* row = in + base + f * s[4];
            for (int32_t g = 0; g < n[5]; ++g) *out++ = row[g * s[5]];
          }
        }
      }
    }
  }
}

TfLiteStatus TransposeInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const auto& d = *static_cast<const TransposeOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (TypeSize(input->type)) {
    case 1:
      Permute(d, static_cast<const uint8_t*>(input->data.raw_const), static_cast<uint8_t*>(output->data.raw));
      break;
    case 2:
      Permute(d, input->data.i16, output->data.i16);
      break;
    case 4:
      Permute(d, input->data.i32, output->data.i32);
      break;
    default:  // 8 bytes; int64 constants may be only 4-byte aligned in the model
      Permute(d, static_cast<const Int64Words*>(input->data.raw_const), static_cast<Int64Words*>(output->data.raw));
      break;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_TRANSPOSE() { return {nullptr, nullptr, TransposePrepare, TransposeInvoke}; }

}  // namespace micro_runtime
