// libFuzzer target: any byte string as a model through load, verification,
// AllocateTensors and Invoke with every kernel registered (fuzz_run.cc).
// Bad models must be rejected with an error status; nothing may crash, leak,
// read out of bounds, hang or hit undefined behaviour (run_fuzz.sh builds it
// with -fsanitize=fuzzer,address,undefined).
#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/fuzz/fuzz_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const FuzzOutcome outcome = FuzzRunModel(data, size);
  // Larger inputs cannot be models for a microcontroller; keep them out of
  // the corpus.
  return outcome.too_large ? -1 : 0;
}
