// Kernels that only move bytes: RESHAPE, SQUEEZE and EXPAND_DIMS (one
// copy), PACK and UNPACK (stacking), SPLIT and SPLIT_V, and the common start
// of STRIDED_SLICE's and TRANSPOSE's prepare. Bit-exact by construction.
#ifndef MICRO_RUNTIME_KERNELS_DATA_MOVEMENT_H_
#define MICRO_RUNTIME_KERNELS_DATA_MOVEMENT_H_

#include <stdint.h>

#include "micro_runtime/common.h"

namespace micro_runtime {

// Prepare of an op that only moves bytes (RESHAPE, SQUEEZE, EXPAND_DIMS):
// min_inputs..max_inputs inputs, one output of the input's type (any type the
// runtime stores), a static output shape and the input's element count.
TfLiteStatus PrepareCopy(const char* op, TfLiteContext* context, TfLiteNode* node, int min_inputs,
                         int max_inputs);

// Invoke of an op prepared by PrepareCopy: the input's bytes into the output
// (nothing when the planner gave both one buffer).
TfLiteStatus EvalCopy(TfLiteContext* context, TfLiteNode* node);

// The common start of a data-movement op's prepare (STRIDED_SLICE,
// TRANSPOSE): exactly `inputs` inputs and one output, input 0 of a
// CheckDataType type and at most max_rank dimensions, the output of its type.
TfLiteStatus PrepareDataMovement(const char* op, TfLiteContext* context, TfLiteNode* node, int inputs,
                                 int max_rank);

// PACK and UNPACK: `count` tensors of one shape (PACK's inputs, UNPACK's
// outputs) stacked along `axis` (negative counts from the end of the stacked
// tensor's rank) into one tensor of one more dimension (PACK's output,
// UNPACK's input). Checks the node's inputs/outputs, the type (CheckDataType),
// rank (up to kMaxShapeDims), axis, every part's shape and that int8/int16
// parts share the stacked tensor's scale and zero point (pure copies, no
// requantization); logs and fails otherwise. Keeps the copy's sizes in
// node->user_data for EvalStacking.
TfLiteStatus PrepareStacking(const char* op, TfLiteContext* context, TfLiteNode* node, bool pack, int32_t axis,
                             int32_t count);

// Invoke of PACK (pack) or UNPACK prepared by PrepareStacking.
TfLiteStatus EvalStacking(const char* op, TfLiteContext* context, TfLiteNode* node, bool pack);

// SPLIT and SPLIT_V: input `input_index` cut along axis `axis` (negative
// counts from the end) into the node's `count` outputs, output i taking
// sizes[i] elements along the axis (sizes nullptr: count equal parts; an
// entry -1: what the others leave). Checks the node's outputs, the type
// (CheckDataType), rank (up to kMaxShapeDims), axis, sizes and every
// output's shape and quantization (int8/int16 outputs share the input's);
// logs and fails otherwise. Keeps the copy's sizes in node->user_data.
TfLiteStatus PrepareSplit(const char* op, TfLiteContext* context, TfLiteNode* node, int input_index, int32_t axis,
                          int32_t count, const int32_t* sizes);

// Invoke of SPLIT or SPLIT_V prepared by PrepareSplit.
TfLiteStatus EvalSplit(const char* op, TfLiteContext* context, TfLiteNode* node, int input_index);

// An 8-byte element (int64) copied as two words: kernels that move int64
// values without doing arithmetic on them (TRANSPOSE, STRIDED_SLICE) use it,
// so a constant int64 tensor only 4-byte aligned in the model is read safely.
struct Int64Words {
  uint32_t words[2];
};

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_DATA_MOVEMENT_H_
