// The arena planner: buffer reuse by lifetime, alignment, RESHAPE aliasing,
// in-place execution of elementwise ops (and where it must not happen),
// the planner's orders, persistent allocations, the exact arena_used_bytes
// (N works, N - 1 does not) and the total a too-small arena is told
// (core_messages_test.py checks the logged lines).
#include "micro_runtime/micro_allocator.h"

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/models/chain_model_data.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/models/hello_float_ref_model_data.h"
#include "micro_runtime/models/in_place_model_data.h"
#include "micro_runtime/models/scratch_model_data.h"
#include "micro_runtime/models/variable_model_data.h"
#include "micro_runtime/testing/test_ops.h"

namespace {

using micro_runtime::PlanBuffers;
using micro_runtime::PlanBuffersInOrder;
using micro_runtime::PlanItem;
using micro_runtime::PlanOrder;
using Op = tflite::BuiltinOperator;

constexpr size_t kArenaSize = 4096;
alignas(16) uint8_t g_arena[kArenaSize + 16];

class TestResolver : public MicroMutableOpResolver<5> {
 public:
  TestResolver() {
    AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_FULLY_CONNECTED_FLOAT());
    AddBuiltin(Op::RESHAPE, test_ops::Register_COPY());
    AddCustom("AddOne", test_ops::Register_ADD_ONE());
    AddCustom("Scratch", test_ops::Register_SCRATCH());
  }
};

// The in_place model's ops: real RELU, ADD and QUANTIZE kernels.
class InPlaceResolver : public MicroMutableOpResolver<4> {
 public:
  InPlaceResolver() {
    AddCustom("AddOne", test_ops::Register_ADD_ONE());
    AddBuiltin(Op::RELU, micro_runtime::Register_RELU());
    AddBuiltin(Op::ADD, micro_runtime::Register_ADD());
    AddBuiltin(Op::QUANTIZE, micro_runtime::Register_QUANTIZE());
  }
};

bool Overlap(const PlanItem& a, const PlanItem& b) {
  const bool time = !(a.last < b.first || b.last < a.first);
  const bool space = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
  return time && space;
}

// Finds the arena size the interpreter reports as needed and checks that
// exactly that size works and one byte less fails.
void CheckExactRequirement(const uint8_t* model, size_t model_size, uint8_t* arena) {
  TestResolver resolver;
  size_t needed = 0;
  {
    MicroInterpreter interpreter(model, model_size, resolver, arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    needed = interpreter.arena_used_bytes();
  }
  TF_LITE_MICRO_EXPECT_GT(needed, 0u);
  {
    MicroInterpreter exact(model, model_size, resolver, arena, needed);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(needed, exact.arena_used_bytes());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.Invoke());
  }
  {
    MicroInterpreter short_by_one(model, model_size, resolver, arena, needed - 1);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, short_by_one.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, short_by_one.Invoke());
  }
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(DisjointLifetimesShareMemory) {
  PlanItem items[3] = {{100, 0, 0, 0}, {100, 0, 1, 1}, {100, 0, 2, 2}};
  uint16_t order[3];
  uint16_t by_offset[3];
  TF_LITE_MICRO_EXPECT_EQ(100u, PlanBuffers(items, 3, order, by_offset));
  for (const PlanItem& item : items) TF_LITE_MICRO_EXPECT_EQ(0u, item.offset);
}

TF_LITE_MICRO_TEST(OverlappingLifetimesGetDisjointAlignedMemory) {
  PlanItem items[4] = {{10, 0, 0, 1}, {33, 0, 1, 2}, {7, 0, 2, 3}, {64, 0, 0, 3}};
  uint16_t order[4];
  uint16_t by_offset[4];
  const size_t head = PlanBuffersInOrder(items, 4, order, by_offset, PlanOrder::kLargestFirst);
  // Largest first: the 64-byte buffer at 0, the 33-byte one after it at 64,
  // then 10 (overlaps both) at 112 and 7 (overlaps 64 and 33) at 112 too,
  // since the 10-byte buffer is dead by op 2.
  TF_LITE_MICRO_EXPECT_EQ(0u, items[3].offset);
  TF_LITE_MICRO_EXPECT_EQ(64u, items[1].offset);
  TF_LITE_MICRO_EXPECT_EQ(112u, items[0].offset);
  TF_LITE_MICRO_EXPECT_EQ(112u, items[2].offset);
  TF_LITE_MICRO_EXPECT_EQ(122u, head);
  for (int i = 0; i < 4; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(0u, items[i].offset % 16);
    for (int j = 0; j < 4; ++j) {
      if (i != j) TF_LITE_MICRO_EXPECT(!Overlap(items[i], items[j]));
    }
  }
}

TF_LITE_MICRO_TEST(BestOfThePlanOrdersWins) {
  // The same items: earliest first puts the 10-byte buffer at 64 and the
  // 33-byte one after it, where the 7-byte one reuses the 10's place: 113.
  PlanItem items[4] = {{10, 0, 0, 1}, {33, 0, 1, 2}, {7, 0, 2, 3}, {64, 0, 0, 3}};
  uint16_t order[4];
  uint16_t by_offset[4];
  TF_LITE_MICRO_EXPECT_EQ(113u, PlanBuffers(items, 4, order, by_offset));
  TF_LITE_MICRO_EXPECT_EQ(0u, items[3].offset);
  TF_LITE_MICRO_EXPECT_EQ(64u, items[0].offset);
  TF_LITE_MICRO_EXPECT_EQ(80u, items[1].offset);
  TF_LITE_MICRO_EXPECT_EQ(64u, items[2].offset);
}

TF_LITE_MICRO_TEST(LargestFirstIsBeatenOnAMobileNetStem) {
  // VWW's first five activations (bytes, ops): largest first stacks the
  // 18432-byte buffers of ops 0-1 and 1-2 above the input and the 36864-byte
  // one: 64512 bytes. Largest size x lifetime first reaches the peak of
  // live bytes (op 2: 18432 + 36864), as TFLM's greedy planner does not.
  PlanItem items[5] = {{27648, 0, 0, 0}, {18432, 0, 0, 1}, {18432, 0, 1, 2}, {36864, 0, 2, 3}, {9216, 0, 3, 4}};
  uint16_t order[5];
  uint16_t by_offset[5];
  TF_LITE_MICRO_EXPECT_EQ(64512u, PlanBuffersInOrder(items, 5, order, by_offset, PlanOrder::kLargestFirst));
  TF_LITE_MICRO_EXPECT_EQ(55296u, PlanBuffersInOrder(items, 5, order, by_offset, PlanOrder::kLargestAreaFirst));
  TF_LITE_MICRO_EXPECT_EQ(55296u, PlanBuffers(items, 5, order, by_offset));
  for (int i = 0; i < 5; ++i) {
    TF_LITE_MICRO_EXPECT(items[i].offset + items[i].size <= 55296u);
    for (int j = 0; j < 5; ++j) {
      if (i != j) TF_LITE_MICRO_EXPECT(!Overlap(items[i], items[j]));
    }
  }
}

TF_LITE_MICRO_TEST(FirstFitFillsGaps) {
  // 0-1: A(48) at 0; B(32, ops 1-2) at 48; C(16, ops 2-3) fits below B in A's old place.
  PlanItem items[3] = {{48, 0, 0, 1}, {32, 0, 1, 2}, {16, 0, 2, 3}};
  uint16_t order[3];
  uint16_t by_offset[3];
  TF_LITE_MICRO_EXPECT_EQ(80u, PlanBuffers(items, 3, order, by_offset));
  TF_LITE_MICRO_EXPECT_EQ(0u, items[0].offset);
  TF_LITE_MICRO_EXPECT_EQ(48u, items[1].offset);
  TF_LITE_MICRO_EXPECT_EQ(0u, items[2].offset);
}

TF_LITE_MICRO_TEST(UnusedAndEmptyItemsAreNotPlaced) {
  PlanItem items[3] = {{0, 0, 0, 0}, {8, 0, 0x7fff, -1}, {8, 0, 0, 0}};
  uint16_t order[3];
  uint16_t by_offset[3];
  TF_LITE_MICRO_EXPECT_EQ(8u, PlanBuffers(items, 3, order, by_offset));
}

TF_LITE_MICRO_TEST(ManyItemsNeverCollide) {
  // A deterministic pseudo-random set: every pair that lives at the same
  // time must get disjoint memory.
  constexpr int kCount = 40;
  PlanItem items[kCount];
  uint16_t order[kCount];
  uint16_t by_offset[kCount];
  uint32_t state = 12345;
  for (int i = 0; i < kCount; ++i) {
    state = state * 1103515245u + 12345u;
    const int first = static_cast<int>((state >> 8) % 20);
    state = state * 1103515245u + 12345u;
    const int length = static_cast<int>((state >> 8) % 6);
    state = state * 1103515245u + 12345u;
    items[i] = {1 + (state >> 8) % 300, 0, static_cast<int16_t>(first), static_cast<int16_t>(first + length)};
  }
  const size_t head = PlanBuffers(items, kCount, order, by_offset);
  bool ok = true;
  for (int i = 0; i < kCount; ++i) {
    ok = ok && items[i].offset % 16 == 0 && items[i].offset + items[i].size <= head;
    for (int j = i + 1; j < kCount; ++j) ok = ok && !Overlap(items[i], items[j]);
  }
  TF_LITE_MICRO_EXPECT(ok);
}

TF_LITE_MICRO_TEST(PersistentAllocationsComeFromTheTail) {
  micro_runtime::MicroAllocator allocator;
  allocator.Init(g_arena, 256);
  uint8_t* a = static_cast<uint8_t*>(allocator.AllocatePersistent(10));
  uint8_t* c = static_cast<uint8_t*>(allocator.AllocatePersistent(16));
  uint8_t* b = static_cast<uint8_t*>(allocator.AllocatePersistent(3));
  TF_LITE_MICRO_EXPECT(a != nullptr && b != nullptr && c != nullptr);
  TF_LITE_MICRO_EXPECT_EQ(g_arena + 256 - 12, a);  // 10 rounded up to 4-byte units, 4-aligned
  TF_LITE_MICRO_EXPECT_EQ(g_arena + 256 - 32, c);  // a multiple of 8: 8-aligned (4 bytes of padding)
  TF_LITE_MICRO_EXPECT_EQ(c - 4, b);
  TF_LITE_MICRO_EXPECT_EQ(36u, allocator.persistent_bytes());
  TF_LITE_MICRO_EXPECT_EQ(40u, allocator.used_bytes());  // the smallest arena ends at a multiple of 8
  TF_LITE_MICRO_EXPECT(allocator.AllocatePersistent(220) != nullptr);  // exactly the rest
  TF_LITE_MICRO_EXPECT(!allocator.out_of_memory());
  TF_LITE_MICRO_EXPECT(allocator.AllocatePersistent(1) == nullptr);
  TF_LITE_MICRO_EXPECT(allocator.out_of_memory());
  allocator.Reset();
  TF_LITE_MICRO_EXPECT(!allocator.out_of_memory());
  TF_LITE_MICRO_EXPECT(allocator.AllocatePersistent(256) != nullptr);
}

TF_LITE_MICRO_TEST(UnalignedArenaStillAlignsEverything) {
  micro_runtime::MicroAllocator allocator;
  allocator.Init(g_arena + 3, 100);  // ends at 103: the tail starts at 96
  uint8_t* a = static_cast<uint8_t*>(allocator.AllocatePersistent(8));
  TF_LITE_MICRO_EXPECT_EQ(g_arena + 88, a);
  TF_LITE_MICRO_EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(a) % 8);
  // Usable space is [16, 88): 72 bytes.
  TF_LITE_MICRO_EXPECT(allocator.AllocatePersistent(72) != nullptr);
  TF_LITE_MICRO_EXPECT(allocator.AllocatePersistent(1) == nullptr);
}

TF_LITE_MICRO_TEST(ReshapeOutputSharesItsInputsBuffer) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  const TfLiteTensor* x = interpreter.tensor(0);
  const TfLiteTensor* a = interpreter.tensor(1);
  const TfLiteTensor* b = interpreter.tensor(2);
  const TfLiteTensor* c = interpreter.tensor(3);
  const TfLiteTensor* y = interpreter.tensor(4);
  TF_LITE_MICRO_EXPECT_EQ(b->data.raw, c->data.raw);
  // x (ops 0) and a (ops 0-1) live together; y (op 3) reuses a's memory.
  TF_LITE_MICRO_EXPECT(x->data.uint8 + 32 <= a->data.uint8 || a->data.uint8 + 64 <= x->data.uint8);
  TF_LITE_MICRO_EXPECT_EQ(a->data.raw, y->data.raw);
  // b/c live over ops 1-3: disjoint from a (ops 0-1) and y (op 3).
  TF_LITE_MICRO_EXPECT(b->data.uint8 >= a->data.uint8 + 64 || b->data.uint8 + 16 <= a->data.uint8);
  for (int i = 0; i < 5; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(interpreter.tensor(i)->data.raw) % 16);
  }
  float* in = interpreter.input(0)->data.f;
  for (int i = 0; i < 8; ++i) in[i] = static_cast<float>(-i);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  for (int i = 0; i < 8; ++i) {
    TF_LITE_MICRO_EXPECT_NEAR(static_cast<float>(-(i % 4)) + 3.0f, interpreter.output(0)->data.f[i], 1e-6f);
  }
}

// In-place execution (models/generate.py in_place): an elementwise op writes
// its output over an input that dies there with the same type and shape,
// and over nothing else. Tensors: x 0, s 1, r 2, a 3, b 4, c 5, d 6, e 7,
// q 8, q2 9, v 10, w 11.
TF_LITE_MICRO_TEST(ElementwiseOpsRunInPlaceOnlyWhereTheirInputDies) {
  InPlaceResolver resolver;
  for (size_t i = 0; i < sizeof(g_arena); ++i) g_arena[i] = 0xEE;
  MicroInterpreter interpreter(g_in_place_model_data, g_in_place_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  const uint8_t* at[12];
  bool placed = true;
  for (int t = 0; t < 12; ++t) {
    at[t] = interpreter.tensor(t)->data.uint8;
    placed = placed && at[t] != nullptr;
  }
  TF_LITE_MICRO_EXPECT(placed);
  if (!placed) continue;
  // Over its input: RELU over the graph input x, which dies there; ADD over
  // input 0 (a) and, broadcasting s, over input 1 (c); int8 QUANTIZE q -> q2.
  TF_LITE_MICRO_EXPECT_EQ(at[0], at[2]);
  TF_LITE_MICRO_EXPECT_EQ(at[3], at[5]);
  TF_LITE_MICRO_EXPECT_EQ(at[5], at[6]);
  TF_LITE_MICRO_EXPECT_EQ(at[8], at[9]);
  // Apart: RELU of a (read again by the next ADD), RELU of d (a graph
  // output), QUANTIZE float -> int8 (another type and size), RELU of the
  // variable v at the last op (its lifetime ends there too), s (smaller).
  TF_LITE_MICRO_EXPECT(at[4] != at[3]);
  TF_LITE_MICRO_EXPECT(at[7] != at[6]);
  TF_LITE_MICRO_EXPECT(at[8] != at[7]);
  TF_LITE_MICRO_EXPECT(at[11] != at[10]);
  TF_LITE_MICRO_EXPECT(at[1] != at[6]);
  // The variable overlaps nothing (it lives throughout).
  for (int t = 0; t < 12; ++t) {
    if (t != 10) TF_LITE_MICRO_EXPECT(at[t] + interpreter.tensor(t)->bytes <= at[10] || at[10] + 32 <= at[t]);
  }
  for (int i = 0; i < 8; ++i) interpreter.input(0)->data.f[i] = static_cast<float>(i - 4);
  interpreter.input(1)->data.f[0] = 1.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  const float d[8] = {3, 3, 3, 3, 3, 5, 7, 9};
  const int8_t q2[8] = {4, 4, 4, 4, 4, 6, 8, 10};
  for (int i = 0; i < 8; ++i) {
    TF_LITE_MICRO_EXPECT_EQ(d[i], interpreter.output(0)->data.f[i]);
    TF_LITE_MICRO_EXPECT_EQ(q2[i], interpreter.output(1)->data.int8[i]);
    TF_LITE_MICRO_EXPECT_EQ(0.0f, interpreter.output(2)->data.f[i]);
  }
}

TF_LITE_MICRO_TEST(ExactRequirementInPlace) {
  InPlaceResolver resolver;
  size_t needed = 0;
  {
    MicroInterpreter interpreter(g_in_place_model_data, g_in_place_model_data_size, resolver, g_arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    needed = interpreter.arena_used_bytes();
    // used = padding + activation + persistent
    const size_t parts = interpreter.arena_activation_bytes() + interpreter.arena_persistent_bytes();
    TF_LITE_MICRO_EXPECT_LE(parts, needed);
    TF_LITE_MICRO_EXPECT_LE(needed, parts + 24);
  }
  {
    MicroInterpreter exact(g_in_place_model_data, g_in_place_model_data_size, resolver, g_arena, needed);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.Invoke());
  }
  MicroInterpreter short_by_one(g_in_place_model_data, g_in_place_model_data_size, resolver, g_arena, needed - 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, short_by_one.AllocateTensors());
}

TF_LITE_MICRO_TEST(ExactRequirementChain) { CheckExactRequirement(g_chain_model_data, g_chain_model_data_size, g_arena); }

TF_LITE_MICRO_TEST(ExactRequirementWithScratch) {
  CheckExactRequirement(g_scratch_model_data, g_scratch_model_data_size, g_arena);
}

TF_LITE_MICRO_TEST(ExactRequirementHelloWorld) {
  CheckExactRequirement(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, g_arena);
}

TF_LITE_MICRO_TEST(ExactRequirementOnAnUnalignedArena) {
  CheckExactRequirement(g_chain_model_data, g_chain_model_data_size, g_arena + 5);
}

// A too-small arena is told the whole model's requirement (the same figure
// arena_used_bytes gives with a large enough arena), measured by a dry run,
// whether the arena ran out in the tensor plan, in an op's prepare or in the
// tables. Logs "hello_float_ref arena_used_bytes=N" and one "arena too
// small" line per size tried; core_messages_test.py checks that every line
// names N, or a lower bound when the arena cannot even hold the tables.
TF_LITE_MICRO_TEST(TooSmallArenaIsToldTheWholeModelsNeed) {
  TestResolver resolver;
  size_t needed = 0;
  {
    MicroInterpreter interpreter(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, resolver, g_arena,
                                 kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    needed = interpreter.arena_used_bytes();
  }
  MicroPrintf("hello_float_ref arena_used_bytes=%u", static_cast<unsigned>(needed));
  const size_t sizes[] = {needed - 1, needed - 64, needed / 2, needed / 4, 48};
  for (size_t size : sizes) {
    MicroInterpreter interpreter(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, resolver, g_arena,
                                 size);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
    TF_LITE_MICRO_EXPECT(interpreter.input(0) == nullptr);
    // The dry run left nothing behind: the same interpreter fails again the
    // same way, and a large enough arena still works afterwards.
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
  }
  MicroInterpreter exact(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, resolver, g_arena, needed);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.Invoke());
}

// The chain model with 256 bytes of op data per AddOne (three of them): an
// arena that holds the tables and one op's data but not all three runs out
// in init, and is still told the exact total. Logs "chain_greedy
// arena_used_bytes=N" first (core_messages_test.py).
TF_LITE_MICRO_TEST(ArenaShortOfOpDataIsToldTheWholeModelsNeed) {
  MicroMutableOpResolver<2> resolver;
  resolver.AddCustom("AddOne", test_ops::Register_GREEDY_INIT());
  resolver.AddBuiltin(Op::RESHAPE, test_ops::Register_COPY());
  test_ops::g_init_persistent_bytes = 256;
  size_t needed = 0;
  {
    MicroInterpreter interpreter(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    needed = interpreter.arena_used_bytes();
  }
  MicroPrintf("chain_greedy arena_used_bytes=%u", static_cast<unsigned>(needed));
  for (size_t size : {needed - 300, needed - 500}) {
    MicroInterpreter interpreter(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, size);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
  }
  MicroInterpreter exact(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, needed);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(needed, exact.arena_used_bytes());
  test_ops::g_init_persistent_bytes = 0;
}

TF_LITE_MICRO_TEST(VariableTensorsLiveThroughoutAndStartAtZero) {
  TestResolver resolver;
  for (size_t i = 0; i < sizeof(g_arena); ++i) g_arena[i] = 0xEE;  // stale bytes from earlier tests
  MicroInterpreter interpreter(g_variable_model_data, g_variable_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  const TfLiteTensor* state = interpreter.tensor(2);
  TF_LITE_MICRO_EXPECT(state->data.raw != nullptr);
  if (state->data.raw == nullptr) continue;
  bool zero = true;
  for (int i = 0; i < 8; ++i) zero = zero && state->data.f[i] == 0.0f;
  TF_LITE_MICRO_EXPECT(zero);
  // The state overlaps no other tensor: it lives from the first to the last op.
  const uint8_t* s = state->data.uint8;
  for (int t : {0, 1, 3}) {
    const uint8_t* other = interpreter.tensor(t)->data.uint8;
    TF_LITE_MICRO_EXPECT(other + 16 <= s || s + 32 <= other);
  }
  // An int8 state starts at its zero point (real 0), as TFLM resets it.
  const TfLiteTensor* q = interpreter.tensor(4);
  TF_LITE_MICRO_EXPECT(q->data.raw != nullptr);
  if (q->data.raw == nullptr) continue;
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(-3, q->data.int8[i]);
  interpreter.input(0)->data.f[0] = 1.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  TF_LITE_MICRO_EXPECT_NEAR(3.0f, interpreter.output(0)->data.f[0], 1e-6f);
}

TF_LITE_MICRO_TEST(ResetVariableTensorsRestoresTheStartState) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_variable_model_data, g_variable_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.ResetVariableTensors());  // nothing allocated yet
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  TfLiteTensor* state = interpreter.tensor(2);
  TfLiteTensor* q = interpreter.tensor(4);
  if (state->data.raw == nullptr || q->data.raw == nullptr) continue;
  // What a stateful op would have left behind.
  for (int i = 0; i < 8; ++i) state->data.f[i] = 7.5f;
  for (int i = 0; i < 4; ++i) q->data.int8[i] = 100;
  const float x = interpreter.input(0)->data.f[1] = 2.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.ResetVariableTensors());
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_EQ(0.0f, state->data.f[i]);
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(-3, q->data.int8[i]);
  // Only variables: the input is untouched.
  TF_LITE_MICRO_EXPECT_EQ(x, interpreter.input(0)->data.f[1]);
}

TF_LITE_MICRO_TEST(VerbosePlanningStillAllocates) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, kArenaSize);
  interpreter.set_verbose_planning(true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
}

TF_LITE_MICRO_TESTS_END
