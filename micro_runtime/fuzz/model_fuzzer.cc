// libFuzzer target: any byte string as a model through load, verification,
// AllocateTensors and Invoke with every kernel registered. Bad models must be
// rejected with an error status; nothing may crash, read out of bounds or
// hit undefined behaviour (built with -fsanitize=fuzzer,address,undefined by
// run_fuzz.sh).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_interpreter.h"

namespace {

constexpr size_t kMaxModelBytes = 256 * 1024;
constexpr size_t kArenaBytes = 256 * 1024;
alignas(16) uint8_t g_model[kMaxModelBytes];
alignas(16) uint8_t g_arena[kArenaBytes];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxModelBytes) return 0;
  // Models live in aligned flash in firmware; give the fuzzer's bytes the same
  // alignment, and exactly `size` bytes so ASan sees reads past the end.
  memcpy(g_model, data, size);
  static AllOpsResolver resolver;
  MicroInterpreter interpreter(g_model, size, resolver, g_arena, kArenaBytes);
  if (interpreter.AllocateTensors() != kTfLiteOk) return 0;
  // Deterministic input bytes derived from the model, so crashes reproduce.
  for (size_t i = 0; i < interpreter.inputs_size(); ++i) {
    TfLiteTensor* input = interpreter.input(static_cast<int>(i));
    if (input == nullptr || input->data.raw == nullptr) continue;
    uint8_t* bytes = input->data.uint8;
    for (size_t b = 0; b < input->bytes; ++b) bytes[b] = data[(b * 31 + i) % size];
  }
  interpreter.Invoke();
  return 0;
}
