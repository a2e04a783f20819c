// PAD and PADV2: the input surrounded by paddings[i][0] values before and
// paddings[i][1] after along axis i (paddings: a constant int32 [rank, 2]
// tensor, input 1), up to 5 dimensions like TFLM. The pad value is PADV2's
// scalar input 2 (same type; int8 also the output's scale and zero point),
// else 0: the output zero point for int8 (TFLite's "0 must be representable"),
// 0 for int16 (zero point 0) and the other types. Like TFLM, the input is
// copied as stored whatever the input and output quantization. float32, int8,
// int16, int32. Bit-exact: the output is the input's values and the pad value.
#include <string.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr int kMaxPadDims = 5;  // TFLite's PadKernelMaxDimensionCount

struct PadOpData {
  int32_t out_dims[kMaxPadDims];   // left-padded with 1 to kMaxPadDims
  int32_t in_dims[kMaxPadDims];
  int32_t before[kMaxPadDims];     // padding before each axis
  uint8_t pad_value[4];            // one element of the output type
};

TfLiteStatus PadPrepareOp(const char* op, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 2, 3, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const TfLiteTensor* constant = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  if (NumInputs(node) == 3 && constant == nullptr) {
    MicroPrintf("%s: input 2 (the pad value) is missing or out of range", op);
    return kTfLiteError;
  }
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8 && input->type != kTfLiteInt16 &&
      input->type != kTfLiteInt32) {
    return ReportUnsupportedType(op, input->type, "float32, int8, int16, int32");
  }
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "input", input, kMaxPadDims));
  const int rank = input->dims->size;
  const int32_t* paddings =
      ConstantInt32Data(op, "paddings", GetInput(context, node, 1), 2 * rank);
  if (paddings == nullptr) return kTfLiteError;
  int32_t expected[kMaxPadDims] = {};
  for (int i = 0; i < rank; ++i) {
    const int64_t size = int64_t{input->dims->data[i]} + paddings[2 * i] + paddings[2 * i + 1];
    if (paddings[2 * i] < 0 || paddings[2 * i + 1] < 0 || size > INT32_MAX) {
      MicroPrintf("%s: paddings [%d, %d] of axis %d must be >= 0 and fit the output", op,
                  static_cast<int>(paddings[2 * i]), static_cast<int>(paddings[2 * i + 1]), i);
      return kTfLiteError;
    }
    expected[i] = static_cast<int32_t>(size);
  }
  TF_LITE_ENSURE_OK(context, CheckOutputShape(op, output, expected, rank));
  TF_LITE_ENSURE_OK(context, CheckRank(op, "output", output, kMaxPadDims));

  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(PadOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  PadOpData* data = static_cast<PadOpData*>(node->user_data);
  const int lead = kMaxPadDims - rank;
  for (int i = 0; i < kMaxPadDims; ++i) {
    const bool real = i >= lead;
    data->in_dims[i] = real ? input->dims->data[i - lead] : 1;
    data->out_dims[i] = real ? expected[i - lead] : 1;
    data->before[i] = real ? paddings[2 * (i - lead)] : 0;
  }
  memset(data->pad_value, 0, sizeof(data->pad_value));
  if (constant != nullptr) {
    TF_LITE_ENSURE_OK(context, CheckSameType(op, input, constant));
    if (ElementCount(constant->dims) != 1 || constant->data.raw_const == nullptr) {
      MicroPrintf("%s: the pad value (input 2) must be a scalar with data, got %d elements", op,
                  static_cast<int>(ElementCount(constant->dims)));
      return kTfLiteError;
    }
    if (input->type == kTfLiteInt8 && (constant->params.zero_point != output->params.zero_point ||
                                       constant->params.scale != output->params.scale)) {
      MicroPrintf("%s: the int8 pad value needs the output's quantization (scale %f, zero point %d), got scale %f, "
                  "zero point %d",
                  op, static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point),
                  static_cast<double>(constant->params.scale), static_cast<int>(constant->params.zero_point));
      return kTfLiteError;
    }
    // A constant pad value is copied here; one computed by an earlier op at invoke.
    if (constant->is_constant) memcpy(data->pad_value, constant->data.raw_const, TypeSize(input->type));
  } else if (input->type == kTfLiteInt8) {
    if (output->params.zero_point < -128 || output->params.zero_point > 127) {
      MicroPrintf("%s: int8 output zero point %d is outside int8, so 0 cannot be padded", op,
                  static_cast<int>(output->params.zero_point));
      return kTfLiteError;
    }
    data->pad_value[0] = static_cast<uint8_t>(static_cast<int8_t>(output->params.zero_point));
  }
  return kTfLiteOk;
}

// Fills `count` elements of `size` bytes at out with `value`.
void Fill(uint8_t* out, int32_t count, const uint8_t* value, size_t size) {
  if (count <= 0) return;
  if (size == 1) {
    memset(out, value[0], static_cast<size_t>(count));
    return;
  }
  for (int32_t i = 0; i < count; ++i) memcpy(out + static_cast<size_t>(i) * size, value, size);
}

TfLiteStatus PadInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData("PAD");
  const PadOpData& d = *static_cast<const PadOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const size_t size = TypeSize(input->type);
  uint8_t pad_value[4];
  memcpy(pad_value, d.pad_value, sizeof(pad_value));
  const TfLiteTensor* constant = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  if (constant != nullptr && !constant->is_constant) memcpy(pad_value, constant->data.raw_const, size);

  uint8_t* out = static_cast<uint8_t*>(output->data.raw);
  Fill(out, ElementCount(output->dims), pad_value, size);
  // Then every input row (innermost axis) to its place.
  const int32_t* od = d.out_dims;
  const int32_t* id = d.in_dims;
  const size_t row_bytes = static_cast<size_t>(id[4]) * size;
  if (row_bytes == 0) return kTfLiteOk;
  const uint8_t* in = static_cast<const uint8_t*>(input->data.raw_const);
  for (int32_t a = 0; a < id[0]; ++a) {
    for (int32_t b = 0; b < id[1]; ++b) {
      for (int32_t c = 0; c < id[2]; ++c) {
        for (int32_t e = 0; e < id[3]; ++e) {
          const int32_t o =
              (((a + d.before[0]) * od[1] + b + d.before[1]) * od[2] + c + d.before[2]) * od[3] + e + d.before[3];
          memcpy(out + (static_cast<size_t>(o) * od[4] + d.before[4]) * size, in, row_bytes);
          in += row_bytes;
        }
      }
    }
  }
  return kTfLiteOk;
}

constexpr char kPad[] = "PAD";
constexpr char kPadV2[] = "PADV2";

}  // namespace

TfLiteRegistration Register_PAD() {
  return {nullptr, nullptr, [](TfLiteContext* c, TfLiteNode* n) { return PadPrepareOp(kPad, c, n); }, PadInvoke};
}
TfLiteRegistration Register_PADV2() {
  return {nullptr, nullptr, [](TfLiteContext* c, TfLiteNode* n) { return PadPrepareOp(kPadV2, c, n); }, PadInvoke};
}

}  // namespace micro_runtime
