// Runs a .tflite model from memory (flash) with all working memory in one
// caller-provided arena. No heap, no exceptions, no stdio.
//
//   alignas(16) static uint8_t arena[8 * 1024];
//   static MicroMutableOpResolver<2> resolver;        // or AllOpsResolver
//   resolver.AddBuiltin(tflite::BuiltinOperator::FULLY_CONNECTED,
//                       Register_FULLY_CONNECTED(), 1, 4);
//   MicroInterpreter interpreter(g_model_data, g_model_data_size, resolver,
//                                arena, sizeof(arena));
//   if (interpreter.AllocateTensors() != kTfLiteOk) return;  // error logged
//   interpreter.input(0)->data.f[0] = 1.0f;
//   if (interpreter.Invoke() != kTfLiteOk) return;
//   float y = interpreter.output(0)->data.f[0];
//
// The constructor verifies the model bytes (initialization_status() reports
// the result); AllocateTensors() resolves every op against the resolver
// (with version checks), parses options, runs each op's init and prepare and
// plans the arena; Invoke() runs the ops in order. Every failure logs one
// line through MicroPrintf and returns kTfLiteError; nothing aborts. After a
// failed AllocateTensors() the interpreter stays safe: Invoke() fails,
// input()/output() return nullptr.
//
// Lifetime: the model bytes, the resolver and the arena must outlive the
// interpreter. Constant tensors point into the model bytes (no copies);
// tensor shapes point into the model's flatbuffer.
#ifndef MICRO_RUNTIME_MICRO_INTERPRETER_H_
#define MICRO_RUNTIME_MICRO_INTERPRETER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/micro_allocator.h"
#include "micro_runtime/micro_op_resolver.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

class MicroInterpreter {
 public:
  MicroInterpreter(const uint8_t* model_data, size_t model_size, const MicroOpResolver& resolver, uint8_t* arena,
                   size_t arena_size);
  ~MicroInterpreter();
  MicroInterpreter(const MicroInterpreter&) = delete;
  MicroInterpreter& operator=(const MicroInterpreter&) = delete;

  // kTfLiteOk when the model bytes passed verification.
  TfLiteStatus initialization_status() const { return model_ != nullptr ? kTfLiteOk : kTfLiteError; }

  // Idempotent once it succeeded; after a failure it may be called again
  // (it starts over and fails the same way unless something changed).
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  // Zeroes every variable tensor (the state SVDF and LSTM carry from one
  // Invoke() to the next), as AllocateTensors() left them: the next Invoke()
  // starts a fresh sequence. kTfLiteError before a successful
  // AllocateTensors().
  TfLiteStatus ResetVariableTensors();

  // Model inputs/outputs in subgraph order; nullptr when out of range or
  // before a successful AllocateTensors().
  TfLiteTensor* input(size_t index);
  TfLiteTensor* output(size_t index);
  // Any tensor by model index (same rules).
  TfLiteTensor* tensor(size_t index);
  size_t inputs_size() const;
  size_t outputs_size() const;
  size_t tensors_size() const;
  size_t operators_size() const;

  // Smallest arena size (same arena start) that holds what this
  // interpreter allocated; valid after a successful AllocateTensors().
  size_t arena_used_bytes() const { return allocator_.used_bytes(); }
  // The two parts of it (the rest is alignment padding, < 24 bytes):
  // persistent memory (tensor and node tables, options, op data, scratch
  // pointers) and the planned activation memory (non-constant tensors and
  // scratch buffers shared by lifetime, or the planner's bookkeeping when
  // that is larger).
  size_t arena_persistent_bytes() const { return allocator_.persistent_bytes(); }
  size_t arena_activation_bytes() const { return allocator_.head_bytes(); }

  // Logs the memory plan during the next AllocateTensors().
  void set_verbose_planning(bool verbose) { allocator_.set_verbose(verbose); }

 private:
  enum class State : uint8_t { kUnallocated, kInitializing, kPreparing, kReady, kFailed };

  struct NodeEntry {
    TfLiteNode node;
    const TfLiteRegistration* registration;
  };

  static void* ContextAllocatePersistent(TfLiteContext* context, size_t bytes);
  static TfLiteStatus ContextRequestScratch(TfLiteContext* context, size_t bytes, int* buffer_index);
  static TfLiteStatus ContextRequestOptionalScratch(TfLiteContext* context, size_t bytes, int* buffer_index);
  TfLiteStatus RequestScratch(size_t bytes, int* buffer_index, bool optional);
  static void* ContextGetScratch(TfLiteContext* context, int buffer_index);
  static void* ParserAllocate(void* self, size_t bytes);

  TfLiteStatus AllocateSteps();
  void ZeroVariableTensors();
  TfLiteStatus InitTensors();
  TfLiteStatus InitNodes();
  TfLiteStatus InitOp(size_t i);
  TfLiteStatus PrepareOp(size_t i);
  // Dry run after an out-of-memory failure: the arena size the whole model
  // needs, or 0 when that could not be measured.
  size_t MeasureArena();
  // Logs "arena too small: this model needs N bytes (given M); ...".
  void ReportArenaTooSmall();
  void FreeOp(size_t i);
  void FreeOps();
  void Fail();
  const char* OpName(int op_index, char* buffer, size_t size) const;
  TfLiteTensor* IoTensor(const flatbuffers::Vector<int32_t>* list, size_t index, const char* what);

  const uint8_t* model_data_;
  const tflite::Model* model_;
  const tflite::SubGraph* graph_;
  const MicroOpResolver& resolver_;
  MicroAllocator allocator_;
  TfLiteContext context_;
  NodeEntry* nodes_;
  size_t num_nodes_;
  size_t initialized_nodes_;  // nodes whose init ran (their free is due)
  int current_op_;
  State state_;
};

}  // namespace micro_runtime

// Public API: applications name it unqualified, as before the runtime had one namespace.
using micro_runtime::MicroInterpreter;

#endif  // MICRO_RUNTIME_MICRO_INTERPRETER_H_
