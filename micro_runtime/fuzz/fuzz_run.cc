#include "micro_runtime/fuzz/fuzz_run.h"

#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define FUZZ_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define FUZZ_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#endif
#endif
#ifndef FUZZ_POISON
#define FUZZ_POISON(p, n) ((void)(p), (void)(n))
#define FUZZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_interpreter.h"

namespace {

alignas(16) uint8_t g_model[kFuzzMaxModelBytes];
alignas(16) uint8_t g_arena[kFuzzArenaBytes];

// Input bytes come from the end of the data, cycling when the inputs need
// more bytes than there are; deterministic so every finding reproduces.
void FillInputs(MicroInterpreter* interpreter, const uint8_t* data, size_t size) {
  size_t total = 0;
  for (size_t i = 0; i < interpreter->inputs_size(); ++i) {
    const TfLiteTensor* input = interpreter->input(i);
    if (input != nullptr) total += input->bytes;
  }
  size_t at = size > total ? size - total : 0;
  for (size_t i = 0; i < interpreter->inputs_size(); ++i) {
    TfLiteTensor* input = interpreter->input(i);
    if (input == nullptr || input->data.raw == nullptr) continue;
    for (size_t b = 0; b < input->bytes; ++b) {
      input->data.uint8[b] = data[at];
      at = at + 1 < size ? at + 1 : 0;
    }
  }
}

}  // namespace

FuzzOutcome FuzzRunModel(const uint8_t* data, size_t size) {
  FuzzOutcome outcome = {false, false, false, 0};
  if (size > kFuzzMaxModelBytes) {
    outcome.too_large = true;
    return outcome;
  }
  const size_t log_start = FuzzLogBytes();
  // Firmware keeps models in aligned flash: give the bytes the same
  // alignment, and exactly `size` of them so ASan flags reads past the end
  // (the rest of g_model is poisoned below).
  FUZZ_UNPOISON(g_model, sizeof(g_model));
  memcpy(g_model, data, size);
  FUZZ_POISON(g_model + size, sizeof(g_model) - size);
  static AllOpsResolver resolver;
  {
    MicroInterpreter interpreter(g_model, size, resolver, g_arena, kFuzzArenaBytes);
    if (interpreter.AllocateTensors() == kTfLiteOk) {
      outcome.allocated = true;
      if (size > 0) FillInputs(&interpreter, data, size);
      outcome.invoked = interpreter.Invoke() == kTfLiteOk;
    }
  }
  outcome.log_bytes = FuzzLogBytes() - log_start;
  return outcome;
}
