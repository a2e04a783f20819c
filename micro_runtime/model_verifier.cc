#include "micro_runtime/model_verifier.h"

#include <float.h>
#include <stdarg.h>

#include "micro_runtime/micro_log.h"
#include "micro_runtime/model_structure.h"

namespace micro_runtime {
namespace {

constexpr uint64_t kMaxTensorBytes = 0x7fffffffu;

const char* TensorName(const tflite::Tensor* t) {
  return (t->name() != nullptr) ? t->name()->c_str() : "";
}

bool ExternalBuffer(const tflite::Buffer* b) { return b->offset() > 1 && b->size() > 0; }

// ---- Semantics ----
//
// Messages share their common parts (the tensor prefix, the "corrupt"
// ending) as arguments so each piece is stored once in flash.

constexpr char kCorrupt[] = "; the model is corrupt";
constexpr char kRuntimeName[] = "micro_runtime";

// Logs "tensor <index> ('<name>')" followed by the formatted rest.
__attribute__((format(printf, 3, 4))) void TensorError(int index, const tflite::Tensor* t, const char* format,
                                                        ...) {
  char rest[160];
  va_list args;
  va_start(args, format);
  MicroVsnprintf(rest, sizeof(rest), format, args);
  va_end(args);
  MicroPrintf("tensor %d ('%s')%s", index, TensorName(t), rest);
}

bool CheckCount(uint32_t count, uint32_t limit, const char* what) {
  if (count <= limit) return true;
  MicroPrintf("model has %u %s; %s supports up to %u", static_cast<unsigned>(count), what, kRuntimeName,
              static_cast<unsigned>(limit));
  return false;
}

bool CheckBuffers(const tflite::Model* model, size_t size) {
  const auto* buffers = model->buffers();
  const uint32_t count = buffers != nullptr ? buffers->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    const tflite::Buffer* b = buffers->Get(i);
    if (!ExternalBuffer(b)) continue;
    const uint64_t offset = b->offset();
    const uint64_t bytes = b->size();
    if (offset > size || bytes > size - offset) {
      MicroPrintf(
          "buffer %d is stored outside the flatbuffer at offset %u, %u bytes, past the end of the %u-byte "
          "model; pass the whole .tflite file including its appended buffers",
          static_cast<int>(i), static_cast<unsigned>(offset), static_cast<unsigned>(bytes),
          static_cast<unsigned>(size));
      return false;
    }
    if (b->data() != nullptr && b->data()->size() > 0) {
      MicroPrintf("buffer %d has both inline data and an external offset; re-export the model",
                  static_cast<int>(i));
      return false;
    }
  }
  return true;
}

bool CheckOpcodes(const tflite::Model* model) {
  const auto* codes = model->operator_codes();
  const uint32_t count = codes != nullptr ? codes->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    const tflite::OperatorCode* code = codes->Get(i);
    const int32_t builtin = EffectiveBuiltinCode(code);
    if (builtin < 0) {
      MicroPrintf("operator code %d has a negative builtin code %d%s", static_cast<int>(i),
                  static_cast<int>(builtin), kCorrupt);
      return false;
    }
    if (builtin == static_cast<int32_t>(tflite::BuiltinOperator::CUSTOM) && code->custom_code() == nullptr) {
      MicroPrintf("operator code %d is CUSTOM but has no custom_code name%s", static_cast<int>(i), kCorrupt);
      return false;
    }
  }
  return true;
}

bool CheckQuantization(const tflite::Tensor* t, int index) {
  const tflite::QuantizationParameters* q = t->quantization();
  if (q == nullptr) return true;
  if (q->details_type() != tflite::QuantizationDetails::NONE) {
    TensorError(index, t, " uses custom quantization, which %s does not support", kRuntimeName);
    return false;
  }
  const auto* scale = q->scale();
  const auto* zero_point = q->zero_point();
  const uint32_t channels = scale != nullptr ? scale->size() : 0;
  if (channels == 0) return true;  // not quantized (min/max only, or empty)
  // Kernels add the zero point to stored values in int32 arithmetic; one
  // outside the element type's range overflows there (found by fuzzing).
  int32_t zp_min = INT32_MIN;
  int32_t zp_max = INT32_MAX;
  const tflite::TensorType type = t->type();
  const bool integer = type == tflite::TensorType::INT8 || type == tflite::TensorType::UINT8 ||
                       type == tflite::TensorType::INT16;
  if (type == tflite::TensorType::INT8) zp_min = -128, zp_max = 127;
  if (type == tflite::TensorType::UINT8) zp_min = 0, zp_max = 255;
  if (type == tflite::TensorType::INT16) zp_min = -32768, zp_max = 32767;
  if (zero_point != nullptr) {
    if (zero_point->size() != channels) {
      TensorError(index, t, " has %d scales but %d zero points; they must match", static_cast<int>(channels),
                  static_cast<int>(zero_point->size()));
      return false;
    }
    // The flatbuffers verifier only checks 4-byte alignment of vectors; an
    // int64 read from a misaligned address faults on Cortex-M (LDRD).
    if ((reinterpret_cast<uintptr_t>(zero_point->data()) % 8) != 0) {
      TensorError(index, t, " has a misaligned zero_point vector%s", kCorrupt);
      return false;
    }
    const int64_t first = zero_point->Get(0);
    for (uint32_t c = 0; c < channels; ++c) {
      const int64_t zp = zero_point->Get(c);
      if (zp != first) {
        TensorError(index, t,
                    " has different zero points per channel; %s needs them equal "
                    "(symmetric per-channel quantization)",
                    kRuntimeName);
        return false;
      }
    }
    if (first < INT32_MIN || first > INT32_MAX) {
      TensorError(index, t, " has a zero point outside int32");
      return false;
    }
    if (first < zp_min || first > zp_max) {
      TensorError(index, t, " has zero point %d outside its type's range [%d, %d]%s", static_cast<int>(first),
                  static_cast<int>(zp_min), static_cast<int>(zp_max), kCorrupt);
      return false;
    }
  }
  // Requantization divides by and takes logarithms of integer tensors'
  // scales: NaN, infinite, zero or negative ones are never valid there.
  for (uint32_t c = 0; integer && c < channels; ++c) {
    const float s = scale->Get(c);
    if (!(s > 0.0f && s <= FLT_MAX)) {
      TensorError(index, t, " has quantization scale %f (channel %d); scales must be finite and positive",
                  static_cast<double>(s), static_cast<int>(c));
      return false;
    }
  }
  // The axis and count of per-channel scales are checked where they are read: the ops that
  // use them (filters of CONV_2D/DEPTHWISE_CONV_2D/FULLY_CONNECTED, QUANTIZE's output) check
  // them in Prepare. Elsewhere, e.g. on an int32 bias, TFLM ignores them, and so do we.
  return true;
}

bool CheckTensor(const tflite::Model* model, const uint8_t* data, const tflite::Tensor* t, int index,
                 uint32_t num_buffers) {
  const TfLiteType type = static_cast<TfLiteType>(t->type());
  if (TypeSize(type) == 0) {  // exactly the types kernels can hold
    TensorError(index, t,
                " has type %d, which %s does not support "
                "(supported: FLOAT32, FLOAT16, INT32, UINT8, INT64, BOOL, INT16, INT8)",
                static_cast<int>(type), kRuntimeName);
    return false;
  }
  const auto* shape = t->shape();
  const uint32_t rank = shape != nullptr ? shape->size() : 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (shape->Get(d) < 0) {
      TensorError(index, t,
                  " has dynamic or negative dimension %d (%d); %s needs static shapes: re-convert with fixed "
                  "input sizes",
                  static_cast<int>(d), static_cast<int>(shape->Get(d)), kRuntimeName);
      return false;
    }
  }
  size_t bytes = 0;
  if (!TensorByteSize(t, &bytes)) {
    TensorError(index, t, " is larger than 2 GB%s", kCorrupt);
    return false;
  }
  const uint32_t buffer = t->buffer();
  if (buffer >= num_buffers && !(buffer == 0 && num_buffers == 0)) {
    TensorError(index, t, " refers to buffer %u but the model has %u buffers%s", static_cast<unsigned>(buffer),
                static_cast<unsigned>(num_buffers), kCorrupt);
    return false;
  }
  size_t data_bytes = 0;
  const uint8_t* constant = BufferData(model, data, buffer, &data_bytes);
  if (constant != nullptr) {
    if (data_bytes != bytes) {
      TensorError(index, t, " has %u bytes of constant data but its shape and type need %u bytes",
                  static_cast<unsigned>(data_bytes), static_cast<unsigned>(bytes));
      return false;
    }
    // 4-byte alignment for every multi-byte type: the flatbuffer's own vector
    // alignment, which a converter cannot be asked to exceed. int64 data (16x8
    // biases) may sit at 4 mod 8 in a real .tflite file; the kernels read
    // int64 constants through LoadInt64 or Int64Words copies (kernel_util.h, data_movement.h),
    // which need no more than 4.
    const size_t item = TypeSize(type);
    const uintptr_t alignment = item > 1 ? 4 : 1;
    if ((reinterpret_cast<uintptr_t>(constant) % alignment) != 0) {
      // The model bytes start 4-byte aligned (checked before), so the buffer's
      // own offset in the file is the misaligned part.
      TensorError(index, t,
                  ": constant data at byte %u of the model is not 4-byte aligned (its buffer's offset in the file); "
                  "re-export the model",
                  static_cast<unsigned>(constant - data));
      return false;
    }
  }
  return CheckQuantization(t, index);
}

// `owner` is "operator <n>:" or "subgraph".
bool CheckIndexList(const flatbuffers::Vector<int32_t>* list, uint32_t num_tensors, bool allow_optional,
                    const char* what, const char* owner) {
  const uint32_t count = list != nullptr ? list->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t index = list->Get(i);
    if (index == -1 && allow_optional) continue;
    if (index < 0 || static_cast<uint32_t>(index) >= num_tensors) {
      MicroPrintf("%s %s %d refers to tensor %d but the subgraph has %u tensors%s", owner, what, static_cast<int>(i),
                  static_cast<int>(index), static_cast<unsigned>(num_tensors), kCorrupt);
      return false;
    }
  }
  return true;
}

// Tensor `index` (in range) when it holds constant data, i.e. its bytes are in the model; else nullptr.
const tflite::Tensor* ConstantTensor(const tflite::Model* model, const uint8_t* data,
                                     const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>* tensors,
                                     int32_t index) {
  const tflite::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(index));
  size_t bytes = 0;
  return BufferData(model, data, t->buffer(), &bytes) != nullptr ? t : nullptr;
}

bool CheckOperators(const tflite::Model* model, const uint8_t* data, const tflite::SubGraph* graph) {
  const auto* tensors = graph->tensors();
  const uint32_t num_tensors = tensors != nullptr ? tensors->size() : 0;
  const uint32_t num_codes = model->operator_codes() != nullptr ? model->operator_codes()->size() : 0;
  if (!CheckIndexList(graph->inputs(), num_tensors, false, "input", "subgraph") ||
      !CheckIndexList(graph->outputs(), num_tensors, false, "output", "subgraph")) {
    return false;
  }
  // The application writes the graph's inputs; a constant one's data is in the model, read-only flash on a
  // board (a HardFault there, SIGSEGV on host). TFLM accepts such models; refuse them.
  const auto* inputs = graph->inputs();
  const uint32_t num_inputs = inputs != nullptr ? inputs->size() : 0;
  for (uint32_t i = 0; i < num_inputs; ++i) {
    const int32_t tensor_index = inputs->Get(i);
    if (const tflite::Tensor* t = ConstantTensor(model, data, tensors, tensor_index)) {
      MicroPrintf("subgraph input %d is tensor %d ('%s'), which is constant: its data is in the model (read-only "
                  "flash on a board), where the application would write the input%s",
                  static_cast<int>(i), static_cast<int>(tensor_index), TensorName(t), kCorrupt);
      return false;
    }
  }
  const auto* ops = graph->operators();
  const uint32_t count = ops != nullptr ? ops->size() : 0;
  if (!CheckCount(count, kMaxOperators, "operators")) return false;
  for (uint32_t i = 0; i < count; ++i) {
    const tflite::Operator* op = ops->Get(i);
    const int index = static_cast<int>(i);
    if (op->opcode_index() >= num_codes) {
      MicroPrintf("operator %d uses operator code %u but the model has %u%s", index,
                  static_cast<unsigned>(op->opcode_index()), static_cast<unsigned>(num_codes), kCorrupt);
      return false;
    }
    char owner[24];
    MicroSnprintf(owner, sizeof(owner), "operator %d:", index);
    if (!CheckIndexList(op->inputs(), num_tensors, true, "input", owner) ||
        !CheckIndexList(op->outputs(), num_tensors, false, "output", owner)) {
      return false;
    }
    if (op->large_custom_options_size() > 0) {
      MicroPrintf("operator %d keeps its custom options outside the flatbuffer (models over 2 GB); "
                  "%s does not support that",
                  index, kRuntimeName);
      return false;
    }
    const auto* outputs = op->outputs();
    const uint32_t num_outputs = outputs != nullptr ? outputs->size() : 0;
    for (uint32_t o = 0; o < num_outputs; ++o) {
      const int32_t tensor_index = outputs->Get(o);
      if (const tflite::Tensor* t = ConstantTensor(model, data, tensors, tensor_index)) {
        MicroPrintf("operator %d writes tensor %d ('%s'), which is constant%s", index,
                    static_cast<int>(tensor_index), TensorName(t), kCorrupt);
        return false;
      }
    }
  }
  return true;
}

bool CheckGraph(const tflite::Model* model, const uint8_t* data, size_t size, const tflite::SubGraph* graph) {
  if (!CheckBuffers(model, size) || !CheckOpcodes(model)) return false;
  const auto* tensors = graph->tensors();
  const uint32_t count = tensors != nullptr ? tensors->size() : 0;
  if (!CheckCount(count, kMaxTensors, "tensors")) return false;
  const uint32_t num_buffers = model->buffers() != nullptr ? model->buffers()->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (!CheckTensor(model, data, tensors->Get(i), static_cast<int>(i), num_buffers)) return false;
  }
  return CheckOperators(model, data, graph);
}

}  // namespace

int32_t EffectiveBuiltinCode(const tflite::OperatorCode* code) {
  const int32_t deprecated = code->deprecated_builtin_code();
  const int32_t builtin = static_cast<int32_t>(code->builtin_code());
  return deprecated > builtin ? deprecated : builtin;
}

const uint8_t* BufferData(const tflite::Model* model, const uint8_t* model_data, uint32_t index, size_t* bytes) {
  *bytes = 0;
  const auto* buffers = model->buffers();
  if (buffers == nullptr || index >= buffers->size()) return nullptr;
  const tflite::Buffer* b = buffers->Get(index);
  if (ExternalBuffer(b)) {
    *bytes = static_cast<size_t>(b->size());
    return model_data + b->offset();
  }
  if (b->data() == nullptr || b->data()->size() == 0) return nullptr;
  *bytes = b->data()->size();
  return b->data()->data();
}

bool TensorByteSize(const tflite::Tensor* tensor, size_t* bytes) {
  uint64_t total = TypeSize(static_cast<TfLiteType>(tensor->type()));
  if (total == 0) return false;
  if (tensor->shape() != nullptr) {
    for (flatbuffers::uoffset_t d = 0; d < tensor->shape()->size(); ++d) {
      const int32_t dim = tensor->shape()->Get(d);
      if (dim < 0) return false;
      total *= static_cast<uint64_t>(dim);
      if (total > kMaxTensorBytes) return false;
    }
  }
  *bytes = static_cast<size_t>(total);
  return true;
}

const tflite::Model* VerifyModel(const uint8_t* data, size_t size) {
  if (data == nullptr) {
    MicroPrintf("model data is null; pass the model's bytes (e.g. g_model_data from model_to_cc.py)");
    return nullptr;
  }
  if (size < 8) {
    MicroPrintf("model is %u bytes, too short for a .tflite flatbuffer; pass the whole file",
                static_cast<unsigned>(size));
    return nullptr;
  }
  if ((reinterpret_cast<uintptr_t>(data) % 4) != 0) {
    MicroPrintf("model data at %p is not 4-byte aligned; declare the array alignas(16)", data);
    return nullptr;
  }
  if (!flatbuffers::BufferHasIdentifier(data, tflite::ModelIdentifier())) {
    MicroPrintf("not a .tflite model: file identifier is not 'TFL3'; check that the bytes are a TFLite model");
    return nullptr;
  }
  // Buffers appended after the flatbuffer (Buffer.offset) may take the file
  // past the flatbuffer size limit; the flatbuffer itself must lie below it.
  const size_t verify_size = size < FLATBUFFERS_MAX_BUFFER_SIZE ? size : FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  flatbuffers::Verifier verifier(data, verify_size);
  const flatbuffers::uoffset_t root = verifier.VerifyOffset(0);
  if (root == 0 || !VerifyModelTable(verifier, data + root)) {
    MicroPrintf("model flatbuffer is corrupt or truncated (%u bytes failed verification); re-export the model "
                "and check that the whole file was copied",
                static_cast<unsigned>(size));
    return nullptr;
  }
  const tflite::Model* model = tflite::GetModel(data);
  if (model->version() != kSchemaVersion) {
    MicroPrintf("model schema version is %u but micro_runtime reads version %u; re-convert the model with a "
                "current TFLite converter",
                static_cast<unsigned>(model->version()), static_cast<unsigned>(kSchemaVersion));
    return nullptr;
  }
  const uint32_t num_subgraphs = model->subgraphs() != nullptr ? model->subgraphs()->size() : 0;
  if (num_subgraphs != 1) {
    MicroPrintf("model has %u subgraphs; micro_runtime supports 1", static_cast<unsigned>(num_subgraphs));
    return nullptr;
  }
  return CheckGraph(model, data, size, model->subgraphs()->Get(0)) ? model : nullptr;
}

}  // namespace micro_runtime
