#include "micro_runtime/fuzz/fuzz_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

alignas(16) uint8_t g_arena[kFuzzArenaBytes];

// The model buffer: its own pages (page-aligned, so 16-byte aligned), writable
// only while a model is copied in. Boards run models from flash, where a write
// faults; a writable copy would hide such writes from the fuzzer.
size_t ModelPagesBytes() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (kFuzzMaxModelBytes + page - 1) / page * page;
}

uint8_t* ModelPages() {
  static uint8_t* pages = [] {
    void* p = mmap(nullptr, ModelPagesBytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("fuzz_run: mmap of the model buffer");
      abort();
    }
    return static_cast<uint8_t*>(p);
  }();
  return pages;
}

void SetModelWritable(uint8_t* model, bool writable) {
  if (mprotect(model, ModelPagesBytes(), writable ? PROT_READ | PROT_WRITE : PROT_READ) != 0) {
    perror("fuzz_run: mprotect of the model buffer");
    abort();
  }
}

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

const uint8_t* FuzzLoadModel(const uint8_t* data, size_t size) {
  // Firmware keeps models in aligned, read-only flash: give the bytes the same
  // alignment and protection, and exactly `size` of them so ASan flags reads
  // past the end (the rest of the buffer is poisoned; poisoning writes ASan's
  // shadow memory, not the read-only pages).
  uint8_t* model = ModelPages();
  if (size > kFuzzMaxModelBytes) size = kFuzzMaxModelBytes;
  SetModelWritable(model, true);
  FUZZ_UNPOISON(model, kFuzzMaxModelBytes);
  memcpy(model, data, size);
  FUZZ_POISON(model + size, kFuzzMaxModelBytes - size);
  SetModelWritable(model, false);
  return model;
}

FuzzOutcome FuzzRunModel(const uint8_t* data, size_t size) {
  FuzzOutcome outcome = {false, false, false, 0};
  if (size > kFuzzMaxModelBytes) {
    outcome.too_large = true;
    return outcome;
  }
  const size_t log_start = FuzzLogBytes();
  const uint8_t* model = FuzzLoadModel(data, size);
  static AllOpsResolver resolver;
  {
    MicroInterpreter interpreter(model, size, resolver, g_arena, kFuzzArenaBytes);
    if (interpreter.AllocateTensors() == kTfLiteOk) {
      outcome.allocated = true;
      if (size > 0) FillInputs(&interpreter, data, size);
      outcome.invoked = interpreter.Invoke() == kTfLiteOk;
    }
  }
  outcome.log_bytes = FuzzLogBytes() - log_start;
  return outcome;
}
