// The kernel-facing C-like API of micro_runtime: status codes, tensor types,
// tensors, nodes, the context a kernel talks to and the 4-function op
// registration. Everything here is plain data so kernels stay small C-like C++
// and unit tests can build tensors by hand without a model.
#ifndef MICRO_RUNTIME_COMMON_H_
#define MICRO_RUNTIME_COMMON_H_

#include <stddef.h>
#include <stdint.h>

enum TfLiteStatus : int32_t { kTfLiteOk = 0, kTfLiteError = 1 };

// Values are the TFLite schema's TensorType values, so a model's tensor type
// byte converts without a table.
// One byte, so a tensor struct stays small (the arena holds one per tensor).
enum TfLiteType : int8_t {
  kTfLiteFloat32 = 0,
  kTfLiteFloat16 = 1,
  kTfLiteInt32 = 2,
  kTfLiteUInt8 = 3,
  kTfLiteInt64 = 4,
  kTfLiteString = 5,
  kTfLiteBool = 6,
  kTfLiteInt16 = 7,
  kTfLiteComplex64 = 8,
  kTfLiteInt8 = 9,
  kTfLiteNoType = -1,
};

// Same values as the schema's ActivationFunctionType.
enum TfLiteFusedActivation : int32_t {
  kTfLiteActNone = 0,
  kTfLiteActRelu = 1,
  kTfLiteActReluN1To1 = 2,
  kTfLiteActRelu6 = 3,
  kTfLiteActTanh = 4,
  kTfLiteActSignBit = 5,
};

// Same values as the schema's Padding.
enum TfLitePadding : int32_t { kTfLitePaddingSame = 0, kTfLitePaddingValid = 1 };

// Layout-compatible with a flatbuffers Vector<int32_t> (uint32 length, then
// the elements), so model shapes are used in place without copying.
struct TfLiteIntArray {
  int32_t size;
  int32_t data[1];  // really `size` elements
};

// Layout-compatible with a flatbuffers Vector<float>.
struct TfLiteFloatArray {
  int32_t size;
  float data[1];  // really `size` elements
};

// Affine quantization. `scale`/`zero_point` are the per-tensor (or first
// channel's) values; `scales` is non-null for per-channel quantization and
// then has one scale per slice along the tensor's `quantized_dimension`.
// Zero points of per-channel tensors are required to be equal (int8 weights
// use 0).
struct TfLiteQuantization {
  float scale;
  int32_t zero_point;
  const TfLiteFloatArray* scales;  // nullptr unless per-channel
};

union TfLitePtrUnion {
  void* raw;
  const void* raw_const;
  float* f;
  int32_t* i32;
  int16_t* i16;
  int8_t* int8;
  uint8_t* uint8;
  int64_t* i64;
  bool* b;
};

// One per tensor of the model, in the arena: 28 bytes on 32-bit targets.
struct TfLiteTensor {
  TfLitePtrUnion data;
  const TfLiteIntArray* dims;
  size_t bytes;
  TfLiteQuantization params;
  TfLiteType type;
  bool is_constant;               // data points into the model (flash)
  int16_t quantized_dimension;    // axis of params.scales (per-channel only)
};

// One operator instance. `inputs`/`outputs` hold tensor indices (-1 = absent
// optional input). `builtin_data` points to the op's parsed options struct
// (see builtin_options.h) or is nullptr; `user_data` is what init returned.
struct TfLiteNode {
  const TfLiteIntArray* inputs;
  const TfLiteIntArray* outputs;
  const void* builtin_data;
  void* user_data;
  const void* custom_initial_data;  // custom options bytes of a custom op
  int32_t custom_initial_data_size;
};

struct TfLiteContext {
  // Tensors of the (single) subgraph, indexed like the model's tensors.
  TfLiteTensor* tensors;
  size_t tensors_size;
  // Persistent memory that lives as long as the interpreter; only valid from
  // init and prepare. Returns nullptr when the arena is exhausted.
  void* (*AllocatePersistentBuffer)(TfLiteContext* ctx, size_t bytes);
  // Scratch memory: request in prepare (returns an index), fetch the pointer
  // in invoke. Scratch buffers only live during one op's invoke.
  TfLiteStatus (*RequestScratchBufferInArena)(TfLiteContext* ctx, size_t bytes,
                                              int* buffer_index);
  void* (*GetScratchBuffer)(TfLiteContext* ctx, int buffer_index);
  // A scratch buffer the op can do without (a larger working buffer than its
  // stack holds): placed only where the arena has room below the high-water
  // mark every other buffer sets, so it never makes the arena larger;
  // GetScratchBuffer returns nullptr for it when there was no such room.
  TfLiteStatus (*RequestOptionalScratchBufferInArena)(TfLiteContext* ctx, size_t bytes, int* buffer_index);
  void* impl;  // owned by whoever drives the kernels
};

// The four functions an op provides. Any of them may be nullptr.
//  init:    called once with custom options (custom ops) or nullptr (builtin);
//           returns user_data stored in the node. Allocate from the arena via
//           context->AllocatePersistentBuffer, never malloc.
//  free:    called when the interpreter is destroyed.
//  prepare: check types/shapes, precompute (quantized multipliers ...).
//  invoke:  compute outputs.
struct TfLiteRegistration {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
};

// Helpers every kernel uses.
inline TfLiteTensor* GetTensor(TfLiteContext* context, const TfLiteIntArray* list,
                               int i) {
  if (list == nullptr || i < 0 || i >= list->size) return nullptr;
  const int index = list->data[i];
  if (index < 0 || static_cast<size_t>(index) >= context->tensors_size) return nullptr;
  return &context->tensors[index];
}
inline TfLiteTensor* GetInput(TfLiteContext* context, const TfLiteNode* node, int i) {
  return GetTensor(context, node->inputs, i);
}
inline TfLiteTensor* GetOutput(TfLiteContext* context, const TfLiteNode* node, int i) {
  return GetTensor(context, node->outputs, i);
}
inline int NumInputs(const TfLiteNode* node) { return node->inputs->size; }
inline int NumOutputs(const TfLiteNode* node) { return node->outputs->size; }
inline int NumDimensions(const TfLiteTensor* t) { return t->dims->size; }
inline int32_t SizeOfDimension(const TfLiteTensor* t, int dim) { return t->dims->data[dim]; }

// Element count of a shape (1 for a scalar).
inline int32_t ElementCount(const TfLiteIntArray* dims) {
  int32_t count = 1;
  for (int i = 0; i < dims->size; ++i) count *= dims->data[i];
  return count;
}

// Bytes per element of a type; 0 for types the runtime does not store.
inline size_t TypeSize(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
      return 4;
    case kTfLiteInt64:
      return 8;
    case kTfLiteInt16:
    case kTfLiteFloat16:
      return 2;
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteBool:
      return 1;
    default:
      return 0;
  }
}

const char* TfLiteTypeName(TfLiteType type);

// Report an error from a kernel: formats like MicroPrintf and logs it.
#define TF_LITE_KERNEL_LOG(context, ...) MicroPrintf(__VA_ARGS__)

#define TF_LITE_ENSURE(context, cond)                                       \
  do {                                                                      \
    if (!(cond)) {                                                          \
      MicroPrintf("%s:%d %s was not true.", __FILE__, __LINE__, #cond);     \
      return kTfLiteError;                                                  \
    }                                                                       \
  } while (0)

#define TF_LITE_ENSURE_EQ(context, a, b)                                    \
  do {                                                                      \
    if ((a) != (b)) {                                                       \
      MicroPrintf("%s:%d %s != %s (%d != %d)", __FILE__, __LINE__, #a, #b,  \
                  static_cast<int>(a), static_cast<int>(b));                \
      return kTfLiteError;                                                  \
    }                                                                       \
  } while (0)

#define TF_LITE_ENSURE_OK(context, status)    \
  do {                                        \
    const TfLiteStatus s_ = (status);         \
    if (s_ != kTfLiteOk) return s_;           \
  } while (0)

#include "micro_runtime/micro_log.h"

#endif  // MICRO_RUNTIME_COMMON_H_
