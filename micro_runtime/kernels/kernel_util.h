// Node and tensor checks every kind of kernel uses in prepare, each logging
// "<op>: ..." with what is wrong before it fails: input/output counts, types
// and type sets, shapes, ranks, quantization, constant int32 inputs; the
// node's op data in the arena; tensor data as a typed pointer.
#ifndef MICRO_RUNTIME_KERNELS_KERNEL_UTIL_H_
#define MICRO_RUNTIME_KERNELS_KERNEL_UTIL_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// Checks that `node` has between min_inputs and max_inputs inputs, exactly
// `outputs` outputs and that the first min_inputs inputs and all outputs
// exist. Logs "<op>: ..." and returns kTfLiteError otherwise.
TfLiteStatus CheckNodeIo(const char* op, TfLiteContext* context, const TfLiteNode* node,
                         int min_inputs, int max_inputs, int outputs);

// Logs "<op>: type <name> not supported (<supported>)", or with `what`
// "<op>: <what> type <name> not supported (<supported>)"; returns kTfLiteError.
TfLiteStatus ReportUnsupportedType(const char* op, TfLiteType type, const char* supported,
                                   const char* what = nullptr);

// Checks that two tensors (input and output, or two inputs) have the same
// type; logs and fails otherwise.
TfLiteStatus CheckSameType(const char* op, const TfLiteTensor* input, const TfLiteTensor* output);

// Checks that input and output have the same element count.
TfLiteStatus CheckSameElementCount(const char* op, const TfLiteTensor* input,
                                   const TfLiteTensor* output);

// Checks that input and output have identical shapes.
TfLiteStatus CheckSameShape(const char* op, const TfLiteTensor* input, const TfLiteTensor* output);

// Element types a kernel accepts, as a bit set.
enum TypeSet : unsigned { kTypeFloat32 = 1u, kTypeInt8 = 2u, kTypeInt16 = 4u };

// True when `type` is one of `types` (TypeSet bits).
bool InTypeSet(TfLiteType type, unsigned types);

// Checks the per-tensor quantization of an int8/int16 tensor: scale > 0 and,
// for int16, zero point 0 (TFLite's symmetric int16 activations). `what`
// names the tensor ("input 1", "output") in the message.
TfLiteStatus CheckQuantized(const char* op, const char* what, const TfLiteTensor* tensor);

// For int8/int16 tensors: that `output` has the scale and zero point of
// `input`, as an op that copies values without requantizing needs (GATHER,
// SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND); logs and fails otherwise. Other
// types pass.
TfLiteStatus CheckSameQuantization(const char* op, const TfLiteTensor* input, const TfLiteTensor* output);

// True when both tensors have the same rank and dimensions.
bool HaveSameShapes(const TfLiteTensor* a, const TfLiteTensor* b);

// Most dimensions the shape ops handle (TFLite's RuntimeShape keeps 6 inline).
constexpr int kMaxShapeDims = 6;

// Checks that a tensor has at most `max_rank` dimensions, none negative, and
// that the product of its nonzero dimensions fits int32.
TfLiteStatus CheckRank(const char* op, const char* what, const TfLiteTensor* tensor, int max_rank);

// Types a data-movement op copies by element size: float32, int8, int16,
// int32, int64 and bool (the names in kDataTypeNames); logs and fails for others.
extern const char kDataTypeNames[];
TfLiteStatus CheckDataType(const char* op, const TfLiteTensor* tensor);

// The data of a constant int32 tensor (`what` names it in messages: "paddings",
// "perm", ...) with `count` elements (any count when count < 0; *actual gets the
// count); logs and returns nullptr when it is not constant, not int32 or has
// another element count.
const int32_t* ConstantInt32Data(const char* op, const char* what, const TfLiteTensor* tensor, int32_t count,
                                 int32_t* actual = nullptr);

// Logs "<op>: output shape <actual> does not match <expected>" and fails
// unless the output's shape is `expected` (rank dims).
TfLiteStatus CheckOutputShape(const char* op, const TfLiteTensor* output, const int32_t* expected, int rank);

// Writes "[d0,d1,...]" of `rank` dims into out (truncated to size).
void FormatDims(const int32_t* dims, int rank, char* out, int size);

// Writes a tensor shape as "[d0,d1,...]" into out (truncated to size).
void FormatShape(const TfLiteIntArray* dims, char* out, int size);

// A tensor's data as T (the caller has checked the type).
template <typename T>
inline T* TensorData(const TfLiteTensor* tensor) {
  return static_cast<T*>(tensor->data.raw);
}


// Element i of an int64 array that may be only 4-byte aligned: a .tflite file
// can put int64 constants (16x8 biases) at an offset of 4 mod 8, where an
// LDRD (or a plain int64 load on strict-alignment cores) would fault. memcpy
// lets the compiler use loads that accept any alignment.
inline int64_t LoadInt64(const void* base, int32_t i) {
  int64_t v;
  memcpy(&v, static_cast<const char*>(base) + static_cast<size_t>(i) * sizeof(int64_t), sizeof(v));
  return v;
}

// Typed persistent allocation: `count` elements of T from the arena, nullptr
// when it is exhausted.
template <typename T>
inline T* AllocatePersistentArray(TfLiteContext* context, size_t count) {
  return static_cast<T*>(context->AllocatePersistentBuffer(context, count * sizeof(T)));
}

// Allocates `bytes` of persistent arena memory for a node's op data; logs
// "<op>: ..." and returns nullptr when the arena is exhausted.
void* AllocateOpData(const char* op, TfLiteContext* context, size_t bytes);

// Logs "<op>: no op data; prepare must succeed before invoke" and fails.
// Kernels keep their prepared state in node->user_data.
TfLiteStatus ReportMissingOpData(const char* op);

// Checks that prepare has op data (node->user_data, from Init) and parsed
// builtin options; logs "<op>: ..." with the fix otherwise.
TfLiteStatus CheckOpDataAndOptions(const char* op_name, const TfLiteNode* node);

// Prepare check of an int8-only registration (Register_<OP>_INT8, which
// leaves the float32 and int16 evals out of the image): input 0 must be int8,
// else a message naming the registration to replace.
TfLiteStatus RequireInt8Input(const char* op_name, const char* registration, TfLiteContext* context,
                              TfLiteNode* node);

// The node's op data: allocated once (AllocateOpData), as prepare may run more
// than once; nullptr when the arena is exhausted.
void* NodeOpData(const char* op, TfLiteContext* context, TfLiteNode* node, size_t bytes);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_KERNEL_UTIL_H_
