// Runs one kernel on hand-made tensors, without a model or interpreter: the
// runner plays the interpreter's part (context with persistent and scratch
// memory, one node) so kernel tests exercise init/prepare/invoke exactly as
// the real interpreter calls them.
//
//   TfLiteTensor tensors[] = {input, filter, bias, output};
//   const int32_t in[] = {3, 0, 1, 2}, out[] = {1, 3};
//   KernelRunner runner(Register_CONV_2D(), tensors, 4, IntArrayFromInts(in),
//                       IntArrayFromInts(out), &params);
//   TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
//   TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
//
// Memory comes from one static arena shared by all runners (no malloc); each
// runner resets it when constructed, so only one runner may be alive at a
// time (the normal shape of a test).
#ifndef MICRO_RUNTIME_TESTING_KERNEL_RUNNER_H_
#define MICRO_RUNTIME_TESTING_KERNEL_RUNNER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"

// Largest op data of a kernel test: SOFTMAX int16's two 513-entry tables (2,060 bytes).
#ifndef KERNEL_RUNNER_ARENA_SIZE
#define KERNEL_RUNNER_ARENA_SIZE 3072
#endif

class KernelRunner {
 public:
  static constexpr int kMaxScratchBuffers = 8;

  KernelRunner(const TfLiteRegistration& registration, TfLiteTensor* tensors, int tensors_size,
               const TfLiteIntArray* inputs, const TfLiteIntArray* outputs,
               const void* builtin_data, const void* custom_data = nullptr,
               size_t custom_size = 0);
  ~KernelRunner();

  // Calls init (with the custom data) then prepare.
  TfLiteStatus InitAndPrepare();
  // Calls invoke; fails if InitAndPrepare did not succeed first.
  TfLiteStatus Invoke();

  // Optional scratch buffers (RequestOptionalScratchBufferInArena) come from
  // `pool` (a test's own buffer) while it has room, for every runner created
  // after the call; without a pool (the default) they are absent, as in an
  // arena without room for them.
  static void SetOptionalScratchPool(void* pool, size_t bytes);

  // Bytes of arena memory used so far (persistent + scratch).
  size_t arena_used() const { return used_; }
  TfLiteContext* context() { return &context_; }
  TfLiteNode* node() { return &node_; }

 private:
  static void* AllocatePersistent(TfLiteContext* context, size_t bytes);
  static TfLiteStatus RequestScratch(TfLiteContext* context, size_t bytes, int* index);
  static TfLiteStatus RequestOptionalScratch(TfLiteContext* context, size_t bytes, int* index);
  static void* GetScratch(TfLiteContext* context, int index);
  void* Allocate(size_t bytes);
  // Whether every scratch slot is taken (logged); the next slot's buffer p
  // (nullptr: an optional one without room) and its index.
  bool ScratchFull() const;
  TfLiteStatus AddScratch(void* p, int* index);

  TfLiteRegistration registration_;
  TfLiteContext context_;
  TfLiteNode node_;
  const void* custom_data_;
  size_t custom_size_;
  size_t used_;
  void* scratch_[kMaxScratchBuffers];
  int scratch_count_;
  size_t pool_used_;
  bool initialized_;
  bool prepared_;
};

// One call for the common test shape: a runner over `tensors`, then
// InitAndPrepare and, if that succeeded, Invoke; returns the first failure.
TfLiteStatus RunKernel(const TfLiteRegistration& registration, TfLiteTensor* tensors,
                       int tensors_size, const TfLiteIntArray* inputs,
                       const TfLiteIntArray* outputs, const void* builtin_data,
                       const void* custom_data = nullptr, size_t custom_size = 0);

// RunKernel for a node with input tensor 0 and output tensor 1.
TfLiteStatus RunUnaryKernel(const TfLiteRegistration& registration, TfLiteTensor input,
                            TfLiteTensor output, const void* builtin_data = nullptr,
                            const void* custom_data = nullptr, size_t custom_size = 0);

// RunKernel for a node with inputs 0, 1 and output 2.
TfLiteStatus RunBinaryKernel(const TfLiteRegistration& registration, TfLiteTensor input1,
                             TfLiteTensor input2, TfLiteTensor output, const void* builtin_data);

// RunKernel for a node whose inputs are tensors[0 .. num_inputs-1] (at most
// 15) and whose one output is tensors[num_inputs].
TfLiteStatus RunKernelOnTensors(const TfLiteRegistration& registration, TfLiteTensor* tensors, int num_inputs,
                                const void* builtin_data = nullptr);

#endif  // MICRO_RUNTIME_TESTING_KERNEL_RUNNER_H_
