// The output lines shared by the model runner (firmware) and the host file
// runner; the format is documented in docs/model_runner.md and parsed by
// harness/run_model.py.
#ifndef MICRO_RUNTIME_MODEL_RUNNER_RUNNER_OUTPUT_H_
#define MICRO_RUNTIME_MODEL_RUNNER_RUNNER_OUTPUT_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/platform.h"

namespace model_runner {

// Our own names so the protocol does not depend on any other formatter.
inline const char* TypeName(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: return "float32";
    case kTfLiteInt32: return "int32";
    case kTfLiteUInt8: return "uint8";
    case kTfLiteInt64: return "int64";
    case kTfLiteBool: return "bool";
    case kTfLiteInt16: return "int16";
    case kTfLiteInt8: return "int8";
    case kTfLiteFloat16: return "float16";
    default: return "unknown";
  }
}

// Writes "a,b,c" for a shape ("" for a scalar).
inline void FormatShape(char* out, int size, const TfLiteIntArray* dims) {
  int used = 0;
  out[0] = '\0';
  for (int i = 0; i < dims->size && used < size; ++i) {
    used += MicroSnprintf(out + used, static_cast<size_t>(size - used), i ? ",%d" : "%d",
                          static_cast<int>(dims->data[i]));
  }
}

// Streams bytes as hex through DebugLog in small pieces: outputs can be far
// longer than one MicroPrintf line.
inline void LogHex(const uint8_t* data, size_t bytes) {
  static const char kDigits[] = "0123456789abcdef";
  char chunk[65];
  size_t n = 0;
  for (size_t i = 0; i < bytes; ++i) {
    chunk[n++] = kDigits[data[i] >> 4];
    chunk[n++] = kDigits[data[i] & 0xf];
    if (n == 64) {
      chunk[n] = '\0';
      DebugLog(chunk);
      n = 0;
    }
  }
  chunk[n] = '\0';
  DebugLog(chunk);
}

// "case C output O type=T shape=S data=HEX"
inline void LogOutput(int case_index, int output_index, const TfLiteTensor* output) {
  char shape[96];
  char text[160];
  if (output == nullptr || output->dims == nullptr || (output->data.raw == nullptr && output->bytes > 0)) {
    MicroPrintf("model_runner: error: case %d: model output %d has no buffer", case_index, output_index);
    MicroExit(1);
  }
  FormatShape(shape, sizeof(shape), output->dims);
  MicroSnprintf(text, sizeof(text), "case %d output %d type=%s shape=%s data=", case_index, output_index,
                TypeName(output->type), shape);
  DebugLog(text);
  LogHex(output->data.uint8, output->bytes);
  DebugLog("\n");
}

inline void LogInvokeTime(int case_index, uint32_t ticks) {
  MicroPrintf("case %d invoke_ticks=%u ticks_per_second=%u", case_index, static_cast<unsigned>(ticks),
              static_cast<unsigned>(MicroTicksPerSecond()));
}

// Checks a case's input against the model's input tensor; on mismatch writes
// the reason to `error` and returns false.
inline bool InputMatches(int case_index, int input_index, TfLiteType type, size_t bytes,
                         const TfLiteTensor* input, char* error, int error_size) {
  if (input == nullptr || input->data.raw == nullptr || input->dims == nullptr) {
    MicroSnprintf(error, static_cast<size_t>(error_size), "case %d: model input %d has no buffer", case_index,
                  input_index);
    return false;
  }
  if (type == input->type && bytes == input->bytes) return true;
  char shape[96];
  FormatShape(shape, sizeof(shape), input->dims);
  MicroSnprintf(error, static_cast<size_t>(error_size),
                "case %d input %d is %s with %u bytes but the model wants %s shape=%s (%u bytes)", case_index,
                input_index, TypeName(type), static_cast<unsigned>(bytes), TypeName(input->type), shape,
                static_cast<unsigned>(input->bytes));
  return false;
}

}  // namespace model_runner

#endif  // MICRO_RUNTIME_MODEL_RUNNER_RUNNER_OUTPUT_H_
