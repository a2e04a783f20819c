// One fuzz iteration, shared by the libFuzzer target (model_fuzzer.cc) and
// the mutation driver (mutate_main.cc): `data` is a .tflite model; it goes
// through verification, AllocateTensors() (every kernel registered) and, when
// accepted, Invoke() with input tensors filled from the last bytes of `data`.
// Bytes appended after the flatbuffer change only the inputs, so the fuzzer
// can mutate the model and its input data independently.
#ifndef MICRO_RUNTIME_FUZZ_FUZZ_RUN_H_
#define MICRO_RUNTIME_FUZZ_FUZZ_RUN_H_

#include <stddef.h>
#include <stdint.h>

struct FuzzOutcome {
  bool too_large;     // over kFuzzMaxModelBytes: not run
  bool allocated;     // AllocateTensors() succeeded
  bool invoked;       // Invoke() returned kTfLiteOk
  size_t log_bytes;   // bytes the runtime logged during this run
};

constexpr size_t kFuzzMaxModelBytes = 256 * 1024;
// A microcontroller-sized arena. It also bounds the work of one Invoke():
// windowed ops cost up to (tensor elements)^2 (e.g. a pool window as tall as
// its input), legitimately, and with 32 KB that stays well under the
// fuzzer's 10 s hang limit while every reference model still fits.
constexpr size_t kFuzzArenaBytes = 32 * 1024;

FuzzOutcome FuzzRunModel(const uint8_t* data, size_t size);

// Copies `data` (at most kFuzzMaxModelBytes) into the model buffer the way
// FuzzRunModel does and returns the copy: 16-byte aligned, the bytes after it
// ASan-poisoned, and read-only like flash, so a write into the model faults.
const uint8_t* FuzzLoadModel(const uint8_t* data, size_t size);

// Total bytes passed to DebugLog so far (fuzz_platform.cc discards the text).
size_t FuzzLogBytes();

#endif  // MICRO_RUNTIME_FUZZ_FUZZ_RUN_H_
