#include "micro_runtime/micro_allocator.h"

#include "micro_runtime/micro_log.h"
#include "micro_runtime/model_verifier.h"

namespace micro_runtime {
namespace {

constexpr int16_t kNoOp = 0x7fff;

uint64_t AlignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// Strict order of items a and b for PlanOrder `how`; index last, so plans
// are deterministic. Out of line: the sort's only call, inlined it costs
// flash for nothing (planning runs once).
__attribute__((noinline)) bool Before(const PlanItem* items, uint16_t a, uint16_t b, PlanOrder how) {
  const PlanItem& x = items[a];
  const PlanItem& y = items[b];
  if (how == PlanOrder::kLargestAreaFirst) {
    const uint64_t area_x = static_cast<uint64_t>(x.size) * static_cast<uint32_t>(x.last - x.first + 1);
    const uint64_t area_y = static_cast<uint64_t>(y.size) * static_cast<uint32_t>(y.last - y.first + 1);
    if (area_x != area_y) return area_x > area_y;
  } else if (how == PlanOrder::kEarliestFirst) {
    if (x.first != y.first) return x.first < y.first;
  }
  if (x.size != y.size) return x.size > y.size;
  return a < b;
}

uint16_t RootOf(const PlanItem* items, uint16_t index) {
  while (Aliased(items[index])) index = static_cast<uint16_t>(items[index].offset);
  return index;
}

bool LifetimesOverlap(const PlanItem& a, const PlanItem& b) { return !(a.last < b.first || b.last < a.first); }

void Touch(PlanItem* item, int op) {
  if (op < item->first) item->first = static_cast<int16_t>(op);
  if (op > item->last) item->last = static_cast<int16_t>(op);
}


// How many leading inputs of a `code` op may share the output's buffer when
// one of them dies at the op (0: none). Only kernels that compute element j
// of the output from element j of that input (same shape, same type) and
// never read an earlier element again: the elementwise maps of
// unary_util.h, binary_util.h's broadcast walk (an input of the output's
// shape is walked in step with it), QUANTIZE's requantize loop.
int InPlaceInputs(tflite::BuiltinOperator code) {
  switch (code) {
    case tflite::BuiltinOperator::ADD:
    case tflite::BuiltinOperator::SUB:
    case tflite::BuiltinOperator::MUL:
      return 2;
    case tflite::BuiltinOperator::RELU:
    case tflite::BuiltinOperator::RELU6:
    case tflite::BuiltinOperator::LOGISTIC:
    case tflite::BuiltinOperator::TANH:
    case tflite::BuiltinOperator::LEAKY_RELU:
    case tflite::BuiltinOperator::HARD_SWISH:
    case tflite::BuiltinOperator::ABS:
    case tflite::BuiltinOperator::QUANTIZE:
      return 1;
    default:
      return 0;
  }
}

}  // namespace

// The lowest offset where `item` overlaps no buffer of by_offset[0, placed)
// (the placed ones, by offset) that lives at the same time. First fit: walk
// the placed buffers by offset, skip those whose lifetime does not overlap,
// stop at the first gap that is large enough.
uint64_t FirstFit(const PlanItem* items, const PlanItem& item, const uint16_t* by_offset, size_t placed) {
  uint64_t candidate = 0;
  for (size_t p = 0; p < placed; ++p) {
    const PlanItem& other = items[by_offset[p]];
    if (!LifetimesOverlap(item, other)) continue;
    if (other.offset >= candidate + item.size) break;
    const uint64_t end = AlignUp(static_cast<uint64_t>(other.offset) + other.size, kTensorAlignment);
    if (end > candidate) candidate = end;
  }
  return candidate;
}

// Places items[index] at `offset` and inserts it into by_offset (kept sorted).
void PlaceAt(PlanItem* items, uint16_t index, uint64_t offset, uint16_t* by_offset, size_t* placed) {
  // Offsets past 4 GB cannot exist in a real arena; saturate so the
  // caller's size check fails cleanly.
  items[index].offset = offset > 0xfffffff0u ? 0xfffffff0u : static_cast<uint32_t>(offset);
  size_t pos = (*placed)++;
  for (; pos > 0 && items[by_offset[pos - 1]].offset > items[index].offset; --pos) by_offset[pos] = by_offset[pos - 1];
  by_offset[pos] = index;
}

size_t PlanBuffersInOrder(PlanItem* items, size_t count, uint16_t* order, uint16_t* by_offset, PlanOrder how,
                          size_t* placed_out) {
  size_t n = 0;
  for (size_t i = 0; i < count; ++i) {
    if (Placeable(items[i])) order[n++] = static_cast<uint16_t>(i);
  }
  // Shell sort (no recursion, no heap).
  for (size_t gap = n / 2; gap > 0; gap /= 2) {
    for (size_t i = gap; i < n; ++i) {
      const uint16_t value = order[i];
      size_t j = i;
      while (j >= gap && Before(items, value, order[j - gap], how)) {
        order[j] = order[j - gap];
        j -= gap;
      }
      order[j] = value;
    }
  }
  uint64_t head = 0;
  size_t placed = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint64_t offset = FirstFit(items, items[order[k]], by_offset, placed);
    PlaceAt(items, order[k], offset, by_offset, &placed);
    if (offset + items[order[k]].size > head) head = offset + items[order[k]].size;
  }
  if (placed_out != nullptr) *placed_out = placed;
  const uint64_t max_head = static_cast<size_t>(-1) / 2;
  return static_cast<size_t>(head > max_head ? max_head : head);
}

size_t PlanBuffers(PlanItem* items, size_t count, uint16_t* order, uint16_t* by_offset, size_t* placed) {
  size_t best_head = 0;
  int best = 0;
  for (int how = 0; how < kPlanOrders; ++how) {
    const size_t head = PlanBuffersInOrder(items, count, order, by_offset, static_cast<PlanOrder>(how), placed);
    if (how == 0 || head < best_head) {
      best_head = head;
      best = how;
    }
  }
  // The offsets are the last order's; place again in the best one.
  if (best != kPlanOrders - 1) PlanBuffersInOrder(items, count, order, by_offset, static_cast<PlanOrder>(best), placed);
  return best_head;
}

void MicroAllocator::Init(uint8_t* arena, size_t arena_size) {
  arena_ = arena;
  arena_size_ = arena_size;
  const uintptr_t start = reinterpret_cast<uintptr_t>(arena);
  head_start_ = static_cast<uintptr_t>(AlignUp(start, kTensorAlignment));
  tail_top_ = (start + arena_size) / kPersistentAlignment * kPersistentAlignment;
  Reset();
}

void MicroAllocator::Reset() {
  persistent_used_ = 0;
  released_ = 0;
  head_used_ = 0;
  shortfall_bytes_ = 0;
  out_of_memory_ = false;
  scratch_data_ = nullptr;
  scratch_count_ = 0;
}

size_t MicroAllocator::NeededFor(size_t head_bytes, size_t extra_tail) const {
  // The tail's layout below the 8-aligned arena end does not depend on the
  // arena size, so the smallest arena ends at the first multiple of 8 that
  // leaves room for the head below the whole tail.
  const uint64_t end = AlignUp(static_cast<uint64_t>(head_start_) + head_bytes + persistent_used_ + released_ +
                                   extra_tail,
                               kPersistentAlignment);
  const uint64_t needed = end - reinterpret_cast<uintptr_t>(arena_);
  const uint64_t max_size = static_cast<size_t>(-1);
  return static_cast<size_t>(needed > max_size ? max_size : needed);
}

size_t MicroAllocator::used_bytes() const { return arena_ == nullptr ? 0 : NeededFor(head_used_, 0); }

size_t MicroAllocator::LowerBoundBytes() const { return NeededFor(head_used_, shortfall_bytes_); }

void MicroAllocator::Release(size_t mark) {
  if (mark > persistent_used_) return;
  released_ += persistent_used_ - mark;
  // Keep the next allocation at the 8-byte phase it would have had.
  const size_t phase = released_ % kPersistentAlignment;
  persistent_used_ = mark + phase;
  released_ -= phase;
}

size_t MicroAllocator::TailGrowth(size_t bytes) const {
  const uint64_t size = AlignUp(bytes == 0 ? 1 : bytes, kPersistentMinAlignment);
  const uint64_t align = size % kPersistentAlignment == 0 ? kPersistentAlignment : kPersistentMinAlignment;
  // Distances below the (8-aligned) tail top: the block's start rounded away from it.
  const uint64_t growth = AlignUp(persistent_used_ + size, align) - persistent_used_;
  const uint64_t max_growth = static_cast<size_t>(-1) / 2;
  return static_cast<size_t>(growth > max_growth ? max_growth : growth);
}

void* MicroAllocator::AllocatePersistent(size_t bytes) {
  if (arena_ == nullptr) return nullptr;
  if (bytes > static_cast<size_t>(-1) / 4) {
    RanOut(static_cast<size_t>(-1) / 4);
    return nullptr;
  }
  const size_t growth = TailGrowth(bytes);
  const uintptr_t lower = head_start_ + head_used_;
  const uintptr_t tail_low = tail_top_ - persistent_used_;
  if (tail_top_ < persistent_used_ || tail_low < lower || tail_low - lower < growth) {
    RanOut(growth);
    return nullptr;
  }
  persistent_used_ += growth;
  return reinterpret_cast<void*>(tail_top_ - persistent_used_);
}

TfLiteStatus MicroAllocator::RequestScratch(size_t bytes, int op_index, int* buffer_index, bool optional) {
  if (bytes > 0x7fffffffu) {
    MicroPrintf("operator %d requested a %u-byte scratch buffer; that cannot fit any arena", op_index,
                static_cast<unsigned>(bytes));
    return kTfLiteError;
  }
  if (scratch_count_ >= kNoOp) {
    MicroPrintf("operator %d: too many scratch buffers requested", op_index);
    return kTfLiteError;
  }
  // The request waits in the head region (free until the plan).
  const uintptr_t lower = head_start_ + requests_bytes();
  const uintptr_t tail_low = tail_top_ - persistent_used_;
  if (tail_top_ < persistent_used_ || tail_low < lower || tail_low - lower < sizeof(ScratchRequest)) {
    RanOut(sizeof(ScratchRequest));
    return kTfLiteError;
  }
  ScratchRequest* request = reinterpret_cast<ScratchRequest*>(lower);
  request->bytes = static_cast<uint32_t>(bytes) | (optional ? kOptionalScratch : 0u);
  request->op_index = op_index;
  *buffer_index = scratch_count_++;
  head_used_ = requests_bytes();
  return kTfLiteOk;
}

void* MicroAllocator::GetScratch(int buffer_index) const {
  if (scratch_data_ == nullptr || buffer_index < 0 || buffer_index >= scratch_count_) return nullptr;
  return scratch_data_[buffer_index];
}

void MicroAllocator::ClearTags(TfLiteTensor* tensors, size_t num_tensors) {
  for (size_t t = 0; t < num_tensors; ++t) {
    if (!tensors[t].is_constant) tensors[t].data.raw = nullptr;
  }
}

TfLiteStatus MicroAllocator::Plan(const tflite::Model* model, const tflite::SubGraph* graph, TfLiteTensor* tensors,
                                  size_t num_tensors, LocalPlan* local, PlanItem** items_out,
                                  size_t* first_scratch_out, size_t* head_out, size_t* temp_out) {
  const auto* ops = graph->operators();
  const int num_ops = ops != nullptr ? static_cast<int>(ops->size()) : 0;
  const int last_op = num_ops > 0 ? num_ops - 1 : 0;
  // Only non-constant tensors with data become planner items.
  size_t count = static_cast<size_t>(scratch_count_);
  for (size_t t = 0; t < num_tensors; ++t) {
    if (!tensors[t].is_constant && tensors[t].bytes > 0) ++count;
  }
  if (count >= kNoItem) {
    MicroPrintf("model needs %u planned buffers; micro_runtime supports up to 65534", static_cast<unsigned>(count));
    return kTfLiteError;
  }

  // The planner's own bookkeeping lives where the head will go, after the
  // scratch requests (both are read completely before any tensor data is
  // written there), or for a small model in `local`.
  const bool in_local = count <= kLocalPlanItems;
  const size_t plan_bytes = in_local ? 0 : count * (sizeof(PlanItem) + 2 * sizeof(uint16_t));
  const size_t items_at = static_cast<size_t>(AlignUp(requests_bytes(), alignof(PlanItem)));
  const size_t temp = in_local ? requests_bytes() : items_at + plan_bytes;
  *temp_out = temp;
  const uintptr_t tail_low = tail_top_ - persistent_used_;
  if (tail_top_ < persistent_used_ || tail_low < head_start_ || tail_low - head_start_ < temp) {
    RanOut(0);
    head_used_ = temp;  // what is known to be needed
    return kTfLiteError;
  }
  PlanItem* items = in_local ? local->items : reinterpret_cast<PlanItem*>(head_start_ + items_at);
  uint16_t* order = in_local ? local->order : reinterpret_cast<uint16_t*>(items + count);
  uint16_t* by_offset = order + count;

  size_t n = 0;
  for (size_t t = 0; t < num_tensors; ++t) {
    if (tensors[t].is_constant) continue;
    // Tag the tensor with its item (see ItemOf).
    tensors[t].data.raw = nullptr;
    if (tensors[t].bytes == 0) continue;
    tensors[t].data.raw = reinterpret_cast<void*>(static_cast<uintptr_t>(n + 1));
    items[n++] = {static_cast<uint32_t>(tensors[t].bytes), 0, kNoOp, -1};
  }
  auto item_of = [tensors](size_t t) { return ItemOf(tensors[t]); };
  const size_t first_scratch = n;
  for (int i = 0; i < scratch_count_; ++i) {
    // An optional one is left out of the plan (last < first) and fitted afterwards.
    const ScratchRequest& r = requests()[i];
    const int16_t op = static_cast<int16_t>(r.op_index);
    items[first_scratch + static_cast<size_t>(i)] = {r.bytes & ~kOptionalScratch, 0, op,
                                                      static_cast<int16_t>((r.bytes & kOptionalScratch) ? op - 1 : op)};
  }
  auto touch = [&](int32_t t, int op) {
    if (t >= 0 && item_of(t) != kNoItem) Touch(&items[item_of(t)], op);
  };
  // One loop for the four index lists (not inlined four times).
  auto touch_all = [&](const flatbuffers::Vector<int32_t>* list, int op) {
    if (list == nullptr) return;
    for (int32_t t : *list) touch(t, op);
  };

  // Lifetimes. Indices were checked by the model verifier.
  touch_all(graph->inputs(), 0);
  for (int i = 0; i < num_ops; ++i) {
    const tflite::Operator* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
    touch_all(op->inputs(), i);
    touch_all(op->outputs(), i);
  }
  touch_all(graph->outputs(), last_op);
  const auto* model_tensors = graph->tensors();
  for (size_t t = 0; t < num_tensors; ++t) {
    if (model_tensors->Get(static_cast<flatbuffers::uoffset_t>(t))->is_variable()) {
      touch(static_cast<int32_t>(t), 0);
      touch(static_cast<int32_t>(t), last_op);
    }
  }

  // Aliasing, in op order: RESHAPE, SQUEEZE and EXPAND_DIMS only move bytes,
  // so their output shares the input's buffer; an elementwise op whose input
  // dies there writes its output over that input (see InPlaceInputs).
  auto is_variable = [model_tensors](int32_t t) {
    return model_tensors->Get(static_cast<flatbuffers::uoffset_t>(t))->is_variable();
  };
  // Whether op `i` may write its output over input `in_tensor` (group
  // `root`): the input's buffer dies at this op (no later reader, not a
  // graph output), the output is born here with the input's type and shape
  // (the kernel then reads element j before it writes element j, and no
  // element before j afterwards), and no other input reads that buffer.
  auto can_write_over = [&](const tflite::Operator* op, int32_t in_tensor, int i, int32_t out_tensor,
                            uint16_t root) {
    if (items[root].last != i || items[item_of(out_tensor)].first != i) return false;
    const TfLiteTensor& in = tensors[in_tensor];
    const TfLiteTensor& out = tensors[out_tensor];
    if (in.type != out.type || in.dims->size != out.dims->size) return false;
    for (int d = 0; d < in.dims->size; ++d) {
      if (in.dims->data[d] != out.dims->data[d]) return false;
    }
    if (graph->inputs() != nullptr) {
      for (int32_t t : *graph->inputs()) {
        if (t == out_tensor) return false;  // the caller writes it before Invoke
      }
    }
    if (graph->outputs() != nullptr) {
      for (int32_t t : *graph->outputs()) {
        if (t >= 0 && item_of(t) != kNoItem && RootOf(items, item_of(t)) == root) return false;
      }
    }
    for (int32_t t : *op->inputs()) {
      if (t >= 0 && t != in_tensor && item_of(t) != kNoItem && RootOf(items, item_of(t)) == root) return false;
    }
    return true;
  };
  for (int i = 0; i < num_ops; ++i) {
    const tflite::Operator* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
    const auto code = static_cast<tflite::BuiltinOperator>(
        EffectiveBuiltinCode(model->operator_codes()->Get(op->opcode_index())));
    const bool moves_bytes = code == tflite::BuiltinOperator::RESHAPE || code == tflite::BuiltinOperator::SQUEEZE ||
                             code == tflite::BuiltinOperator::EXPAND_DIMS;
    const int in_place = moves_bytes ? 1 : InPlaceInputs(code);
    if (in_place == 0 || op->inputs() == nullptr || op->outputs() == nullptr ||
        op->inputs()->size() < static_cast<flatbuffers::uoffset_t>(in_place) || op->outputs()->size() != 1) {
      continue;
    }
    const int32_t out_tensor = op->outputs()->Get(0);
    if (out_tensor < 0 || item_of(out_tensor) == kNoItem || is_variable(out_tensor)) continue;
    const uint16_t out = item_of(out_tensor);
    if (Aliased(items[out])) continue;
    // Never alias an item others already share (a malformed graph could).
    bool shared = false;
    for (size_t k = 0; k < first_scratch; ++k) shared = shared || (Aliased(items[k]) && items[k].offset == out);
    if (shared) continue;
    uint16_t root = kNoItem;
    for (int k = 0; k < in_place && root == kNoItem; ++k) {
      const int32_t in_tensor = op->inputs()->Get(static_cast<flatbuffers::uoffset_t>(k));
      if (in_tensor < 0 || in_tensor == out_tensor || item_of(in_tensor) == kNoItem || is_variable(in_tensor)) {
        continue;
      }
      const uint16_t candidate = RootOf(items, item_of(in_tensor));
      if (candidate == out || items[out].size != items[candidate].size) continue;
      if (!moves_bytes && !can_write_over(op, in_tensor, i, out_tensor, candidate)) continue;
      root = candidate;
    }
    if (root == kNoItem) continue;
    if (items[out].first < items[root].first) items[root].first = items[out].first;
    if (items[out].last > items[root].last) items[root].last = items[out].last;
    items[out].first = kAliasedItem;
    items[out].last = kAliasedItem - 1;
    items[out].offset = root;
  }

  size_t placed = 0;
  const size_t head = PlanBuffers(items, count, order, by_offset, &placed);
  // Optional scratch buffers (the scratch items left out: last < first):
  // first fit among the placed buffers (by_offset holds them by offset),
  // dropped (size 0: GetScratchBuffer gives nullptr) where they would end
  // above the head.
  for (size_t index = first_scratch; index < count; ++index) {
    PlanItem& item = items[index];
    if (item.first <= item.last) continue;
    item.last = item.first;
    const uint64_t offset = FirstFit(items, item, by_offset, placed);
    if (item.size == 0 || offset + item.size > head) {
      item.size = 0;
    } else {
      PlaceAt(items, static_cast<uint16_t>(index), offset, by_offset, &placed);
    }
  }
  if (plan_logger_ != nullptr) plan_logger_(*this, items, tensors, num_tensors, first_scratch, head, temp);
  *items_out = items;
  *first_scratch_out = first_scratch;
  *head_out = head;
  return kTfLiteOk;
}

TfLiteStatus MicroAllocator::Commit(const tflite::Model* model, const tflite::SubGraph* graph,
                                    TfLiteTensor* tensors, size_t num_tensors) {
  // The scratch buffers' pointers are persistent; allocated before the plan
  // so its bookkeeping sees the final tail.
  uint8_t** scratch_data = nullptr;
  if (scratch_count_ > 0) {
    scratch_data = static_cast<uint8_t**>(AllocatePersistent(static_cast<size_t>(scratch_count_) * sizeof(uint8_t*)));
    if (scratch_data == nullptr) return kTfLiteError;
  }
  PlanItem* items = nullptr;
  size_t first_scratch = 0;
  size_t head = 0;
  size_t temp = 0;
  LocalPlan local;
  if (Plan(model, graph, tensors, num_tensors, &local, &items, &first_scratch, &head, &temp) != kTfLiteOk) {
    ClearTags(tensors, num_tensors);
    return kTfLiteError;
  }
  const size_t required_head = head > temp ? head : temp;
  const uintptr_t tail_low = tail_top_ - persistent_used_;
  if (tail_low - head_start_ < head) {
    RanOut(0);
    head_used_ = required_head;
    ClearTags(tensors, num_tensors);
    return kTfLiteError;
  }

  // Only pointers in the tail are written here, so the bookkeeping stays
  // intact until the last read.
  for (size_t t = 0; t < num_tensors; ++t) {
    if (tensors[t].is_constant) continue;
    const uint16_t k = ItemOf(tensors[t]);
    tensors[t].data.raw = nullptr;
    if (k == kNoItem) continue;
    const PlanItem& item = items[RootOf(items, k)];
    if (Placeable(item)) tensors[t].data.raw = reinterpret_cast<void*>(head_start_ + item.offset);
  }
  for (int i = 0; i < scratch_count_; ++i) {
    const PlanItem& item = items[first_scratch + static_cast<size_t>(i)];
    scratch_data[i] = Placeable(item) ? reinterpret_cast<uint8_t*>(head_start_ + item.offset) : nullptr;
  }
  scratch_data_ = scratch_data;
  head_used_ = required_head;
  return kTfLiteOk;
}

size_t MicroAllocator::MeasuredBytes(const tflite::Model* model, const tflite::SubGraph* graph,
                                     TfLiteTensor* tensors, size_t num_tensors) {
  // The scratch pointers Commit would allocate; counted, not allocated.
  const size_t scratch_pointers =
      scratch_count_ > 0 ? TailGrowth(static_cast<size_t>(scratch_count_) * sizeof(uint8_t*)) : 0;
  PlanItem* items = nullptr;
  size_t first_scratch = 0;
  size_t head = 0;
  size_t temp = 0;
  LocalPlan local;
  const TfLiteStatus status =
      Plan(model, graph, tensors, num_tensors, &local, &items, &first_scratch, &head, &temp);
  ClearTags(tensors, num_tensors);
  if (status != kTfLiteOk) {
    shortfall_bytes_ = scratch_pointers;
    return 0;
  }
  return NeededFor(head > temp ? head : temp, scratch_pointers);
}

}  // namespace micro_runtime
