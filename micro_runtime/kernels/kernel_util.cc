#include "micro_runtime/kernels/kernel_util.h"

namespace micro_runtime {

namespace {

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

void FormatShape(const TfLiteIntArray* dims, char* out, int size) {
  FormatDims(dims->data, dims->size, out, size);
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

bool InTypeSet(TfLiteType type, unsigned types) {
  return (type == kTfLiteFloat32 && (types & kTypeFloat32) != 0) ||
         (type == kTfLiteInt8 && (types & kTypeInt8) != 0) ||
         (type == kTfLiteInt16 && (types & kTypeInt16) != 0);
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

bool HaveSameShapes(const TfLiteTensor* a, const TfLiteTensor* b) {
  if (a->dims->size != b->dims->size) return false;
  for (int i = 0; i < a->dims->size; ++i) {
    if (a->dims->data[i] != b->dims->data[i]) return false;
  }
  return true;
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

void* NodeOpData(const char* op, TfLiteContext* context, TfLiteNode* node, size_t bytes) {
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, bytes);
  return node->user_data;
}

TfLiteStatus CheckOpDataAndOptions(const char* op_name, const TfLiteNode* node) {
  if (node->user_data == nullptr) {
    MicroPrintf("%s: out of arena memory for op data (enlarge the tensor arena)", op_name);
    return kTfLiteError;
  }
  if (node->builtin_data == nullptr) {
    MicroPrintf("%s: missing builtin options", op_name);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus RequireInt8Input(const char* op_name, const char* registration, TfLiteContext* context,
                              TfLiteNode* node) {
  const TfLiteTensor* input = NumInputs(node) >= 1 ? GetInput(context, node, 0) : nullptr;
  if (input != nullptr && input->type != kTfLiteInt8) {
    MicroPrintf("%s: this build registers the int8 kernel only (%s), got %s input; register Register_%s() "
                "for float32 and int16",
                op_name, registration, TfLiteTypeName(input->type), op_name);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace micro_runtime
