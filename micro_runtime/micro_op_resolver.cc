#include "micro_runtime/micro_op_resolver.h"

#include "micro_runtime/micro_log.h"

namespace micro_runtime {

namespace {

// Names for error messages. A short table instead of the schema's full name
// list keeps ~4 KB of strings out of small flash images. The codes (all
// below 256) and the names are kept in the same order; the names form one
// string with NUL separators, so there is no pointer per name.
constexpr uint8_t kNamedCodes[] = {0, 1, 2, 3, 4, 6, 9, 11, 14, 17, 18, 19, 21, 22, 23, 25, 27, 28, 32, 34, 36, 37, 38,
                                   39, 40, 41, 42, 43, 44, 45, 47, 49, 53, 54, 55, 56, 57, 60, 66, 67, 70, 73, 75, 76,
                                   77, 79, 83, 88, 93, 94, 97, 98, 99, 101, 102, 114, 117, 150};
constexpr char kNames[] =
    "ADD\0AVERAGE_POOL_2D\0CONCATENATION\0CONV_2D\0DEPTHWISE_CONV_2D\0DEQUANTIZE\0FULLY_CONNECTED\0L2_NORMALIZATION\0"
    "LOGISTIC\0MAX_POOL_2D\0MUL\0RELU\0RELU6\0RESHAPE\0RESIZE_BILINEAR\0SOFTMAX\0SVDF\0TANH\0CUSTOM\0PAD\0GATHER\0"
    "BATCH_TO_SPACE_ND\0SPACE_TO_BATCH_ND\0TRANSPOSE\0"
    "MEAN\0SUB\0DIV\0SQUEEZE\0UNIDIRECTIONAL_SEQUENCE_LSTM\0STRIDED_SLICE\0EXP\0SPLIT\0"
    "CAST\0PRELU\0MAXIMUM\0ARG_MAX\0MINIMUM\0PADV2\0SIN\0TRANSPOSE_CONV\0EXPAND_DIMS\0LOG\0SQRT\0RSQRT\0SHAPE\0"
    "ARG_MIN\0PACK\0UNPACK\0ZEROS_LIKE\0FILL\0"
    "RESIZE_NEAREST_NEIGHBOR\0LEAKY_RELU\0SQUARED_DIFFERENCE\0ABS\0SPLIT_V\0QUANTIZE\0HARD_SWISH\0GELU\0";

bool SameName(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// The op's name for messages: the custom name, the builtin's name, or its
// code as text in `buffer` for builtins this runtime has no name for.
const char* OpLabel(int32_t builtin_code, const char* custom_name, char (&buffer)[12]) {
  if (custom_name != nullptr) return custom_name;
  const char* name = BuiltinOperatorName(builtin_code);
  if (name != nullptr) return name;
  MicroSnprintf(buffer, sizeof(buffer), "%d", static_cast<int>(builtin_code));
  return buffer;
}

}  // namespace

const char* BuiltinOperatorName(int32_t code) {
  const char* name = kNames;
  for (const uint8_t named : kNamedCodes) {
    if (named == code) return name;
    while (*name++ != '\0') {
    }
  }
  return nullptr;
}

const MicroOpResolver::Entry* MicroOpResolver::FindEntry(int32_t builtin_code, const char* custom_name) const {
  for (size_t i = 0; i < count_; ++i) {
    const Entry& e = entries_[i];
    if (custom_name == nullptr) {
      if (e.custom_name == nullptr && e.builtin_code == builtin_code) return &e;
    } else if (e.custom_name != nullptr && SameName(e.custom_name, custom_name)) {
      return &e;
    }
  }
  return nullptr;
}

TfLiteStatus MicroOpResolver::Add(int32_t builtin_code, const char* custom_name, const TfLiteRegistration& reg,
                                  int min_version, int max_version) {
  char code_text[12];
  const char* name = OpLabel(builtin_code, custom_name, code_text);
  if (min_version < 1 || max_version < min_version || max_version > 0x7fff) {
    MicroPrintf("op resolver: invalid version range %d-%d for op '%s'; use 1 <= min_version <= max_version",
                min_version, max_version, name);
    return kTfLiteError;
  }
  if (FindEntry(builtin_code, custom_name) != nullptr) {
    MicroPrintf("op resolver: op '%s' is already registered; register each op once", name);
    return kTfLiteError;
  }
  if (count_ >= capacity_) {
    MicroPrintf("op resolver: full (%u ops) while adding '%s'; raise the N of MicroMutableOpResolver<N>",
                static_cast<unsigned>(capacity_), name);
    return kTfLiteError;
  }
  Entry& e = entries_[count_++];
  e.registration = reg;
  e.custom_name = custom_name;
  e.builtin_code = builtin_code;
  e.min_version = static_cast<int16_t>(min_version);
  e.max_version = static_cast<int16_t>(max_version);
  return kTfLiteOk;
}

const TfLiteRegistration* MicroOpResolver::Find(int32_t builtin_code, const char* custom_name,
                                                int32_t version) const {
  const Entry* e = FindEntry(builtin_code, custom_name);
  char code_text[12];
  const char* name = OpLabel(builtin_code, custom_name, code_text);
  if (e == nullptr) {
    if (custom_name != nullptr) {
      MicroPrintf("Encountered unresolved custom op: %s.", custom_name);
    } else {
      MicroPrintf("Didn't find op for builtin opcode '%s' version '%d'", name, static_cast<int>(version));
    }
    return nullptr;
  }
  char range[32];
  if (e->min_version == e->max_version) {
    MicroSnprintf(range, sizeof(range), "version %d", e->min_version);
  } else {
    MicroSnprintf(range, sizeof(range), "versions %d-%d", e->min_version, e->max_version);
  }
  if (version > e->max_version || version < e->min_version) {
    const bool newer = version > e->max_version;
    MicroPrintf("Op '%s' version %d in the model is %s than this runtime supports (%s); %s", name,
                static_cast<int>(version), newer ? "newer" : "older", range,
                newer ? "rebuild with a newer micro_runtime or re-convert the model"
                      : "re-convert the model with a current converter");
    return nullptr;
  }
  return &e->registration;
}

}  // namespace micro_runtime
