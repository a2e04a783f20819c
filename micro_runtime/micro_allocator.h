// The arena and its memory planner.
//
// One caller-provided byte array holds everything the interpreter needs:
//
//   arena start                                                   arena end
//   | planned activations (head) ... free ... | persistent (tail) |
//
// Persistent allocations (tensor and node structs, parsed options, kernel
// op data, the scratch buffer pointers) are taken from the tail, aligned to
// 8 bytes when their size is a multiple of 8 and to 4 otherwise, and live as
// long as the interpreter. Non-constant tensors and
// kernel scratch buffers are planned into the head after every op has been
// prepared: each buffer lives from the first to the last op that touches it
// (model inputs from the start, outputs to the end, variables always), and
// buffers whose lifetimes do not overlap share memory. Placement is greedy
// first fit (the lowest 16-byte-aligned offset that does not collide with an
// already placed buffer of overlapping lifetime), run in three orders --
// largest first (TFLM's), largest size x lifetime first, earliest first --
// keeping the smallest head. A RESHAPE, SQUEEZE or EXPAND_DIMS output
// shares its input's buffer (same bytes, merged lifetime), so they copy
// nothing. In-place execution: an elementwise op (ADD, SUB, MUL, RELU,
// RELU6, LOGISTIC, TANH, LEAKY_RELU, HARD_SWISH, ABS, QUANTIZE) whose input
// dies at that op writes its output over the input when both have the same
// type and shape, the input is no graph output and no variable, and no other
// input of the op reads that buffer; the model's activation memory can then
// be below the peak of simultaneously live tensors.
//
// Temporary memory: scratch requests (8 bytes each, from prepare until the
// plan) and the planner's bookkeeping (16 bytes per planned buffer) use the
// head region before the plan is written, so tiny models may need slightly
// more than their activations; a model of up to 8 buffers plans on the
// stack instead (LocalPlan).
//
// arena_used_bytes is exact: the smallest arena size (same start) that
// works. When an arena is too small, the interpreter measures the whole
// model's requirement with a dry run (see MicroInterpreter::AllocateTensors)
// and names it: "arena too small: this model needs N bytes (given M)".
#ifndef MICRO_RUNTIME_MICRO_ALLOCATOR_H_
#define MICRO_RUNTIME_MICRO_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

constexpr size_t kTensorAlignment = 16;     // head buffers: enough for any SIMD/DMA use
// Tail allocations: 8-byte aligned when their size is a multiple of 8 (every
// type of alignment 8 -- int64, double, structs with them or with 64-bit
// pointers -- has such a size), else 4-byte aligned (sizes rounded up to 4).
constexpr size_t kPersistentAlignment = 8;
constexpr size_t kPersistentMinAlignment = 4;

// One buffer for the planner: size and lifetime in op indices (inclusive).
struct PlanItem {
  uint32_t size;
  uint32_t offset;
  int16_t first;
  int16_t last;
};

// Places `count` items (those with size > 0 and first <= last):
// writes each item's offset and returns the head size needed (the largest
// offset + size). First fit in each of the PlanOrder orders; the smallest
// head wins (ties: the earlier order). `order` and `by_offset` are scratch
// arrays of `count` entries. Exposed for unit tests.
enum class PlanOrder : uint8_t { kLargestFirst, kLargestAreaFirst, kEarliestFirst };
constexpr int kPlanOrders = 3;
// *placed (when given): how many items were placed; by_offset[0, *placed)
// then lists them by offset.
size_t PlanBuffersInOrder(PlanItem* items, size_t count, uint16_t* order, uint16_t* by_offset, PlanOrder how,
                          size_t* placed = nullptr);
size_t PlanBuffers(PlanItem* items, size_t count, uint16_t* order, uint16_t* by_offset, size_t* placed = nullptr);

// An item that shares another item's buffer (a RESHAPE output): `offset`
// holds that item's index.
constexpr int16_t kAliasedItem = -2;
__attribute__((always_inline)) inline bool Placeable(const PlanItem& item) { return item.size > 0 && item.first <= item.last; }
inline bool Aliased(const PlanItem& item) { return item.first == kAliasedItem; }

class MicroAllocator {
 public:
  MicroAllocator() = default;
  MicroAllocator(const MicroAllocator&) = delete;
  MicroAllocator& operator=(const MicroAllocator&) = delete;

  void Init(uint8_t* arena, size_t arena_size);
  // Forgets every allocation (persistent, scratch requests, plan) and the
  // out-of-memory state.
  void Reset();

  // Persistent memory from the tail (aligned to 8 when `bytes` is a multiple
  // of 8, else to 4). On exhaustion returns nullptr and remembers the
  // shortfall (see out_of_memory()); logs nothing, the caller reports it.
  void* AllocatePersistent(size_t bytes);
  // True once any allocation, scratch request or the plan did not fit.
  bool out_of_memory() const { return out_of_memory_; }

  // Scratch buffers requested by op `op_index`, placed by Commit(); an
  // optional one only below the head the others need (else its pointer is
  // nullptr).
  TfLiteStatus RequestScratch(size_t bytes, int op_index, int* buffer_index, bool optional = false);
  void* GetScratch(int buffer_index) const;
  int scratch_count() const { return scratch_count_; }

  // Plans every non-constant tensor of `graph` plus the scratch buffers and
  // points tensors[i].data at their buffers. When the arena is too small,
  // sets out_of_memory() and returns kTfLiteError without logging.
  TfLiteStatus Commit(const tflite::Model* model, const tflite::SubGraph* graph, TfLiteTensor* tensors,
                      size_t num_tensors);

  // Dry run (measuring what a model needs in an arena that is too small):
  // Mark() once before the ops, Release(mark) after each op's prepare gives
  // the op's persistent memory back for the next op while counting it (the
  // next op starts at the same 8-byte phase as it would without the
  // release, so its padding is the same); then
  // MeasuredBytes() plans the head like Commit() (tensors untouched) and
  // returns the arena size the whole model needs, or 0 when even that does
  // not fit (LowerBoundBytes() then says how much is known to be needed).
  size_t Mark() const { return persistent_used_; }
  void Release(size_t mark);
  size_t MeasuredBytes(const tflite::Model* model, const tflite::SubGraph* graph, TfLiteTensor* tensors,
                       size_t num_tensors);
  size_t LowerBoundBytes() const;

  // Arena bytes in use: the smallest arena_size (same arena start) that
  // holds everything allocated so far.
  size_t used_bytes() const;
  // used_bytes() = alignment padding + head_bytes() + persistent_bytes():
  // the head is the plan (activations and scratch buffers; while planning
  // also the planner's temporary bookkeeping, which can exceed the plan on
  // tiny models), the tail the persistent allocations.
  size_t persistent_bytes() const { return persistent_used_; }
  size_t head_bytes() const { return head_used_; }
  size_t arena_size() const { return arena_size_; }

  // When set, Commit() logs every placement decision. The logger lives in
  // micro_allocator_plan_log.cc, so firmware that never turns it on does
  // not link it.
  void set_verbose(bool verbose) { plan_logger_ = verbose ? &LogPlan : nullptr; }

 private:
  static constexpr uint16_t kNoItem = 0xffff;

  // Until the plan is committed, a non-constant tensor's (still unused)
  // data pointer holds its planner item index + 1: no separate map needed.
  static uint16_t ItemOf(const TfLiteTensor& tensor) {
    if (tensor.is_constant || tensor.data.raw == nullptr) return kNoItem;
    return static_cast<uint16_t>(reinterpret_cast<uintptr_t>(tensor.data.raw) - 1);
  }

  // Logs the plan: items[0, first_scratch) belong to tensors (see ItemOf),
  // the scratch buffers follow in request order.
  using PlanLogger = void (*)(const MicroAllocator& allocator, const PlanItem* items, const TfLiteTensor* tensors,
                              size_t num_tensors, size_t first_scratch, size_t head, size_t plan_bytes);
  static void LogPlan(const MicroAllocator& allocator, const PlanItem* items, const TfLiteTensor* tensors,
                      size_t num_tensors, size_t first_scratch, size_t head, size_t plan_bytes);

  // A scratch request, kept in the head region from prepare until the plan
  // (bytes < 2^31; the top bit marks an optional one).
  struct ScratchRequest {
    uint32_t bytes;
    int32_t op_index;
  };
  static constexpr uint32_t kOptionalScratch = 0x80000000u;
  const ScratchRequest* requests() const { return reinterpret_cast<const ScratchRequest*>(head_start_); }
  size_t requests_bytes() const { return static_cast<size_t>(scratch_count_) * sizeof(ScratchRequest); }

  // Builds the planner items in the free region and places them: *head is
  // the planned head, *temp the temporary bytes (requests and bookkeeping)
  // the planning itself needs from the head region. Tensor data pointers
  // carry item tags afterwards (see ItemOf) until Commit assigns or clears
  // them. kTfLiteError (with out_of_memory()) when the bookkeeping does not
  // fit; other errors are logged.
  // A model of up to kLocalPlanItems buffers keeps that bookkeeping in
  // `local` (the caller's stack, 128 bytes) instead: its head is then only
  // its activations (the bookkeeping, 16 bytes per buffer, would exceed
  // them), and the stack is deeper during Invoke() anyway.
  static constexpr size_t kLocalPlanItems = 8;
  struct LocalPlan {
    PlanItem items[kLocalPlanItems];
    uint16_t order[2 * kLocalPlanItems];
  };
  TfLiteStatus Plan(const tflite::Model* model, const tflite::SubGraph* graph, TfLiteTensor* tensors,
                    size_t num_tensors, LocalPlan* local, PlanItem** items, size_t* first_scratch, size_t* head,
                    size_t* temp);
  // Data pointers of non-constant tensors back to nullptr (no item tags).
  static void ClearTags(TfLiteTensor* tensors, size_t num_tensors);

  // The arena size needed for a head of `head_bytes` plus the current tail
  // (including the persistent bytes a dry run released) and `extra_tail`.
  size_t NeededFor(size_t head_bytes, size_t extra_tail) const;
  // How much the tail grows (padding included) for an allocation of `bytes`
  // now; sets *size/*align to the rounded size and alignment.
  size_t TailGrowth(size_t bytes) const;
  void RanOut(size_t shortfall) {
    out_of_memory_ = true;
    if (shortfall > shortfall_bytes_) shortfall_bytes_ = shortfall;
  }

  uint8_t* arena_ = nullptr;
  size_t arena_size_ = 0;
  uintptr_t head_start_ = 0;  // first 16-aligned address of the arena
  uintptr_t tail_top_ = 0;    // arena end rounded down to 8
  size_t persistent_used_ = 0;
  size_t released_ = 0;       // persistent bytes a dry run gave back
  size_t head_used_ = 0;      // the plan, or the scratch requests before it
  size_t shortfall_bytes_ = 0;
  bool out_of_memory_ = false;
  uint8_t** scratch_data_ = nullptr;  // after Commit: one pointer per scratch buffer
  int scratch_count_ = 0;
  PlanLogger plan_logger_ = nullptr;
};

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_MICRO_ALLOCATOR_H_
