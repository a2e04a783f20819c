#include "micro_runtime/testing/kernel_runner.h"

#include "micro_runtime/micro_log.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {
// 16-byte aligned so any kernel buffer (int32/float/int64) can live in it.
alignas(16) uint8_t g_arena[KERNEL_RUNNER_ARENA_SIZE];
}  // namespace

KernelRunner::KernelRunner(const TfLiteRegistration& registration, TfLiteTensor* tensors,
                           int tensors_size, const TfLiteIntArray* inputs,
                           const TfLiteIntArray* outputs, const void* builtin_data,
                           const void* custom_data, size_t custom_size)
    : registration_(registration),
      custom_data_(custom_data),
      custom_size_(custom_size),
      used_(0),
      scratch_count_(0),
      pool_used_(0),
      initialized_(false),
      prepared_(false) {
  context_.tensors = tensors;
  context_.tensors_size = static_cast<size_t>(tensors_size);
  context_.AllocatePersistentBuffer = AllocatePersistent;
  context_.RequestScratchBufferInArena = RequestScratch;
  context_.GetScratchBuffer = GetScratch;
  context_.RequestOptionalScratchBufferInArena = RequestOptionalScratch;
  context_.impl = this;
  node_.inputs = inputs;
  node_.outputs = outputs;
  node_.builtin_data = builtin_data;
  node_.user_data = nullptr;
  node_.custom_initial_data = custom_data;
  node_.custom_initial_data_size = static_cast<int32_t>(custom_size);
  for (int i = 0; i < kMaxScratchBuffers; ++i) scratch_[i] = nullptr;
}

KernelRunner::~KernelRunner() {
  if (initialized_ && registration_.free != nullptr) registration_.free(&context_, node_.user_data);
}

void* KernelRunner::Allocate(size_t bytes) {
  const size_t aligned = (bytes + 15u) & ~static_cast<size_t>(15u);
  if (aligned > sizeof(g_arena) - used_) {
    MicroPrintf("KernelRunner: arena exhausted (%u of %u bytes used, %u requested); rebuild with a "
                "larger arena, e.g. make EXTRA_CXXFLAGS=-DKERNEL_RUNNER_ARENA_SIZE=8192",
                static_cast<unsigned>(used_), static_cast<unsigned>(sizeof(g_arena)),
                static_cast<unsigned>(bytes));
    return nullptr;
  }
  void* p = g_arena + used_;
  used_ += aligned;
  return p;
}

void* KernelRunner::AllocatePersistent(TfLiteContext* context, size_t bytes) {
  return static_cast<KernelRunner*>(context->impl)->Allocate(bytes);
}

bool KernelRunner::ScratchFull() const {
  if (scratch_count_ < kMaxScratchBuffers) return false;
  MicroPrintf("KernelRunner: more than %d scratch buffers requested", kMaxScratchBuffers);
  return true;
}

TfLiteStatus KernelRunner::AddScratch(void* p, int* index) {
  scratch_[scratch_count_] = p;
  *index = scratch_count_++;
  return kTfLiteOk;
}

TfLiteStatus KernelRunner::RequestScratch(TfLiteContext* context, size_t bytes, int* index) {
  KernelRunner* self = static_cast<KernelRunner*>(context->impl);
  if (self->ScratchFull()) return kTfLiteError;
  // Scratch buffers simply get their own region: a single-node run has no
  // other op to share it with.
  void* p = self->Allocate(bytes);
  if (p == nullptr) return kTfLiteError;
  return self->AddScratch(p, index);
}

namespace {
uint8_t* g_pool = nullptr;
size_t g_pool_bytes = 0;
}  // namespace

void KernelRunner::SetOptionalScratchPool(void* pool, size_t bytes) {
  g_pool = static_cast<uint8_t*>(pool);
  g_pool_bytes = pool != nullptr ? bytes : 0;
}

TfLiteStatus KernelRunner::RequestOptionalScratch(TfLiteContext* context, size_t bytes, int* index) {
  KernelRunner* self = static_cast<KernelRunner*>(context->impl);
  if (self->ScratchFull()) return kTfLiteError;
  const size_t start = (self->pool_used_ + 15u) & ~static_cast<size_t>(15u);
  void* p = nullptr;
  if (g_pool != nullptr && start <= g_pool_bytes && bytes <= g_pool_bytes - start) {
    p = g_pool + start;
    self->pool_used_ = start + bytes;
  }
  return self->AddScratch(p, index);
}

void* KernelRunner::GetScratch(TfLiteContext* context, int index) {
  KernelRunner* self = static_cast<KernelRunner*>(context->impl);
  if (index < 0 || index >= self->scratch_count_) return nullptr;
  return self->scratch_[index];
}

TfLiteStatus KernelRunner::InitAndPrepare() {
  if (registration_.init != nullptr) {
    node_.user_data = registration_.init(&context_, static_cast<const char*>(custom_data_), custom_size_);
  }
  initialized_ = true;
  if (registration_.prepare != nullptr) {
    const TfLiteStatus status = registration_.prepare(&context_, &node_);
    if (status != kTfLiteOk) return status;
  }
  prepared_ = true;
  return kTfLiteOk;
}

TfLiteStatus KernelRunner::Invoke() {
  if (!prepared_) {
    MicroPrintf("KernelRunner: Invoke() called before a successful InitAndPrepare()");
    return kTfLiteError;
  }
  if (registration_.invoke == nullptr) {
    MicroPrintf("KernelRunner: the registration has no invoke function");
    return kTfLiteError;
  }
  return registration_.invoke(&context_, &node_);
}

TfLiteStatus RunKernel(const TfLiteRegistration& registration, TfLiteTensor* tensors,
                       int tensors_size, const TfLiteIntArray* inputs,
                       const TfLiteIntArray* outputs, const void* builtin_data,
                       const void* custom_data, size_t custom_size) {
  KernelRunner runner(registration, tensors, tensors_size, inputs, outputs, builtin_data,
                      custom_data, custom_size);
  const TfLiteStatus status = runner.InitAndPrepare();
  if (status != kTfLiteOk) return status;
  return runner.Invoke();
}

TfLiteStatus RunUnaryKernel(const TfLiteRegistration& registration, TfLiteTensor input,
                            TfLiteTensor output, const void* builtin_data,
                            const void* custom_data, size_t custom_size) {
  static const int32_t kInputs[] = {1, 0};
  static const int32_t kOutputs[] = {1, 1};
  TfLiteTensor tensors[] = {input, output};
  return RunKernel(registration, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                   builtin_data, custom_data, custom_size);
}

TfLiteStatus RunBinaryKernel(const TfLiteRegistration& registration, TfLiteTensor input1,
                             TfLiteTensor input2, TfLiteTensor output, const void* builtin_data) {
  static const int32_t kInputs[] = {2, 0, 1};
  static const int32_t kOutputs[] = {1, 2};
  TfLiteTensor tensors[] = {input1, input2, output};
  return RunKernel(registration, tensors, 3, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                   builtin_data);
}

TfLiteStatus RunKernelOnTensors(const TfLiteRegistration& registration, TfLiteTensor* tensors, int num_inputs,
                                const void* builtin_data) {
  constexpr int kMaxInputs = 15;
  if (num_inputs < 0 || num_inputs > kMaxInputs) return kTfLiteError;
  int32_t inputs[kMaxInputs + 1] = {num_inputs};
  for (int i = 0; i < num_inputs; ++i) inputs[i + 1] = i;
  const int32_t outputs[] = {1, num_inputs};
  return RunKernel(registration, tensors, num_inputs + 1, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                   builtin_data);
}
