#include "micro_runtime/model_verifier.h"

#include <float.h>

#include "micro_runtime/micro_log.h"

namespace micro_runtime {
namespace {

constexpr uint64_t kMaxTensorBytes = 0x7fffffffu;

const char* TensorName(const tflite::Tensor* t) {
  return (t->name() != nullptr) ? t->name()->c_str() : "";
}

bool ExternalBuffer(const tflite::Buffer* b) { return b->offset() > 1 && b->size() > 0; }

bool CheckBuffers(const tflite::Model* model, size_t size) {
  const auto* buffers = model->buffers();
  if (buffers == nullptr) return true;
  for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
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
  if (codes == nullptr) return true;
  for (flatbuffers::uoffset_t i = 0; i < codes->size(); ++i) {
    const tflite::OperatorCode* code = codes->Get(i);
    const int32_t builtin = EffectiveBuiltinCode(code);
    if (builtin < 0) {
      MicroPrintf("operator code %d has a negative builtin code %d; the model is corrupt", static_cast<int>(i),
                  static_cast<int>(builtin));
      return false;
    }
    if (builtin == static_cast<int32_t>(tflite::BuiltinOperator::CUSTOM) && code->custom_code() == nullptr) {
      MicroPrintf("operator code %d is CUSTOM but has no custom_code name; the model is corrupt",
                  static_cast<int>(i));
      return false;
    }
  }
  return true;
}

bool CheckQuantization(const tflite::Tensor* t, int index) {
  const tflite::QuantizationParameters* q = t->quantization();
  if (q == nullptr) return true;
  if (q->details_type() != tflite::QuantizationDetails::NONE) {
    MicroPrintf("tensor %d ('%s') uses custom quantization, which micro_runtime does not support", index,
                TensorName(t));
    return false;
  }
  const auto* scale = q->scale();
  const auto* zero_point = q->zero_point();
  const uint32_t channels = scale != nullptr ? scale->size() : 0;
  if (channels == 0) return true;  // not quantized (min/max only, or empty)
  if (zero_point != nullptr && zero_point->size() != channels) {
    MicroPrintf("tensor %d ('%s') has %d scales but %d zero points; they must match", index, TensorName(t),
                static_cast<int>(channels), static_cast<int>(zero_point->size()));
    return false;
  }
  // The flatbuffers verifier only checks 4-byte alignment of vectors; an
  // int64 read from a misaligned address faults on Cortex-M (LDRD).
  if (zero_point != nullptr && (reinterpret_cast<uintptr_t>(zero_point->data()) % 8) != 0) {
    MicroPrintf("tensor %d ('%s') has a misaligned zero_point vector; the model is corrupt", index, TensorName(t));
    return false;
  }
  if (zero_point != nullptr) {
    const int64_t first = zero_point->Get(0);
    for (uint32_t c = 0; c < channels; ++c) {
      const int64_t zp = zero_point->Get(c);
      if (zp != first) {
        MicroPrintf("tensor %d ('%s') has different zero points per channel; micro_runtime needs them equal "
                    "(symmetric per-channel quantization)",
                    index, TensorName(t));
        return false;
      }
      if (zp < INT32_MIN || zp > INT32_MAX) {
        MicroPrintf("tensor %d ('%s') has a zero point outside int32", index, TensorName(t));
        return false;
      }
    }
  }
  // Kernels add the zero point to stored values in int32 arithmetic; one
  // outside the element type's range overflows there (found by fuzzing).
  int64_t zp_min = INT32_MIN;
  int64_t zp_max = INT32_MAX;
  const tflite::TensorType type = t->type();
  if (type == tflite::TensorType::INT8) zp_min = -128, zp_max = 127;
  if (type == tflite::TensorType::UINT8) zp_min = 0, zp_max = 255;
  if (type == tflite::TensorType::INT16) zp_min = -32768, zp_max = 32767;
  if (zero_point != nullptr && (zero_point->Get(0) < zp_min || zero_point->Get(0) > zp_max)) {
    MicroPrintf("tensor %d ('%s') has zero point %d outside its type's range [%d, %d]; the model is corrupt", index,
                TensorName(t), static_cast<int>(zero_point->Get(0)), static_cast<int>(zp_min),
                static_cast<int>(zp_max));
    return false;
  }
  // Requantization divides by and takes logarithms of integer tensors'
  // scales: NaN, infinite, zero or negative ones are never valid there.
  if (type == tflite::TensorType::INT8 || type == tflite::TensorType::UINT8 || type == tflite::TensorType::INT16) {
    for (uint32_t c = 0; c < channels; ++c) {
      const float s = scale->Get(c);
      if (!(s > 0.0f && s <= FLT_MAX)) {
        MicroPrintf("tensor %d ('%s') has quantization scale %f (channel %d); scales must be finite and positive",
                    index, TensorName(t), static_cast<double>(s), static_cast<int>(c));
        return false;
      }
    }
  }
  if (channels > 1) {
    const int32_t rank = t->shape() != nullptr ? static_cast<int32_t>(t->shape()->size()) : 0;
    const int32_t dim = q->quantized_dimension();
    if (dim < 0 || dim >= rank) {
      MicroPrintf("tensor %d ('%s'): quantized_dimension %d is outside its rank %d", index, TensorName(t),
                  static_cast<int>(dim), static_cast<int>(rank));
      return false;
    }
    if (t->shape()->Get(static_cast<flatbuffers::uoffset_t>(dim)) != static_cast<int32_t>(channels)) {
      MicroPrintf("tensor %d ('%s') has %d per-channel scales but dimension %d has size %d", index,
                  TensorName(t), static_cast<int>(channels), static_cast<int>(dim),
                  static_cast<int>(t->shape()->Get(static_cast<flatbuffers::uoffset_t>(dim))));
      return false;
    }
  }
  return true;
}

bool CheckTensors(const tflite::Model* model, const uint8_t* data, const tflite::SubGraph* graph) {
  const auto* tensors = graph->tensors();
  if (tensors == nullptr) return true;
  if (tensors->size() > kMaxTensors) {
    MicroPrintf("model has %u tensors; micro_runtime supports up to %u", static_cast<unsigned>(tensors->size()),
                static_cast<unsigned>(kMaxTensors));
    return false;
  }
  const uint32_t num_buffers = model->buffers() != nullptr ? model->buffers()->size() : 0;
  for (flatbuffers::uoffset_t i = 0; i < tensors->size(); ++i) {
    const tflite::Tensor* t = tensors->Get(i);
    const int index = static_cast<int>(i);
    const TfLiteType type = static_cast<TfLiteType>(t->type());
    if (type != kTfLiteFloat32 && type != kTfLiteInt32 && type != kTfLiteUInt8 && type != kTfLiteInt64 &&
        type != kTfLiteBool && type != kTfLiteInt16 && type != kTfLiteInt8 && type != kTfLiteFloat16) {
      MicroPrintf("tensor %d ('%s') has type %d, which micro_runtime does not support "
                  "(supported: FLOAT32, FLOAT16, INT32, UINT8, INT64, BOOL, INT16, INT8)",
                  index, TensorName(t), static_cast<int>(t->type()));
      return false;
    }
    if (t->shape() != nullptr) {
      for (flatbuffers::uoffset_t d = 0; d < t->shape()->size(); ++d) {
        if (t->shape()->Get(d) < 0) {
          MicroPrintf("tensor %d ('%s') has dynamic or negative dimension %d (%d); micro_runtime needs static "
                      "shapes: re-convert with fixed input sizes",
                      index, TensorName(t), static_cast<int>(d), static_cast<int>(t->shape()->Get(d)));
          return false;
        }
      }
    }
    size_t bytes = 0;
    if (!TensorByteSize(t, &bytes)) {
      MicroPrintf("tensor %d ('%s') is larger than 2 GB; the model is corrupt", index, TensorName(t));
      return false;
    }
    if (t->buffer() >= num_buffers && !(t->buffer() == 0 && num_buffers == 0)) {
      MicroPrintf("tensor %d ('%s') refers to buffer %u but the model has %u buffers; the model is corrupt", index,
                  TensorName(t), static_cast<unsigned>(t->buffer()), static_cast<unsigned>(num_buffers));
      return false;
    }
    size_t data_bytes = 0;
    const uint8_t* constant = num_buffers > 0 ? BufferData(model, data, t->buffer(), &data_bytes) : nullptr;
    if (constant != nullptr && data_bytes != bytes) {
      MicroPrintf("tensor %d ('%s') has %u bytes of constant data but its shape and type need %u bytes", index,
                  TensorName(t), static_cast<unsigned>(data_bytes), static_cast<unsigned>(bytes));
      return false;
    }
    const uintptr_t alignment = TypeSize(type) >= 8 ? 8 : (TypeSize(type) > 1 ? 4 : 1);
    if (constant != nullptr && (reinterpret_cast<uintptr_t>(constant) % alignment) != 0) {
      MicroPrintf("tensor %d ('%s'): constant data is not aligned; keep the model bytes 16-byte aligned "
                  "(model_to_cc.py does)",
                  index, TensorName(t));
      return false;
    }
    if (!CheckQuantization(t, index)) return false;
  }
  return true;
}

bool CheckIndexList(const flatbuffers::Vector<int32_t>* list, uint32_t num_tensors, bool allow_optional,
                    const char* what, int owner) {
  if (list == nullptr) return true;
  for (flatbuffers::uoffset_t i = 0; i < list->size(); ++i) {
    const int32_t index = list->Get(i);
    if (index == -1 && allow_optional) continue;
    if (index < 0 || static_cast<uint32_t>(index) >= num_tensors) {
      if (owner >= 0) {
        MicroPrintf("operator %d: %s %d refers to tensor %d but the subgraph has %u tensors; the model is corrupt",
                    owner, what, static_cast<int>(i), static_cast<int>(index), static_cast<unsigned>(num_tensors));
      } else {
        MicroPrintf("subgraph %s %d refers to tensor %d but the subgraph has %u tensors; the model is corrupt",
                    what, static_cast<int>(i), static_cast<int>(index), static_cast<unsigned>(num_tensors));
      }
      return false;
    }
  }
  return true;
}

bool CheckOperators(const tflite::Model* model, const uint8_t* data, const tflite::SubGraph* graph) {
  const uint32_t num_tensors = graph->tensors() != nullptr ? graph->tensors()->size() : 0;
  const uint32_t num_codes = model->operator_codes() != nullptr ? model->operator_codes()->size() : 0;
  if (!CheckIndexList(graph->inputs(), num_tensors, false, "input", -1) ||
      !CheckIndexList(graph->outputs(), num_tensors, false, "output", -1)) {
    return false;
  }
  const auto* ops = graph->operators();
  if (ops == nullptr) return true;
  if (ops->size() > kMaxOperators) {
    MicroPrintf("model has %u operators; micro_runtime supports up to %u", static_cast<unsigned>(ops->size()),
                static_cast<unsigned>(kMaxOperators));
    return false;
  }
  for (flatbuffers::uoffset_t i = 0; i < ops->size(); ++i) {
    const tflite::Operator* op = ops->Get(i);
    const int index = static_cast<int>(i);
    if (op->opcode_index() >= num_codes) {
      MicroPrintf("operator %d uses operator code %u but the model has %u; the model is corrupt", index,
                  static_cast<unsigned>(op->opcode_index()), static_cast<unsigned>(num_codes));
      return false;
    }
    if (!CheckIndexList(op->inputs(), num_tensors, true, "input", index) ||
        !CheckIndexList(op->outputs(), num_tensors, false, "output", index)) {
      return false;
    }
    if (op->large_custom_options_size() > 0) {
      MicroPrintf("operator %d keeps its custom options outside the flatbuffer (models over 2 GB); "
                  "micro_runtime does not support that",
                  index);
      return false;
    }
    if (op->outputs() != nullptr) {
      for (flatbuffers::uoffset_t o = 0; o < op->outputs()->size(); ++o) {
        const tflite::Tensor* t = graph->tensors()->Get(static_cast<flatbuffers::uoffset_t>(op->outputs()->Get(o)));
        size_t bytes = 0;
        if (BufferData(model, data, t->buffer(), &bytes) != nullptr) {
          MicroPrintf("operator %d writes tensor %d ('%s'), which is constant; the model is corrupt", index,
                      static_cast<int>(op->outputs()->Get(o)), TensorName(t));
          return false;
        }
      }
    }
  }
  return true;
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
  if (!tflite::VerifyModelBuffer(verifier)) {
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
  const tflite::SubGraph* graph = model->subgraphs()->Get(0);
  if (!CheckBuffers(model, size) || !CheckOpcodes(model) || !CheckTensors(model, data, graph) ||
      !CheckOperators(model, data, graph)) {
    return nullptr;
  }
  return model;
}

}  // namespace micro_runtime
