// Checks untrusted .tflite bytes before the interpreter touches them.
//
// VerifyModel() runs the flatbuffers verifier (every offset and vector stays
// inside `size` bytes) and then the semantic checks the interpreter relies
// on: schema version 3, exactly one subgraph, every tensor/buffer/opcode
// index in range, no constant tensor as a graph input (the application
// writes those; a constant's data is the model, read-only flash on a board)
// or an operator output, constant data sizes matching shape x type, supported
// tensor types, static non-negative shapes without size overflow, sane
// quantization. After it succeeds, the interpreter can index the model
// without further bounds checks. Any failure logs one line naming the
// problem and the fix, and returns nullptr; hostile bytes never crash it.
#ifndef MICRO_RUNTIME_MODEL_VERIFIER_H_
#define MICRO_RUNTIME_MODEL_VERIFIER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/schema/tflite_schema.h"

namespace micro_runtime {

constexpr uint32_t kSchemaVersion = 3;
// Limits that keep the planner's index types small.
constexpr size_t kMaxTensors = 32000;
constexpr size_t kMaxOperators = 32000;

// Returns the model root, or nullptr after logging why the bytes were rejected.
// `data` must stay valid (and unchanged) while the model is used.
const tflite::Model* VerifyModel(const uint8_t* data, size_t size);

// The effective builtin code of an OperatorCode: the larger of
// deprecated_builtin_code and builtin_code (old models only set the former).
int32_t EffectiveBuiltinCode(const tflite::OperatorCode* code);

// Constant bytes of buffer `index` (inside the flatbuffer, or after it when
// stored with Buffer.offset/size), or nullptr with *bytes = 0 when the buffer
// is empty. Only valid for models accepted by VerifyModel.
const uint8_t* BufferData(const tflite::Model* model, const uint8_t* model_data, uint32_t index,
                          size_t* bytes);

// Byte size of a tensor's data (shape product x element size). Returns false
// for unsupported types, negative dimensions or results over 2^31.
bool TensorByteSize(const tflite::Tensor* tensor, size_t* bytes);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_MODEL_VERIFIER_H_
