// Elementwise binary kernels with numpy-style broadcasting (ADD, SUB, MUL,
// DIV, SQUARED_DIFFERENCE, MAXIMUM/MINIMUM, PRELU): the broadcast plan and
// walk, prepare of two inputs and one output, the zero-point offsets and
// activation range of the quantized ops, the float32/int8/int16 invoke loop,
// and the common input scale of ADD, SUB and SQUARED_DIFFERENCE.
#ifndef MICRO_RUNTIME_KERNELS_BINARY_UTIL_H_
#define MICRO_RUNTIME_KERNELS_BINARY_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

// numpy-style broadcasting of two inputs of up to kMaxBroadcastDims
// dimensions: shapes are right-aligned and a dimension of size 1 is repeated.
constexpr int kMaxBroadcastDims = 6;

struct BroadcastPlan {
  int32_t count;        // output element count
  bool same_shape;      // no broadcasting: all three are walked linearly
  int32_t dims[kMaxBroadcastDims];     // output shape, left-padded with 1
  int32_t stride1[kMaxBroadcastDims];  // element strides of input 1 (0 = repeated)
  int32_t stride2[kMaxBroadcastDims];
};

// Fills `plan` and checks that the inputs broadcast to exactly the output's
// shape; logs "<op>: ..." with the shapes and returns kTfLiteError if not.
TfLiteStatus PlanBroadcast(const char* op, const TfLiteIntArray* input1,
                           const TfLiteIntArray* input2, const TfLiteIntArray* output,
                           BroadcastPlan* plan);

// Calls f(out_index, input1_index, input2_index) for every output element in
// row-major order.
template <typename F>
inline void ForEachBroadcast(const BroadcastPlan& plan, F f) {
  if (plan.same_shape) {
    for (int32_t i = 0; i < plan.count; ++i) f(i, i, i);
    return;
  }
  int32_t index[kMaxBroadcastDims] = {0, 0, 0, 0, 0, 0};
  int32_t offset1 = 0;
  int32_t offset2 = 0;
  for (int32_t i = 0; i < plan.count; ++i) {
    f(i, offset1, offset2);
    // Odometer step: advance the innermost dimension and carry outwards.
    for (int d = kMaxBroadcastDims - 1; d >= 0; --d) {
      offset1 += plan.stride1[d];
      offset2 += plan.stride2[d];
      if (++index[d] < plan.dims[d]) break;
      offset1 -= plan.stride1[d] * plan.dims[d];
      offset2 -= plan.stride2[d] * plan.dims[d];
      index[d] = 0;
    }
  }
}

// Prepare of a binary op with broadcasting: 2 inputs and 1 output of one
// type from `types` (named in `supported` for the message), with shapes that
// broadcast to the output's.
TfLiteStatus PrepareBinary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                           const char* supported);

// Quantized state shared by the binary ops with zero-point offsets (ADD, SUB,
// MUL, DIV, SQUARED_DIFFERENCE, PRELU); each op's data struct starts with it.
struct ArithmeticQuantParams {
  int32_t input1_offset;  // -zero_point
  int32_t input2_offset;
  int32_t output_offset;  // +zero_point
  int32_t activation_min;
  int32_t activation_max;
};

// Prepare of a binary op with broadcasting whose int8/int16 kernel works on
// zero-point corrected inputs: PrepareBinary, then for a quantized type
// CheckQuantized on all three tensors, `op_data_bytes` of op data allocated
// once (it must start with ArithmeticQuantParams) with the offsets and the
// fused activation range (the whole type range for ops without options).
// *quant is nullptr for float32.
TfLiteStatus PrepareArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                               size_t op_data_bytes, ArithmeticQuantParams** quant,
                               unsigned types = kTypeFloat32 | kTypeInt8);

// Fused activation of a node whose options are TfLiteArithmeticParams (ADD,
// SUB, MUL, DIV); NONE for nodes without options.
TfLiteFusedActivation ArithmeticActivation(const TfLiteNode* node);

// Runs f(a, b) over the broadcast of two inputs of type T into the output.
template <typename T, typename F>
inline void MapBroadcast(const BroadcastPlan& plan, const TfLiteTensor* input1,
                         const TfLiteTensor* input2, TfLiteTensor* output, F f) {
  const T* a = TensorData<T>(input1);
  const T* b = TensorData<T>(input2);
  T* out = TensorData<T>(output);
  ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) { out[o] = f(a[i1], b[i2]); });
}

// The quantized loop of an op prepared by PrepareArithmetic (T int8_t or
// int16_t): out = clamp(output_offset + quant_op(d, in1 + input1_offset,
// in2 + input2_offset)) to the activation range.
template <typename T, typename OpData, typename QuantOp>
inline void EvalQuantizedBinary(const BroadcastPlan& plan, const TfLiteTensor* input1,
                                const TfLiteTensor* input2, TfLiteTensor* output, const OpData& d,
                                QuantOp quant_op) {
  const ArithmeticQuantParams& q = d.common;
  MapBroadcast<T>(plan, input1, input2, output, [&](T x1, T x2) {
    const int32_t v = q.output_offset + quant_op(d, x1 + q.input1_offset, x2 + q.input2_offset);
    return static_cast<T>(v < q.activation_min ? q.activation_min
                                                : (v > q.activation_max ? q.activation_max : v));
  });
}

// Invoke of a binary op prepared by PrepareArithmetic: float32 runs
// clamp(float_op(in1, in2)) to the fused activation's range, int8 (and int16
// when kInt16) EvalQuantizedBinary with quant_op on the node's OpData.
template <typename OpData, bool kInt16 = false, typename QuantOp, typename FloatOp>
inline TfLiteStatus EvalArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                                   QuantOp quant_op, FloatOp float_op) {
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, PlanBroadcast(op, input1->dims, input2->dims, output->dims, &plan));
  if (input1->type == kTfLiteFloat32) {
    float act_min;
    float act_max;
    CalculateActivationRange(ArithmeticActivation(node), &act_min, &act_max);
    MapBroadcast<float>(plan, input1, input2, output, [&](float a, float b) {
      const float y = float_op(a, b);
      return y < act_min ? act_min : (y > act_max ? act_max : y);
    });
    return kTfLiteOk;
  }
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const OpData& d = *static_cast<const OpData*>(node->user_data);
  if (kInt16 && input1->type == kTfLiteInt16) {
    EvalQuantizedBinary<int16_t>(plan, input1, input2, output, d, quant_op);
  } else {
    EvalQuantizedBinary<int8_t>(plan, input1, input2, output, d, quant_op);
  }
  return kTfLiteOk;
}

// Both inputs of ADD, SUB and SQUARED_DIFFERENCE rescaled to one common
// scale, twice the larger input scale, after a left shift that keeps
// precision (TFLite's scheme): x * 2^left_shift * input_scale / common_scale.
struct CommonScale {
  int32_t input1_multiplier;
  int32_t input2_multiplier;
  int input1_shift;
  int input2_shift;
  int left_shift;

  int32_t Input1(int32_t x) const {
    return MultiplyByQuantizedMultiplier(x * (1 << left_shift), input1_multiplier, input1_shift);
  }
  int32_t Input2(int32_t x) const {
    return MultiplyByQuantizedMultiplier(x * (1 << left_shift), input2_multiplier, input2_shift);
  }
};

// Op data of ADD, SUB and SQUARED_DIFFERENCE: the inputs to their common
// scale, and the result to the output scale.
struct CommonScaleOpData {
  ArithmeticQuantParams common;  // first: PrepareArithmetic fills it
  CommonScale inputs;
  int32_t output_multiplier;
  int output_shift;
};

// Fills `s` for the two input scales and returns the common scale (the
// ratios in double, as TFLite computes them).
double PrepareCommonScale(float scale1, float scale2, int left_shift, CommonScale* s);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_BINARY_UTIL_H_
