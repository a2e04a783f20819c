#include "micro_runtime/micro_interpreter.h"

#include "micro_runtime/builtin_parser.h"
#include "micro_runtime/micro_log.h"
#include "micro_runtime/model_verifier.h"

namespace micro_runtime {

namespace {

// Shape of scalars and of absent index lists; layout == Vector<int32>.
const TfLiteIntArray kEmptyIntArray = {0, {0}};

const TfLiteIntArray* AsIntArray(const flatbuffers::Vector<int32_t>* v) {
  // A flatbuffers vector is a uint32 length followed by the elements, which
  // is exactly TfLiteIntArray's layout, so shapes and index lists are used
  // in place.
  return v != nullptr ? reinterpret_cast<const TfLiteIntArray*>(reinterpret_cast<const uint8_t*>(v->data()) -
                                                                 sizeof(uint32_t))
                      : &kEmptyIntArray;
}

}  // namespace

MicroInterpreter::MicroInterpreter(const uint8_t* model_data, size_t model_size, const MicroOpResolver& resolver,
                                   uint8_t* arena, size_t arena_size)
    : model_data_(model_data),
      model_(VerifyModel(model_data, model_size)),
      graph_(model_ != nullptr ? model_->subgraphs()->Get(0) : nullptr),
      resolver_(resolver),
      context_(),
      nodes_(nullptr),
      num_nodes_(0),
      initialized_nodes_(0),
      current_op_(-1),
      state_(State::kUnallocated) {
  allocator_.Init(arena, arena != nullptr ? arena_size : 0);
  context_.tensors = nullptr;
  context_.tensors_size = 0;
  context_.AllocatePersistentBuffer = ContextAllocatePersistent;
  context_.RequestScratchBufferInArena = ContextRequestScratch;
  context_.GetScratchBuffer = ContextGetScratch;
  context_.RequestOptionalScratchBufferInArena = ContextRequestOptionalScratch;
  context_.impl = this;
}

MicroInterpreter::~MicroInterpreter() { FreeOps(); }

void MicroInterpreter::FreeOp(size_t i) {
  const TfLiteRegistration* reg = nodes_[i].registration;
  if (reg != nullptr && reg->free != nullptr) reg->free(&context_, nodes_[i].node.user_data);
}

void MicroInterpreter::FreeOps() {
  for (size_t i = 0; i < initialized_nodes_; ++i) FreeOp(i);
  initialized_nodes_ = 0;
}

void MicroInterpreter::Fail() {
  FreeOps();
  nodes_ = nullptr;
  num_nodes_ = 0;
  context_.tensors = nullptr;
  context_.tensors_size = 0;
  current_op_ = -1;
  state_ = State::kFailed;
}

const char* MicroInterpreter::OpName(int op_index, char* buffer, size_t size) const {
  const tflite::Operator* op = graph_->operators()->Get(static_cast<flatbuffers::uoffset_t>(op_index));
  const tflite::OperatorCode* code = model_->operator_codes()->Get(op->opcode_index());
  const int32_t builtin = EffectiveBuiltinCode(code);
  if (builtin == static_cast<int32_t>(tflite::BuiltinOperator::CUSTOM)) return code->custom_code()->c_str();
  const char* name = BuiltinOperatorName(builtin);
  if (name != nullptr) return name;
  MicroSnprintf(buffer, size, "builtin %d", static_cast<int>(builtin));
  return buffer;
}

void* MicroInterpreter::ParserAllocate(void* self, size_t bytes) {
  // Out of memory is reported once, by AllocateTensors.
  return static_cast<MicroInterpreter*>(self)->allocator_.AllocatePersistent(bytes);
}

void* MicroInterpreter::ContextAllocatePersistent(TfLiteContext* context, size_t bytes) {
  MicroInterpreter* self = static_cast<MicroInterpreter*>(context->impl);
  if (self->state_ != State::kInitializing && self->state_ != State::kPreparing) {
    MicroPrintf("AllocatePersistentBuffer is only available during init and prepare");
    return nullptr;
  }
  // Out of memory is reported once by AllocateTensors after the op returns.
  return self->allocator_.AllocatePersistent(bytes);
}

TfLiteStatus MicroInterpreter::RequestScratch(size_t bytes, int* buffer_index, bool optional) {
  if (state_ != State::kPreparing) {
    MicroPrintf("RequestScratchBufferInArena is only available during prepare");
    return kTfLiteError;
  }
  return allocator_.RequestScratch(bytes, current_op_, buffer_index, optional);
}

TfLiteStatus MicroInterpreter::ContextRequestScratch(TfLiteContext* context, size_t bytes, int* buffer_index) {
  return static_cast<MicroInterpreter*>(context->impl)->RequestScratch(bytes, buffer_index, false);
}

TfLiteStatus MicroInterpreter::ContextRequestOptionalScratch(TfLiteContext* context, size_t bytes,
                                                             int* buffer_index) {
  return static_cast<MicroInterpreter*>(context->impl)->RequestScratch(bytes, buffer_index, true);
}

void* MicroInterpreter::ContextGetScratch(TfLiteContext* context, int buffer_index) {
  MicroInterpreter* self = static_cast<MicroInterpreter*>(context->impl);
  if (self->state_ != State::kReady) return nullptr;
  return self->allocator_.GetScratch(buffer_index);
}

TfLiteStatus MicroInterpreter::InitTensors() {
  const auto* tensors = graph_->tensors();
  const size_t count = tensors != nullptr ? tensors->size() : 0;
  TfLiteTensor* out = nullptr;
  if (count > 0) {
    out = static_cast<TfLiteTensor*>(allocator_.AllocatePersistent(count * sizeof(TfLiteTensor)));
    if (out == nullptr) return kTfLiteError;  // out of memory: AllocateTensors reports it
  }
  for (size_t i = 0; i < count; ++i) {
    const tflite::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(i));
    TfLiteTensor& tensor = out[i];
    tensor.type = static_cast<TfLiteType>(t->type());
    tensor.dims = AsIntArray(t->shape());
    TensorByteSize(t, &tensor.bytes);  // checked by the verifier
    size_t data_bytes = 0;
    const uint8_t* constant = BufferData(model_, model_data_, t->buffer(), &data_bytes);
    tensor.data.raw_const = constant;
    tensor.is_constant = constant != nullptr;
    tensor.params.scale = 0.0f;
    tensor.params.zero_point = 0;
    tensor.params.scales = nullptr;
    tensor.quantized_dimension = 0;
    const tflite::QuantizationParameters* q = t->quantization();
    if (q != nullptr && q->scale() != nullptr && q->scale()->size() > 0) {
      tensor.params.scale = q->scale()->Get(0);
      if (q->zero_point() != nullptr && q->zero_point()->size() > 0) {
        tensor.params.zero_point = static_cast<int32_t>(q->zero_point()->Get(0));
      }
      if (q->scale()->size() > 1) {
        // Vector<float> has TfLiteFloatArray's layout: use it in place.
        tensor.params.scales = reinterpret_cast<const TfLiteFloatArray*>(
            reinterpret_cast<const uint8_t*>(q->scale()->data()) - sizeof(uint32_t));
        // Kernels check the axis against the shape; a value beyond int16 is
        // out of any shape's range either way.
        const int32_t axis = q->quantized_dimension();
        tensor.quantized_dimension = static_cast<int16_t>(axis < -32768 ? -32768 : (axis > 32767 ? 32767 : axis));
      }
    }
  }
  context_.tensors = out;
  context_.tensors_size = count;
  return kTfLiteOk;
}

TfLiteStatus MicroInterpreter::InitNodes() {
  const auto* ops = graph_->operators();
  const size_t count = ops != nullptr ? ops->size() : 0;
  if (count > 0) {
    nodes_ = static_cast<NodeEntry*>(allocator_.AllocatePersistent(count * sizeof(NodeEntry)));
    if (nodes_ == nullptr) return kTfLiteError;  // out of memory: AllocateTensors reports it
  }
  num_nodes_ = count;
  for (size_t i = 0; i < count; ++i) {
    const tflite::Operator* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
    const tflite::OperatorCode* code = model_->operator_codes()->Get(op->opcode_index());
    const int32_t builtin = EffectiveBuiltinCode(code);
    const bool is_custom = builtin == static_cast<int32_t>(tflite::BuiltinOperator::CUSTOM);
    NodeEntry& entry = nodes_[i];
    entry.node.inputs = AsIntArray(op->inputs());
    entry.node.outputs = AsIntArray(op->outputs());
    entry.node.builtin_data = nullptr;
    entry.node.user_data = nullptr;
    entry.node.custom_initial_data = nullptr;
    entry.node.custom_initial_data_size = 0;
    entry.registration =
        resolver_.Find(builtin, is_custom ? code->custom_code()->c_str() : nullptr, code->version());
    if (entry.registration == nullptr) return kTfLiteError;  // the resolver said why
    if (is_custom) {
      if (op->custom_options() != nullptr) {
        entry.node.custom_initial_data = op->custom_options()->data();
        entry.node.custom_initial_data_size = static_cast<int32_t>(op->custom_options()->size());
      }
    } else {
      TF_LITE_ENSURE_OK(&context_, ParseBuiltinOptions(op, builtin, static_cast<int>(i),
                                                                      ParserAllocate, this,
                                                                      &entry.node.builtin_data));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus MicroInterpreter::InitOp(size_t i) {
  NodeEntry& entry = nodes_[i];
  state_ = State::kInitializing;
  current_op_ = static_cast<int>(i);
  if (entry.registration->init != nullptr) {
    const char* data = static_cast<const char*>(entry.node.custom_initial_data);
    entry.node.user_data =
        entry.registration->init(&context_, data, static_cast<size_t>(entry.node.custom_initial_data_size));
  }
  initialized_nodes_ = i + 1;
  return allocator_.out_of_memory() ? kTfLiteError : kTfLiteOk;
}

TfLiteStatus MicroInterpreter::PrepareOp(size_t i) {
  NodeEntry& entry = nodes_[i];
  state_ = State::kPreparing;
  current_op_ = static_cast<int>(i);
  const TfLiteStatus status =
      entry.registration->prepare != nullptr ? entry.registration->prepare(&context_, &entry.node) : kTfLiteOk;
  // Out of memory is reported by AllocateTensors, with what the model needs.
  if (allocator_.out_of_memory()) return kTfLiteError;
  if (status != kTfLiteOk) {
    char name[16];
    MicroPrintf("operator %d (%s) failed to prepare", static_cast<int>(i),
                OpName(static_cast<int>(i), name, sizeof(name)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus MicroInterpreter::AllocateSteps() {
  TF_LITE_ENSURE_OK(&context_, InitTensors());
  TF_LITE_ENSURE_OK(&context_, InitNodes());
  for (size_t i = 0; i < num_nodes_; ++i) TF_LITE_ENSURE_OK(&context_, InitOp(i));
  for (size_t i = 0; i < num_nodes_; ++i) TF_LITE_ENSURE_OK(&context_, PrepareOp(i));
  current_op_ = -1;

  TF_LITE_ENSURE_OK(&context_, allocator_.Commit(model_, graph_, context_.tensors, context_.tensors_size));

  ZeroVariableTensors();
  return kTfLiteOk;
}

void MicroInterpreter::ZeroVariableTensors() {
  for (size_t i = 0; i < context_.tensors_size; ++i) {
    TfLiteTensor& t = context_.tensors[i];
    if (t.data.raw != nullptr && !t.is_constant &&
        graph_->tensors()->Get(static_cast<flatbuffers::uoffset_t>(i))->is_variable()) {
      // An int8 state starts at its zero point (real 0), as in TFLM; any
      // other type at all-zero bytes.
      const uint8_t value = t.type == kTfLiteInt8 ? static_cast<uint8_t>(t.params.zero_point) : 0;
      uint8_t* bytes = t.data.uint8;
      for (size_t b = 0; b < t.bytes; ++b) bytes[b] = value;
    }
  }
}

TfLiteStatus MicroInterpreter::ResetVariableTensors() {
  if (state_ != State::kReady) {
    MicroPrintf("ResetVariableTensors() before a successful AllocateTensors()");
    return kTfLiteError;
  }
  ZeroVariableTensors();
  return kTfLiteOk;
}

size_t MicroInterpreter::MeasureArena() {
  // The same steps with each op's persistent memory given back after its
  // prepare (counted, not kept), so the arena only has to hold the tensor
  // and node tables, the options and one op's data at a time; then the plan.
  allocator_.Reset();
  if (InitTensors() != kTfLiteOk || InitNodes() != kTfLiteOk) return 0;
  const size_t mark = allocator_.Mark();
  for (size_t i = 0; i < num_nodes_; ++i) {
    const bool ok = InitOp(i) == kTfLiteOk && PrepareOp(i) == kTfLiteOk;
    // Free this op before its memory is reused (earlier ops are freed already).
    FreeOp(i);
    initialized_nodes_ = 0;
    nodes_[i].node.user_data = nullptr;
    if (!ok) return 0;
    allocator_.Release(mark);
  }
  current_op_ = -1;
  return allocator_.MeasuredBytes(model_, graph_, context_.tensors, context_.tensors_size);
}

void MicroInterpreter::ReportArenaTooSmall() {
  const unsigned given = static_cast<unsigned>(allocator_.arena_size());
  const size_t needed = MeasureArena();
  if (needed > 0) {
    MicroPrintf("arena too small: this model needs %u bytes (given %u); make the arena at least %u bytes",
                static_cast<unsigned>(needed), given, static_cast<unsigned>(needed));
    return;
  }
  // The arena cannot even hold the tensor and node tables and one op's data
  // at a time, or a later op failed for another reason (logged above): only
  // a lower bound is known.
  const size_t at_least = allocator_.LowerBoundBytes();
  MicroPrintf("arena too small: this model needs at least %u bytes (given %u); with that much, the exact "
              "total is reported if it is still short",
              static_cast<unsigned>(at_least > given ? at_least : given + 1u), given);
}

TfLiteStatus MicroInterpreter::AllocateTensors() {
  if (model_ == nullptr) {
    MicroPrintf("AllocateTensors: the model was rejected when the interpreter was created (see the error above)");
    return kTfLiteError;
  }
  if (allocator_.arena_size() == 0) {
    MicroPrintf("AllocateTensors: no arena; pass a non-null byte array and its size to the MicroInterpreter");
    return kTfLiteError;
  }
  if (state_ == State::kReady) return kTfLiteOk;
  if (state_ == State::kFailed) Fail();  // forget the previous attempt
  allocator_.Reset();
  if (AllocateSteps() != kTfLiteOk) {
    const bool out_of_memory = allocator_.out_of_memory();
    Fail();
    if (out_of_memory) {
      ReportArenaTooSmall();
      Fail();
    }
    allocator_.Reset();
    return kTfLiteError;
  }
  state_ = State::kReady;
  return kTfLiteOk;
}

#if MICRO_RUNTIME_OP_MARKERS
// Markers around each operator's invoke (make OP_MARKERS=1 only): benchmarks/profile_target.py --per-op has
// the QEMU counting plugin note the instructions and estimated cycles from each _begin to its _end. noipa
// keeps them out of line, apart (no identical-code folding) and their calls in place under LTO.
extern "C" __attribute__((noipa)) void micro_runtime_op_begin(void) { __asm__ volatile("" ::: "memory"); }
extern "C" __attribute__((noipa)) void micro_runtime_op_end(void) { __asm__ volatile("" ::: "memory"); }
#define MR_OP_BEGIN() micro_runtime_op_begin()
#define MR_OP_END() micro_runtime_op_end()
#else
#define MR_OP_BEGIN()
#define MR_OP_END()
#endif

TfLiteStatus MicroInterpreter::Invoke() {
  if (state_ != State::kReady) {
    MicroPrintf("Invoke() called without a successful AllocateTensors(); call AllocateTensors() first and check "
                "its status");
    return kTfLiteError;
  }
  char name[16];
  for (size_t i = 0; i < num_nodes_; ++i) {
    NodeEntry& entry = nodes_[i];
    if (entry.registration->invoke == nullptr) continue;
    // An operator whose outputs are all empty has nothing to compute, but its
    // loops may still walk huge zero-byte shapes (a fuzzed [1,7,8847368,0]
    // pooling ran for minutes): skip it.
    bool has_output = entry.node.outputs == nullptr || entry.node.outputs->size == 0;
    for (int o = 0; !has_output && o < entry.node.outputs->size; ++o) {
      const int t = entry.node.outputs->data[o];
      has_output = t < 0 || context_.tensors[t].bytes > 0;
    }
    if (!has_output) continue;
    MR_OP_BEGIN();
    const TfLiteStatus status = entry.registration->invoke(&context_, &entry.node);
    MR_OP_END();
    if (status != kTfLiteOk) {
      MicroPrintf("operator %d (%s) failed to invoke", static_cast<int>(i),
                  OpName(static_cast<int>(i), name, sizeof(name)));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteTensor* MicroInterpreter::IoTensor(const flatbuffers::Vector<int32_t>* list, size_t index, const char* what) {
  if (state_ != State::kReady) {
    MicroPrintf("%s(%u) called without a successful AllocateTensors()", what, static_cast<unsigned>(index));
    return nullptr;
  }
  const size_t size = list != nullptr ? list->size() : 0;
  if (index >= size) {
    MicroPrintf("%s(%u): the model has %u %ss", what, static_cast<unsigned>(index), static_cast<unsigned>(size),
                what);
    return nullptr;
  }
  return &context_.tensors[list->Get(static_cast<flatbuffers::uoffset_t>(index))];
}

TfLiteTensor* MicroInterpreter::input(size_t index) {
  return IoTensor(graph_ != nullptr ? graph_->inputs() : nullptr, index, "input");
}

TfLiteTensor* MicroInterpreter::output(size_t index) {
  return IoTensor(graph_ != nullptr ? graph_->outputs() : nullptr, index, "output");
}

TfLiteTensor* MicroInterpreter::tensor(size_t index) {
  if (state_ != State::kReady || index >= context_.tensors_size) return nullptr;
  return &context_.tensors[index];
}

size_t MicroInterpreter::inputs_size() const {
  return graph_ != nullptr && graph_->inputs() != nullptr ? graph_->inputs()->size() : 0;
}

size_t MicroInterpreter::outputs_size() const {
  return graph_ != nullptr && graph_->outputs() != nullptr ? graph_->outputs()->size() : 0;
}

size_t MicroInterpreter::tensors_size() const {
  return graph_ != nullptr && graph_->tensors() != nullptr ? graph_->tensors()->size() : 0;
}

size_t MicroInterpreter::operators_size() const {
  return graph_ != nullptr && graph_->operators() != nullptr ? graph_->operators()->size() : 0;
}

}  // namespace micro_runtime
