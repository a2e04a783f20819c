// ADD and SUB, one kernel with two signs: TFLite's fixed-point scheme for
// int8 and int16 (both inputs shifted left, 20 bits for int8 and 15 for
// int16, rescaled to a common scale of 2 * max(input scales), added or
// subtracted, and the result rescaled to the output scale), float32 as is.
// add.cc and sub.cc register it.
#ifndef MICRO_RUNTIME_KERNELS_ADD_SUB_H_
#define MICRO_RUNTIME_KERNELS_ADD_SUB_H_

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/binary_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

// Prepare of ADD and SUB: PrepareArithmetic with `types` (op data
// CommonScaleOpData), then for int8/int16 the common scale after a left shift
// of 20 (int8) or 15 (int16) bits and the output multiplier
// common_scale / (2^left_shift * output_scale). TFLite aborts when that
// multiplier reaches 1 (an output scale ~2^-left_shift times the input
// scales); this refuses it with a message.
TfLiteStatus PrepareAddSub(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types);

// The int8 invoke without broadcasting (all three shapes equal) on a fast
// path where the core has one (arm_dsp/add_sub_int8.cc: y = x1 + x2, or
// x1 - x2 when `subtract`, bit-exact with the general path); returns false,
// having done nothing, for every node it does not take (the portable
// add_sub_int8.cc: all of them), which then takes EvalArithmetic.
bool EvalAddSubInt8SameShape(TfLiteContext* context, TfLiteNode* node, bool subtract);

// Invoke of ADD (kSubtract false) or SUB, named kOp, prepared by
// PrepareAddSub: the registration's invoke function itself (one call level,
// as when each op had its own).
template <const char* kOp, bool kSubtract>
TfLiteStatus EvalAddSub(TfLiteContext* context, TfLiteNode* node) {
  if (EvalAddSubInt8SameShape(context, node, kSubtract)) return kTfLiteOk;
  return EvalArithmetic<CommonScaleOpData, true>(
      kOp, context, node,
      [](const CommonScaleOpData& d, int32_t x1, int32_t x2) {
        return MultiplyByQuantizedMultiplier(
            kSubtract ? d.inputs.Input1(x1) - d.inputs.Input2(x2) : d.inputs.Input1(x1) + d.inputs.Input2(x2),
            d.output_multiplier, d.output_shift);
      },
      [](float a, float b) { return kSubtract ? a - b : a + b; });
}

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_ADD_SUB_H_
