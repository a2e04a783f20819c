#include "micro_runtime/kernels/elementwise_util.h"

#include <string.h>

#include "micro_runtime/builtin_options.h"

namespace micro_runtime {

namespace {

void FormatShape(const TfLiteIntArray* dims, char* out, int size) {
  FormatDims(dims->data, dims->size, out, size);
}

// Lower-case type name ("float32"), so messages read like the supported lists.
const char* LowerTypeName(TfLiteType type, char* out, int size) {
  MicroSnprintf(out, static_cast<size_t>(size), "%s", TfLiteTypeName(type));
  for (char* c = out; *c != '\0'; ++c) {
    if (*c >= 'A' && *c <= 'Z') *c = static_cast<char>(*c - 'A' + 'a');
  }
  return out;
}

}  // namespace

void FormatDims(const int32_t* dims, int rank, char* out, int size) {
  int used = MicroSnprintf(out, static_cast<size_t>(size), "[");
  for (int i = 0; i < rank && used < size - 1; ++i) {
    used += MicroSnprintf(out + used, static_cast<size_t>(size - used), i == 0 ? "%d" : ",%d",
                          static_cast<int>(dims[i]));
  }
  if (used < size - 1) MicroSnprintf(out + used, static_cast<size_t>(size - used), "]");
}

TfLiteStatus CheckNodeIo(const char* op, TfLiteContext* context, const TfLiteNode* node,
                         int min_inputs, int max_inputs, int outputs) {
  const int num_inputs = node->inputs == nullptr ? 0 : NumInputs(node);
  const int num_outputs = node->outputs == nullptr ? 0 : NumOutputs(node);
  if (num_inputs < min_inputs || num_inputs > max_inputs) {
    if (min_inputs == max_inputs) {
      MicroPrintf("%s: expected %d input(s), got %d", op, min_inputs, num_inputs);
    } else {
      MicroPrintf("%s: expected %d to %d inputs, got %d", op, min_inputs, max_inputs, num_inputs);
    }
    return kTfLiteError;
  }
  if (num_outputs != outputs) {
    MicroPrintf("%s: expected %d output(s), got %d", op, outputs, num_outputs);
    return kTfLiteError;
  }
  for (int i = 0; i < min_inputs; ++i) {
    if (GetInput(context, node, i) == nullptr) {
      MicroPrintf("%s: input %d is missing or out of range", op, i);
      return kTfLiteError;
    }
  }
  for (int i = 0; i < outputs; ++i) {
    if (GetOutput(context, node, i) == nullptr) {
      MicroPrintf("%s: output %d is missing or out of range", op, i);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus ReportUnsupportedType(const char* op, TfLiteType type, const char* supported,
                                   const char* what) {
  char name[16];
  MicroPrintf("%s: %s%stype %s not supported (%s)", op, what == nullptr ? "" : what,
              what == nullptr ? "" : " ", LowerTypeName(type, name, sizeof(name)), supported);
  return kTfLiteError;
}

TfLiteStatus CheckSameType(const char* op, const TfLiteTensor* input, const TfLiteTensor* output) {
  if (input->type != output->type) {
    char a[16];
    char b[16];
    MicroPrintf("%s: tensor types must match, got %s and %s", op,
                LowerTypeName(input->type, a, sizeof(a)), LowerTypeName(output->type, b, sizeof(b)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckSameElementCount(const char* op, const TfLiteTensor* input,
                                   const TfLiteTensor* output) {
  const int32_t in_count = ElementCount(input->dims);
  const int32_t out_count = ElementCount(output->dims);
  if (in_count != out_count) {
    MicroPrintf("%s: input has %d elements but output has %d", op, static_cast<int>(in_count),
                static_cast<int>(out_count));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckSameShape(const char* op, const TfLiteTensor* input, const TfLiteTensor* output) {
  bool same = input->dims->size == output->dims->size;
  for (int i = 0; same && i < input->dims->size; ++i) {
    same = input->dims->data[i] == output->dims->data[i];
  }
  if (!same) {
    char a[48];
    char b[48];
    FormatShape(input->dims, a, sizeof(a));
    FormatShape(output->dims, b, sizeof(b));
    MicroPrintf("%s: input shape %s and output shape %s must match", op, a, b);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

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

const int32_t* ConstantInt32Data(const char* op, const char* what, const TfLiteTensor* tensor, int32_t count,
                                 int32_t* actual) {
  if (!tensor->is_constant || tensor->data.raw_const == nullptr) {
    MicroPrintf("%s: the %s tensor must be constant (micro_runtime needs static shapes)", op, what);
    return nullptr;
  }
  if (tensor->type != kTfLiteInt32) {
    ReportUnsupportedType(op, tensor->type, "int32", what);
    return nullptr;
  }
  const int32_t elements = ElementCount(tensor->dims);
  if (count >= 0 && elements != count) {
    MicroPrintf("%s: the %s tensor has %d elements, expected %d", op, what, static_cast<int>(elements),
                static_cast<int>(count));
    return nullptr;
  }
  if (actual != nullptr) *actual = elements;
  return tensor->data.i32;
}

TfLiteStatus CheckRank(const char* op, const char* what, const TfLiteTensor* tensor, int max_rank) {
  if (tensor->dims->size > max_rank) {
    MicroPrintf("%s: %s has %d dimensions; supported up to %d", op, what, static_cast<int>(tensor->dims->size),
                max_rank);
    return kTfLiteError;
  }
  // Index math multiplies dimensions in int32: with a zero-size dimension the
  // element count is 0 but partial products of the others could overflow.
  int64_t product = 1;
  for (int i = 0; i < tensor->dims->size; ++i) {
    const int32_t d = tensor->dims->data[i];
    if (d < 0) {
      MicroPrintf("%s: %s has a dynamic dimension %d; micro_runtime needs static shapes", op, what, i);
      return kTfLiteError;
    }
    if (d > 0) product *= d;
    if (product > INT32_MAX) {
      MicroPrintf("%s: %s has more than 2^31 elements (the model is likely corrupt)", op, what);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

const char kDataTypeNames[] = "float32, int8, int16, int32, int64, bool";

TfLiteStatus CheckDataType(const char* op, const TfLiteTensor* tensor) {
  switch (tensor->type) {
    case kTfLiteFloat32:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteBool:
      return kTfLiteOk;
    default:
      return ReportUnsupportedType(op, tensor->type, kDataTypeNames);
  }
}

TfLiteStatus PrepareDataMovement(const char* op, TfLiteContext* context, TfLiteNode* node, int inputs,
                                 int max_rank) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, inputs, inputs, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckDataType(op, input));
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, GetOutput(context, node, 0)));
  return CheckRank(op, "input", input, max_rank);
}

TfLiteStatus CheckOutputShape(const char* op, const TfLiteTensor* output, const int32_t* expected, int rank) {
  bool same = output->dims->size == rank;
  for (int i = 0; same && i < rank; ++i) same = output->dims->data[i] == expected[i];
  if (!same) {
    char a[48];
    char b[48];
    FormatShape(output->dims, a, sizeof(a));
    FormatDims(expected, rank, b, sizeof(b));
    MicroPrintf("%s: output shape %s does not match %s", op, a, b);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckSameQuantization(const char* op, const TfLiteTensor* input, const TfLiteTensor* output) {
  if ((input->type == kTfLiteInt8 || input->type == kTfLiteInt16) &&
      (input->params.scale != output->params.scale || input->params.zero_point != output->params.zero_point)) {
    MicroPrintf("%s: input scale %f, zero point %d differ from the output's %f, %d; %s copies without requantizing",
                op, static_cast<double>(input->params.scale), static_cast<int>(input->params.zero_point),
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point), op);
    return kTfLiteError;
  }
  return kTfLiteOk;
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

bool InTypeSet(TfLiteType type, unsigned types) {
  return (type == kTfLiteFloat32 && (types & kTypeFloat32) != 0) ||
         (type == kTfLiteInt8 && (types & kTypeInt8) != 0) ||
         (type == kTfLiteInt16 && (types & kTypeInt16) != 0);
}

TfLiteStatus PrepareUnary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                          const char* supported) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!InTypeSet(input->type, types)) return ReportUnsupportedType(op, input->type, supported);
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  return CheckSameShape(op, input, output);
}

TfLiteStatus CheckQuantized(const char* op, const char* what, const TfLiteTensor* tensor) {
  if (!(tensor->params.scale > 0.0f)) {
    MicroPrintf("%s: %s needs a quantization scale > 0, got %f", op, what,
                static_cast<double>(tensor->params.scale));
    return kTfLiteError;
  }
  if (tensor->type == kTfLiteInt16 && tensor->params.zero_point != 0) {
    MicroPrintf("%s: int16 %s needs zero point 0 (symmetric int16 quantization), got %d", op, what,
                static_cast<int>(tensor->params.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Allocates the node's op data once (prepare may run more than once).
static void* NodeOpData(const char* op, TfLiteContext* context, TfLiteNode* node, size_t bytes) {
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, bytes);
  return node->user_data;
}

TfLiteStatus PrepareQuantizedUnary(const char* op, TfLiteContext* context, TfLiteNode* node,
                                   unsigned types, const char* supported, size_t op_data_bytes,
                                   void** op_data) {
  *op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareUnary(op, context, node, types, supported));
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input", input));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "output", GetOutput(context, node, 0)));
  *op_data = NodeOpData(op, context, node, op_data_bytes);
  return *op_data != nullptr ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus PrepareFloatUnary(const char* op, TfLiteContext* context, TfLiteNode* node) {
  return PrepareUnary(op, context, node, kTypeFloat32, "float32");
}

TfLiteStatus EvalFloatUnary(TfLiteContext* context, TfLiteNode* node, float (*f)(float)) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) output->data.f[i] = f(input->data.f[i]);
  return kTfLiteOk;
}

TfLiteStatus PrepareFloatOrInt8Unary(const char* op, TfLiteContext* context, TfLiteNode* node) {
  return PrepareUnary(op, context, node, kTypeFloat32 | kTypeInt8, "float32, int8");
}

TfLiteStatus CheckInt8FixedOutput(const char* op, const TfLiteTensor* input,
                                  const TfLiteTensor* output, int scale_denominator,
                                  int32_t zero_point) {
  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: int8 input scale must be > 0, got %f", op, static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  const float expected_scale = 1.0f / static_cast<float>(scale_denominator);
  const float diff = output->params.scale - expected_scale;
  if (diff > 1e-8f || diff < -1e-8f || output->params.zero_point != zero_point) {
    MicroPrintf("%s: int8 output must have scale 1/%d and zero point %d, got scale %f zero point %d",
                op, scale_denominator, static_cast<int>(zero_point),
                static_cast<double>(output->params.scale), static_cast<int>(output->params.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                                float (*f)(float), int scale_denominator, int32_t zero_point) {
  TF_LITE_ENSURE_OK(context, PrepareFloatOrInt8Unary(op, context, node));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteInt8) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckInt8FixedOutput(op, input, output, scale_denominator, zero_point));
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, 256);
  if (node->user_data == nullptr) return kTfLiteError;
  BuildInt8Table(input->params.scale, input->params.zero_point, output->params.scale,
                 output->params.zero_point, f, static_cast<int8_t*>(node->user_data));
  return kTfLiteOk;
}

TfLiteStatus EvalInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                             float (*f)(float)) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  if (input->type != kTfLiteInt8) return EvalFloatUnary(context, node, f);
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  TfLiteTensor* output = GetOutput(context, node, 0);
  ApplyInt8Table(static_cast<const int8_t*>(node->user_data), input->data.int8, output->data.int8,
                 ElementCount(output->dims));
  return kTfLiteOk;
}

void* AllocateOpData(const char* op, TfLiteContext* context, size_t bytes) {
  void* data = context->AllocatePersistentBuffer(context, bytes);
  if (data == nullptr) {
    MicroPrintf("%s: arena exhausted allocating %d bytes of op data; enlarge the tensor arena", op,
                static_cast<int>(bytes));
  }
  return data;
}

TfLiteStatus ReportMissingOpData(const char* op) {
  MicroPrintf("%s: no op data; prepare must succeed on this node before invoke", op);
  return kTfLiteError;
}

namespace {

void ReportShapes(const char* op, const char* problem, const TfLiteIntArray* input1,
                  const TfLiteIntArray* input2, const TfLiteIntArray* output) {
  char a[48];
  char b[48];
  char c[48];
  FormatShape(input1, a, sizeof(a));
  FormatShape(input2, b, sizeof(b));
  FormatShape(output, c, sizeof(c));
  MicroPrintf("%s: %s (inputs %s and %s, output %s)", op, problem, a, b, c);
}

// Dimension `d` of `dims` counted from the right-aligned padded rank.
int32_t PaddedDim(const TfLiteIntArray* dims, int d) {
  const int first = kMaxBroadcastDims - dims->size;
  return d < first ? 1 : dims->data[d - first];
}

}  // namespace

TfLiteStatus PlanBroadcast(const char* op, const TfLiteIntArray* input1,
                           const TfLiteIntArray* input2, const TfLiteIntArray* output,
                           BroadcastPlan* plan) {
  plan->count = ElementCount(output);
  plan->same_shape = input1->size == input2->size && input1->size == output->size;
  for (int i = 0; plan->same_shape && i < output->size; ++i) {
    plan->same_shape = input1->data[i] == output->data[i] && input2->data[i] == output->data[i];
  }
  if (plan->same_shape) return kTfLiteOk;

  if (input1->size > kMaxBroadcastDims || input2->size > kMaxBroadcastDims ||
      output->size > kMaxBroadcastDims) {
    ReportShapes(op, "broadcasting supports at most 6 dimensions", input1, input2, output);
    return kTfLiteError;
  }
  const int rank = input1->size > input2->size ? input1->size : input2->size;
  if (output->size != rank) {
    ReportShapes(op, "output rank must be the larger input rank", input1, input2, output);
    return kTfLiteError;
  }
  int32_t stride1 = 1;
  int32_t stride2 = 1;
  for (int d = kMaxBroadcastDims - 1; d >= 0; --d) {
    const int32_t d1 = PaddedDim(input1, d);
    const int32_t d2 = PaddedDim(input2, d);
    const int32_t dout = PaddedDim(output, d);
    if (d1 != d2 && d1 != 1 && d2 != 1) {
      ReportShapes(op, "input shapes are not broadcast-compatible", input1, input2, output);
      return kTfLiteError;
    }
    const int32_t expected = d1 == 1 ? d2 : d1;
    if (dout != expected) {
      ReportShapes(op, "output shape is not the broadcast of the input shapes", input1, input2,
                   output);
      return kTfLiteError;
    }
    plan->dims[d] = dout;
    plan->stride1[d] = d1 == 1 ? 0 : stride1;
    plan->stride2[d] = d2 == 1 ? 0 : stride2;
    // Wrapping products: a tensor with a zero dimension can have other dimensions whose product leaves int32
    // (the verifier bounds only nonempty tensors); its strides are then never used, as nothing is iterated.
    stride1 = static_cast<int32_t>(static_cast<uint32_t>(stride1) * static_cast<uint32_t>(d1));
    stride2 = static_cast<int32_t>(static_cast<uint32_t>(stride2) * static_cast<uint32_t>(d2));
  }
  return kTfLiteOk;
}

TfLiteFusedActivation ArithmeticActivation(const TfLiteNode* node) {
  const TfLiteArithmeticParams* params = static_cast<const TfLiteArithmeticParams*>(node->builtin_data);
  return params == nullptr ? kTfLiteActNone : params->activation;
}

TfLiteStatus PrepareBinary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                           const char* supported) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 2, 2, 1));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!InTypeSet(input1->type, types)) return ReportUnsupportedType(op, input1->type, supported);
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input1, input2));
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input1, output));
  BroadcastPlan plan;
  return PlanBroadcast(op, input1->dims, input2->dims, output->dims, &plan);
}

TfLiteStatus PrepareArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                               size_t op_data_bytes, ArithmeticQuantParams** quant, unsigned types) {
  *quant = nullptr;
  const char* supported = (types & kTypeInt16) != 0 ? "float32, int8, int16" : "float32, int8";
  TF_LITE_ENSURE_OK(context, PrepareBinary(op, context, node, types, supported));
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input1->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input 1", input1));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input 2", input2));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "output", output));
  ArithmeticQuantParams* q =
      static_cast<ArithmeticQuantParams*>(NodeOpData(op, context, node, op_data_bytes));
  if (q == nullptr) return kTfLiteError;
  q->input1_offset = -input1->params.zero_point;
  q->input2_offset = -input2->params.zero_point;
  q->output_offset = output->params.zero_point;
  TF_LITE_ENSURE_OK(context, CalculateActivationRangeQuantized(ArithmeticActivation(node), output,
                                                               &q->activation_min,
                                                               &q->activation_max));
  *quant = q;
  return kTfLiteOk;
}

double PrepareCommonScale(float scale1, float scale2, int left_shift, CommonScale* s) {
  s->left_shift = left_shift;
  const double common = 2.0 * static_cast<double>(scale1 > scale2 ? scale1 : scale2);
  QuantizeMultiplier(static_cast<double>(scale1) / common, &s->input1_multiplier, &s->input1_shift);
  QuantizeMultiplier(static_cast<double>(scale2) / common, &s->input2_multiplier, &s->input2_shift);
  return common;
}

TfLiteStatus PrepareAddSub(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types) {
  ArithmeticQuantParams* common = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareArithmetic(op, context, node, sizeof(CommonScaleOpData), &common, types));
  if (common == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  CommonScaleOpData* data = static_cast<CommonScaleOpData*>(node->user_data);
  const int left_shift = output->type == kTfLiteInt16 ? 15 : 20;
  const double output_ratio =
      PrepareCommonScale(input1->params.scale, input2->params.scale, left_shift, &data->inputs) /
      (static_cast<double>(1 << left_shift) * static_cast<double>(output->params.scale));
  if (!(output_ratio < 1.0)) {
    MicroPrintf("%s: output scale %f is too small for the input scales %f and %f", op,
                static_cast<double>(output->params.scale), static_cast<double>(input1->params.scale),
                static_cast<double>(input2->params.scale));
    return kTfLiteError;
  }
  QuantizeMultiplier(output_ratio, &data->output_multiplier, &data->output_shift);
  return kTfLiteOk;
}

void InverseSqrtMultiplier(int32_t x, int32_t* multiplier, int* shift) {
  if (x <= 1) {  // 1 / sqrt(1); TFLite also gives it for 0
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  // Normalize x by powers of four to [2^27, 2^29): then as Q3.28 (after the
  // halving below) it lies in [1/4, 1).
  int exponent = 11;
  while (x >= (int32_t{1} << 29)) {
    x /= 4;
    ++exponent;
  }
  const int pairs = (__builtin_clz(static_cast<uint32_t>(x)) - 1) / 2 - 1;
  exponent -= pairs;
  x = static_cast<int32_t>(static_cast<uint32_t>(x) << (2 * pairs));
  const auto mul = SaturatingRoundingDoublingHighMul;
  const int32_t half_input = RoundingDivideByPOT(x >> 1, 1);  // Q3.28
  constexpr int32_t kThreeHalves = (int32_t{1} << 28) + (int32_t{1} << 27);
  int32_t y = int32_t{1} << 28;  // 1.0 in Q3.28
  for (int i = 0; i < 5; ++i) {  // y = 3/2 y - x/2 y^3
    const int32_t y3 = SaturatingShiftLeft(mul(mul(y, y), y), 6);  // Q9 -> Q3
    y = SaturatingShiftLeft(WrappingAdd(mul(kThreeHalves, y), -mul(half_input, y3)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0.31
  y = mul(y, kHalfSqrt2);
  if (exponent < 0) {
    y = static_cast<int32_t>(static_cast<uint32_t>(y) << -exponent);
    exponent = 0;
  }
  *multiplier = y;
  *shift = -exponent;
}

void BuildInt8Table(float input_scale, int32_t input_zero_point, float output_scale,
                    int32_t output_zero_point, float (*f)(float), int8_t table[256]) {
  for (int32_t q = -128; q <= 127; ++q) {
    const float x = input_scale * static_cast<float>(q - input_zero_point);
    table[q + 128] = QuantizeToInt8(f(x), output_scale, output_zero_point);
  }
}

}  // namespace micro_runtime
