// MicroAllocator's verbose plan dump (set_verbose(true)): in its own file so
// firmware that never asks for it does not link its code and strings.
#include "micro_runtime/micro_allocator.h"
#include "micro_runtime/micro_log.h"

namespace micro_runtime {

void MicroAllocator::LogPlan(const MicroAllocator& allocator, const PlanItem* items, const TfLiteTensor* tensors,
                             size_t num_tensors, size_t first_scratch, size_t head, size_t plan_bytes) {
  const size_t scratch_count = static_cast<size_t>(allocator.scratch_count_);
  for (size_t t = 0; t < num_tensors + scratch_count; ++t) {
    const bool is_tensor = t < num_tensors;
    const size_t k = is_tensor ? ItemOf(tensors[t]) : first_scratch + (t - num_tensors);
    if (k == kNoItem) continue;
    const PlanItem& item = items[k];
    const char* kind = is_tensor ? "tensor" : "scratch";
    const int id = static_cast<int>(is_tensor ? t : t - num_tensors);
    if (Aliased(item)) {
      MicroPrintf("plan: %s %d shares its input's buffer (RESHAPE or in place)", kind, id);
    } else if (Placeable(item)) {
      MicroPrintf("plan: %s %d: %u bytes at offset %u, ops %d-%d", kind, id, static_cast<unsigned>(item.size),
                  static_cast<unsigned>(item.offset), static_cast<int>(item.first), static_cast<int>(item.last));
    }
  }
  MicroPrintf("plan: head %u bytes (planner bookkeeping and scratch requests %u), persistent %u bytes",
              static_cast<unsigned>(head), static_cast<unsigned>(plan_bytes),
              static_cast<unsigned>(allocator.persistent_used_));
}

}  // namespace micro_runtime
