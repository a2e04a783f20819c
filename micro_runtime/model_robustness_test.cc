// Hostile bytes: thousands of truncated and bit-flipped copies of the test
// models go through verification, AllocateTensors() and (when that
// succeeds) Invoke(). Every variant must end in a clean kTfLiteOk or
// kTfLiteError; whatever is accepted must keep every tensor inside the
// model copy or the arena. Run under valgrind or ASan (the fuzz build) to
// also catch out-of-bounds reads.
#include <string.h>

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/models/chain_model_data.h"
#include "micro_runtime/models/fc_external_model_data.h"
#include "micro_runtime/models/fc_model_data.h"
#include "micro_runtime/models/hello_float_ref_model_data.h"
#include "micro_runtime/models/per_channel_model_data.h"
#include "micro_runtime/models/scratch_model_data.h"
#include "micro_runtime/testing/test_ops.h"

namespace {

using Op = tflite::BuiltinOperator;

constexpr size_t kArenaSize = 4096;
constexpr size_t kCopySize = 3328;
alignas(16) uint8_t g_arena[kArenaSize];
alignas(16) uint8_t g_copy[kCopySize];

class TestResolver : public MicroMutableOpResolver<5> {
 public:
  TestResolver() {
    AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_FULLY_CONNECTED_FLOAT(), 1, 4);
    AddBuiltin(Op::RESHAPE, test_ops::Register_COPY());
    AddCustom("AddOne", test_ops::Register_ADD_ONE());
    AddCustom("Scratch", test_ops::Register_SCRATCH());
  }
};

struct Tally {
  int variants;
  int allocated;
  int invoked;
  int bad_pointers;
};

bool Inside(const void* p, size_t bytes, const void* start, size_t size) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  const uint8_t* s = static_cast<const uint8_t*>(start);
  return b >= s && b + bytes <= s + size;
}

// Runs one variant held in g_copy[0, size).
void RunVariant(const MicroOpResolver& resolver, size_t size, Tally* tally) {
  ++tally->variants;
  MicroInterpreter interpreter(g_copy, size, resolver, g_arena, kArenaSize);
  if (interpreter.AllocateTensors() != kTfLiteOk) {
    if (interpreter.Invoke() == kTfLiteOk) ++tally->bad_pointers;  // must refuse
    return;
  }
  ++tally->allocated;
  if (interpreter.arena_used_bytes() > kArenaSize) ++tally->bad_pointers;
  for (size_t i = 0; i < interpreter.tensors_size(); ++i) {
    const TfLiteTensor* t = interpreter.tensor(i);
    if (t->data.raw_const == nullptr) continue;
    const bool ok = t->is_constant ? Inside(t->data.raw_const, t->bytes, g_copy, size)
                                   : Inside(t->data.raw_const, t->bytes, g_arena, kArenaSize);
    if (!ok) ++tally->bad_pointers;
  }
  if (interpreter.Invoke() == kTfLiteOk) ++tally->invoked;
}

uint32_t Next(uint32_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

// Every prefix (in `step`s) of the model, then `flips` random corruptions:
// bit flips, random bytes and copied 4-byte words (offsets that stay
// plausible are the dangerous ones).
Tally Mutate(const MicroOpResolver& resolver, const uint8_t* model, size_t size, size_t step, int flips,
             uint32_t seed) {
  Tally tally = {0, 0, 0, 0};
  if (size > kCopySize) {
    tally.bad_pointers = 1;
    return tally;
  }
  for (size_t cut = 0; cut < size; cut += step) {
    memcpy(g_copy, model, cut);
    RunVariant(resolver, cut, &tally);
  }
  uint32_t state = seed;
  for (int i = 0; i < flips; ++i) {
    memcpy(g_copy, model, size);
    const int edits = 1 + static_cast<int>(Next(&state) % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = Next(&state) % size;
      switch (Next(&state) % 3) {
        case 0:
          g_copy[at] ^= static_cast<uint8_t>(1u << (Next(&state) % 8));
          break;
        case 1:
          g_copy[at] = static_cast<uint8_t>(Next(&state));
          break;
        default: {
          const size_t from = (Next(&state) % (size / 4)) * 4;
          memcpy(g_copy + (at & ~static_cast<size_t>(3)) % (size - 3), model + from, 4);
          break;
        }
      }
    }
    RunVariant(resolver, size, &tally);
  }
  MicroPrintf("  %d variants: %d allocated, %d invoked", tally.variants, tally.allocated, tally.invoked);
  return tally;
}

void Check(const Tally& tally) {
  TF_LITE_MICRO_EXPECT_EQ(0, tally.bad_pointers);
  // Both outcomes happen, so the test exercises the accept and reject paths.
  TF_LITE_MICRO_EXPECT_GT(tally.allocated, 0);
  TF_LITE_MICRO_EXPECT_LT(tally.allocated, tally.variants);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

// Each variant logs why it was rejected, so the counts stay moderate for
// slow log transports (semihosting).
TestResolver resolver;

TF_LITE_MICRO_TEST(FullyConnected) { Check(Mutate(resolver, g_fc_model_data, g_fc_model_data_size, 4, 250, 1)); }

TF_LITE_MICRO_TEST(ChainWithReshape) {
  Check(Mutate(resolver, g_chain_model_data, g_chain_model_data_size, 4, 250, 2));
}

TF_LITE_MICRO_TEST(ScratchBuffers) {
  Check(Mutate(resolver, g_scratch_model_data, g_scratch_model_data_size, 4, 200, 3));
}

TF_LITE_MICRO_TEST(ExternalBuffers) {
  Check(Mutate(resolver, g_fc_external_model_data, g_fc_external_model_data_size, 4, 200, 4));
}

TF_LITE_MICRO_TEST(PerChannel) {
  MicroMutableOpResolver<1> nop_resolver;  // int8: only allocation matters here
  nop_resolver.AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_NOP(), 1, 4);
  Check(Mutate(nop_resolver, g_per_channel_model_data, g_per_channel_model_data_size, 4, 200, 5));
}

TF_LITE_MICRO_TEST(HelloWorldFloat) {
  Check(Mutate(resolver, g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, 13, 250, 6));
}

TF_LITE_MICRO_TESTS_END
