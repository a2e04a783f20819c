// Host-only model runner that reads the model and the input tensors from
// files at run time, so differential tests and benchmarks can run many models
// without a rebuild. Prints the same lines as model_runner.cc
// (docs/model_runner.md).
//
//   host_file_runner [--arena BYTES] MODEL.tflite CASE [CASE ...]
//
// Each CASE is a comma-separated list of raw little-endian tensor files, one
// per model input in model order. A fresh interpreter is set up once; the
// cases run one Invoke() each, so callgrind's --toggle-collect on Invoke
// counts exactly one Invoke per case.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/model_runner/runner_output.h"
#include "micro_runtime/platform.h"

namespace {

[[noreturn]] void Fail(const char* message, const char* detail = "") {
  MicroPrintf("model_runner: error: %s%s", message, detail);
  MicroExit(1);
}

// Reads a whole file into a 16-byte aligned buffer (the runtime reads model
// buffers in place). Host tool: the heap is fine here.
unsigned char* ReadFile(const char* path, size_t* size) {
  struct stat info;
  if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) Fail("not a readable file: ", path);
  FILE* file = fopen(path, "rb");
  if (file == nullptr) Fail("cannot open ", path);
  const size_t length = static_cast<size_t>(info.st_size);
  // At least 16 bytes and a multiple of 16: aligned_alloc's contract.
  unsigned char* data = static_cast<unsigned char*>(aligned_alloc(16, (length + 16) & ~static_cast<size_t>(15)));
  if (data == nullptr || fread(data, 1, length, file) != length) Fail("cannot read ", path);
  fclose(file);
  *size = length;
  return data;
}

}  // namespace

int main(int argc, char** argv) {
  MicroPlatformInit();
  size_t arena_size = 4u << 20;
  int arg = 1;
  if (arg + 1 < argc && strcmp(argv[arg], "--arena") == 0) {
    arena_size = static_cast<size_t>(strtoul(argv[arg + 1], nullptr, 0));
    arg += 2;
  }
  if (arg >= argc) Fail("usage: host_file_runner [--arena BYTES] MODEL.tflite CASE...  (CASE = in0.bin[,in1.bin])");
  size_t model_size = 0;
  const unsigned char* model = ReadFile(argv[arg++], &model_size);
  unsigned char* arena = static_cast<unsigned char*>(aligned_alloc(16, (arena_size + 15) & ~static_cast<size_t>(15)));
  if (arena == nullptr) Fail("out of memory for the arena");
  MicroPrintf("model_runner: model_bytes=%u arena_bytes=%u cases=%d", static_cast<unsigned>(model_size),
              static_cast<unsigned>(arena_size), argc - arg);

  AllOpsResolver resolver;
  MicroInterpreter interpreter(model, model_size, resolver, arena, arena_size);
  if (interpreter.AllocateTensors() != kTfLiteOk) Fail("AllocateTensors failed");

  char text[200];
  for (int c = 0; arg < argc; ++arg, ++c) {
    char files[1024];
    snprintf(files, sizeof(files), "%s", argv[arg]);
    size_t input_index = 0;
    for (char* path = strtok(files, ","); path != nullptr; path = strtok(nullptr, ","), ++input_index) {
      if (input_index >= interpreter.inputs_size()) {
        snprintf(text, sizeof(text), "case %d gives more inputs than the model's %d", c,
                 static_cast<int>(interpreter.inputs_size()));
        Fail(text);
      }
      size_t bytes = 0;
      unsigned char* data = ReadFile(path, &bytes);
      TfLiteTensor* input = interpreter.input(static_cast<int>(input_index));
      if (input == nullptr || input->data.raw == nullptr) {
        snprintf(text, sizeof(text), "case %d: model input %d has no buffer", c, static_cast<int>(input_index));
        Fail(text);
      }
      if (bytes != input->bytes) {
        snprintf(text, sizeof(text), "case %d input %d: %s has %u bytes but the model input needs %u", c,
                 static_cast<int>(input_index), path, static_cast<unsigned>(bytes),
                 static_cast<unsigned>(input->bytes));
        Fail(text);
      }
      memcpy(input->data.raw, data, bytes);
      free(data);
    }
    if (input_index != interpreter.inputs_size()) {
      snprintf(text, sizeof(text), "case %d gives %d inputs but the model has %d", c, static_cast<int>(input_index),
               static_cast<int>(interpreter.inputs_size()));
      Fail(text);
    }
    // Each case is one independent run: state from the previous case (SVDF,
    // LSTM) is reset first.
    if (interpreter.ResetVariableTensors() != kTfLiteOk) Fail("ResetVariableTensors failed");
    const uint32_t start = MicroTicks();
    const TfLiteStatus status = interpreter.Invoke();
    const uint32_t ticks = MicroTicks() - start;
    if (status != kTfLiteOk) {
      snprintf(text, sizeof(text), "Invoke failed on case %d", c);
      Fail(text);
    }
    for (size_t o = 0; o < interpreter.outputs_size(); ++o) {
      model_runner::LogOutput(c, static_cast<int>(o), interpreter.output(static_cast<int>(o)));
    }
    model_runner::LogInvokeTime(c, ticks);
  }
  MicroPrintf("arena_used_bytes=%u", static_cast<unsigned>(interpreter.arena_used_bytes()));
  MicroPrintf("arena_persistent_bytes=%u arena_activation_bytes=%u",
              static_cast<unsigned>(interpreter.arena_persistent_bytes()),
              static_cast<unsigned>(interpreter.arena_activation_bytes()));
  MicroPrintf("~~~MODEL RUNNER DONE~~~");
  MicroExit(0);
}
