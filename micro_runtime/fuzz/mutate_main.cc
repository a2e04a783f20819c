// Mutation driver for the robustness tests (robustness_test.py): runs every
// truncation of a model, or N randomly corrupted copies, through
// FuzzRunModel() in one process built with ASan + UBSan. Sanitizer reports
// abort the process; besides that, every rejected variant must have logged
// an explanation. Host tool: stdio and malloc are fine here.
//
//   model_mutator MODEL truncate          every prefix length 0..size-1
//   model_mutator MODEL flip N [SEED]     N copies with 1-4 bit flips / byte
//                                         overwrites / copied words each
//   model_mutator MODEL write-probe       self-test: writes into the model copy
//                                         FuzzRunModel runs, which must crash
//                                         (read-only like flash)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/common_interface_defs.h>

#include "micro_runtime/fuzz/fuzz_run.h"

namespace {

// The variant being run, written out by the sanitizers' death callback so a
// finding can be replayed (model_fuzzer FILE) and kept in regressions/.
const uint8_t* g_variant = nullptr;
size_t g_variant_size = 0;

void SaveVariant() {
  const char* path = getenv("MUTATOR_CRASH_FILE");
  if (path == nullptr) path = "model_mutator_crash.tflite";
  FILE* f = fopen(path, "wb");
  if (f == nullptr) return;
  fwrite(g_variant, 1, g_variant_size, f);
  fclose(f);
  fprintf(stderr, "model_mutator: the failing variant is saved in %s\n", path);
}

struct Tally {
  unsigned long variants = 0;
  unsigned long allocated = 0;
  unsigned long invoked = 0;
  unsigned long silent = 0;  // failed without a log message
};

void Record(const uint8_t* data, size_t size, Tally* tally) {
  g_variant = data;
  g_variant_size = size;
  const FuzzOutcome o = FuzzRunModel(data, size);
  ++tally->variants;
  if (o.allocated) ++tally->allocated;
  if (o.invoked) ++tally->invoked;
  if ((!o.allocated || !o.invoked) && o.log_bytes == 0) {
    ++tally->silent;
    if (tally->silent <= 5) fprintf(stderr, "variant %lu (%zu bytes) failed without a message\n", tally->variants, size);
  }
}

uint32_t Next(uint32_t* state) {  // xorshift32: reproducible across platforms
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

bool ReadFile(const char* path, uint8_t** data, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return false;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *data = static_cast<uint8_t*>(malloc(n > 0 ? static_cast<size_t>(n) : 1));
  *size = n > 0 ? static_cast<size_t>(n) : 0;
  const bool ok = n >= 0 && fread(*data, 1, *size, f) == *size;
  fclose(f);
  return ok;
}

}  // namespace

// A model that makes the runtime write into itself (e.g. a constant graph
// input) must be found as a crash: the copy is read-only, like flash.
int WriteProbe(const uint8_t* model, size_t size) {
  volatile uint8_t* copy = const_cast<uint8_t*>(FuzzLoadModel(model, size));
  copy[size / 2] = static_cast<uint8_t>(copy[size / 2] ^ 0xff);
  fprintf(stderr, "model_mutator: wrote into the fuzz model copy: it is writable, so writes into the model go "
          "unnoticed\n");
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 3 ||
      (strcmp(argv[2], "truncate") != 0 && strcmp(argv[2], "flip") != 0 && strcmp(argv[2], "write-probe") != 0) ||
      (strcmp(argv[2], "flip") == 0 && argc < 4)) {
    fprintf(stderr, "usage: %s MODEL truncate | %s MODEL flip N [SEED] | %s MODEL write-probe\n", argv[0], argv[0],
            argv[0]);
    return 2;
  }
  uint8_t* model = nullptr;
  size_t size = 0;
  if (!ReadFile(argv[1], &model, &size) || size < 8) {
    fprintf(stderr, "error: cannot read a model from %s\n", argv[1]);
    free(model);
    return 2;
  }
  if (strcmp(argv[2], "write-probe") == 0) {
    const int status = WriteProbe(model, size);
    free(model);
    return status;
  }
  // The unmodified model must load and run, or the variants prove little.
  const FuzzOutcome original = FuzzRunModel(model, size);
  if (!original.allocated || !original.invoked) {
    fprintf(stderr, "error: %s itself does not run with the all-ops resolver (allocated=%d invoked=%d)\n", argv[1],
            original.allocated, original.invoked);
    free(model);
    return 1;
  }
  __sanitizer_set_death_callback(SaveVariant);
  Tally tally;
  uint8_t* copy = static_cast<uint8_t*>(malloc(size));
  if (strcmp(argv[2], "truncate") == 0) {
    for (size_t cut = 0; cut < size; ++cut) Record(model, cut, &tally);
  } else {
    const long count = strtol(argv[3], nullptr, 10);
    uint32_t state = argc > 4 ? static_cast<uint32_t>(strtoul(argv[4], nullptr, 10)) | 1u : 1u;
    for (long i = 0; i < count; ++i) {
      memcpy(copy, model, size);
      const int edits = 1 + static_cast<int>(Next(&state) % 4);
      for (int e = 0; e < edits; ++e) {
        const size_t at = Next(&state) % size;
        switch (Next(&state) % 3) {
          case 0:
            copy[at] ^= static_cast<uint8_t>(1u << (Next(&state) % 8));
            break;
          case 1:
            copy[at] = static_cast<uint8_t>(Next(&state));
            break;
          default: {  // a plausible offset/size from elsewhere in the model
            const size_t from = (Next(&state) % (size / 4)) * 4;
            memcpy(copy + ((at & ~size_t{3}) % (size - 3)), model + from, 4);
            break;
          }
        }
      }
      Record(copy, size, &tally);
    }
  }
  printf("variants=%lu allocated=%lu invoked=%lu silent_failures=%lu\n", tally.variants, tally.allocated,
         tally.invoked, tally.silent);
  free(copy);
  free(model);
  return tally.silent == 0 ? 0 : 1;
}
