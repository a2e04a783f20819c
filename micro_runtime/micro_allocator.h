// The arena and its memory planner.
//
// One caller-provided byte array holds everything the interpreter needs:
//
//   arena start                                                   arena end
//   | planned activations (head) ... free ... | persistent (tail) |
//
// Persistent allocations (tensor and node structs, parsed options, kernel
// user data) are taken from the tail, 8-byte aligned, and live as long as
// the interpreter. Non-constant tensors and kernel scratch buffers are
// planned into the head after every op has been prepared: each buffer lives
// from the first to the last op that touches it (model inputs from the
// start, outputs to the end, variables always), and buffers whose lifetimes
// do not overlap share memory. Placement is greedy, largest buffer first,
// at the lowest 16-byte-aligned offset that does not collide with an
// already placed buffer of overlapping lifetime. A RESHAPE output shares its
// input's buffer (same bytes, merged lifetime), so RESHAPE copies nothing.
//
// When the arena is too small for the plan, the allocator computes the
// exact requirement first, so the error "arena too small: needed N bytes,
// have M" names the smallest arena size that works (N - 1 fails). When the
// persistent allocations of init/prepare already exhaust the arena, the
// later ops' needs are unknown and the message says "needed at least N".
// The planner's bookkeeping (16 bytes per planned buffer)
// temporarily uses the head region, so tiny models may need slightly more
// than their activations.
#ifndef MICRO_RUNTIME_MICRO_ALLOCATOR_H_
#define MICRO_RUNTIME_MICRO_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

constexpr size_t kTensorAlignment = 16;     // head buffers: enough for any SIMD/DMA use
constexpr size_t kPersistentAlignment = 8;  // tail: enough for int64/double/pointers

// One buffer for the planner: size and lifetime in op indices (inclusive).
struct PlanItem {
  uint32_t size;
  uint32_t offset;
  int16_t first;
  int16_t last;
};

// Places `count` items (those with size > 0 and first <= last):
// writes each item's offset and returns the head size needed (the largest
// offset + size). `order` and `by_offset` are scratch arrays of `count`
// entries. Exposed for unit tests.
size_t PlanBuffers(PlanItem* items, size_t count, uint16_t* order, uint16_t* by_offset);

// An item that shares another item's buffer (a RESHAPE output): `offset`
// holds that item's index.
constexpr int16_t kAliasedItem = -2;
inline bool Placeable(const PlanItem& item) { return item.size > 0 && item.first <= item.last; }
inline bool Aliased(const PlanItem& item) { return item.first == kAliasedItem; }

class MicroAllocator {
 public:
  MicroAllocator() = default;
  MicroAllocator(const MicroAllocator&) = delete;
  MicroAllocator& operator=(const MicroAllocator&) = delete;

  void Init(uint8_t* arena, size_t arena_size);
  // Forgets every allocation (persistent and planned).
  void Reset();

  // 8-byte-aligned persistent memory from the tail. On exhaustion returns
  // nullptr and remembers the shortfall (see out_of_memory()); logs nothing,
  // the caller reports it with the right context.
  void* AllocatePersistent(size_t bytes);
  bool out_of_memory() const { return shortfall_bytes_ > 0; }

  // Scratch buffers requested by op `op_index`, placed by Commit().
  TfLiteStatus RequestScratch(size_t bytes, int op_index, int* buffer_index);
  void* GetScratch(int buffer_index) const;
  int scratch_count() const { return scratch_count_; }

  // Plans every non-constant tensor of `graph` plus the scratch buffers and
  // points tensors[i].data at their buffers. On a too small arena logs
  // "arena too small: needed N bytes, have M" and returns kTfLiteError.
  TfLiteStatus Commit(const tflite::Model* model, const tflite::SubGraph* graph, TfLiteTensor* tensors,
                      size_t num_tensors);

  // Logs the exact requirement (or a lower bound when the persistent part
  // alone does not fit) after out_of_memory() became true.
  void ReportOutOfMemory(const char* what) const;

  // Arena bytes in use: the smallest arena_size (same arena start) that
  // holds everything allocated so far.
  size_t used_bytes() const;
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

  struct ScratchRecord {
    ScratchRecord* next;
    uint32_t bytes;
    int32_t op_index;
    uint8_t* data;
  };

  // The arena size needed for a head of `head_bytes` plus the current tail.
  size_t NeededFor(size_t head_bytes, size_t extra_persistent) const;

  uint8_t* arena_ = nullptr;
  size_t arena_size_ = 0;
  uintptr_t head_start_ = 0;  // first 16-aligned address of the arena
  uintptr_t tail_top_ = 0;    // arena end rounded down to 8
  size_t persistent_used_ = 0;
  size_t head_used_ = 0;
  size_t shortfall_bytes_ = 0;
  ScratchRecord* scratch_ = nullptr;  // newest first
  int scratch_count_ = 0;
  PlanLogger plan_logger_ = nullptr;
};

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_MICRO_ALLOCATOR_H_
