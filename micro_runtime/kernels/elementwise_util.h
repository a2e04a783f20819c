// Helpers shared by the elementwise, activation and shape kernels (ADD, MUL,
// SOFTMAX, LOGISTIC, TANH, RELU, QUANTIZE, SIN, Atan ...): input/output count
// checks with messages that name the op, numpy-style broadcasting and int8
// lookup tables.
#ifndef MICRO_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
#define MICRO_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_

#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/kernel_util.h"

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

// Prepare of a float32 -> float32 op with one input and one output of the
// same shape (SIN, Atan).
TfLiteStatus PrepareFloatUnary(const char* op, TfLiteContext* context, TfLiteNode* node);

// Runs f on every element of a float32 op prepared by PrepareFloatUnary.
TfLiteStatus EvalFloatUnary(TfLiteContext* context, TfLiteNode* node, float (*f)(float));

// Prepare of a float32/int8 op with one input and one output of the same type
// and shape (LOGISTIC, TANH, SOFTMAX).
TfLiteStatus PrepareFloatOrInt8Unary(const char* op, TfLiteContext* context, TfLiteNode* node);

// For an int8 op whose output quantization is fixed by TFLite: checks that
// the input scale is > 0 and that the output has scale 1/scale_denominator
// and zero point `zero_point`; logs "<op>: ..." otherwise.
TfLiteStatus CheckInt8FixedOutput(const char* op, const TfLiteTensor* input,
                                  const TfLiteTensor* output, int scale_denominator,
                                  int32_t zero_point);

// Prepare of an elementwise float32/int8 op y = f(x) whose int8 output has
// TFLite's fixed quantization (1/scale_denominator, zero_point): int8 gets a
// 256-entry table (BuildInt8Table) in the op data.
TfLiteStatus PrepareInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                                float (*f)(float), int scale_denominator, int32_t zero_point);

// Invoke of an op prepared by PrepareInt8TableOp: the table for int8, f for float32.
TfLiteStatus EvalInt8TableOp(const char* op, TfLiteContext* context, TfLiteNode* node,
                             float (*f)(float));

// Writes "[d0,d1,...]" of `rank` dims into out (truncated to size).
void FormatDims(const int32_t* dims, int rank, char* out, int size);

// Allocates `bytes` of persistent arena memory for a node's op data; logs
// "<op>: ..." and returns nullptr when the arena is exhausted.
void* AllocateOpData(const char* op, TfLiteContext* context, size_t bytes);

// Logs "<op>: no op data; prepare must succeed before invoke" and fails.
// Kernels keep their prepared state in node->user_data.
TfLiteStatus ReportMissingOpData(const char* op);

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

// int8 state shared by the binary arithmetic ops (ADD, MUL); each op's data
// struct starts with it.
struct ArithmeticInt8Params {
  int32_t input1_offset;  // -zero_point
  int32_t input2_offset;
  int32_t output_offset;  // +zero_point
  int32_t activation_min;
  int32_t activation_max;
};

// Prepare of a binary float32/int8 op with broadcasting (ADD, MUL): checks
// the node, types and shapes; for int8 also the scales, allocates
// `op_data_bytes` of op data once (it must start with ArithmeticInt8Params)
// and fills the offsets and the fused activation range. *int8_params is
// nullptr for float32.
TfLiteStatus PrepareArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                               size_t op_data_bytes, ArithmeticInt8Params** int8_params);

// Fused activation of an ADD/MUL node (NONE without options).
TfLiteFusedActivation ArithmeticActivation(const TfLiteNode* node);

// Invoke of a binary op prepared by PrepareArithmetic. int8:
// out = clamp(output_offset + int8_op(d, in1 + input1_offset, in2 + input2_offset))
// where d is the op's data; float32: out = clamp(float_op(in1, in2)).
template <typename OpData, typename Int8Op, typename FloatOp>
inline TfLiteStatus EvalArithmetic(const char* op, TfLiteContext* context, TfLiteNode* node,
                                   Int8Op int8_op, FloatOp float_op) {
  const TfLiteTensor* input1 = GetInput(context, node, 0);
  const TfLiteTensor* input2 = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  BroadcastPlan plan;
  TF_LITE_ENSURE_OK(context, PlanBroadcast(op, input1->dims, input2->dims, output->dims, &plan));
  if (input1->type == kTfLiteInt8) {
    if (node->user_data == nullptr) return ReportMissingOpData(op);
    const OpData& d = *static_cast<const OpData*>(node->user_data);
    const ArithmeticInt8Params& q = d.common;
    const int8_t* a = input1->data.int8;
    const int8_t* b = input2->data.int8;
    int8_t* out = output->data.int8;
    ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) {
      int32_t v = q.output_offset + int8_op(d, a[i1] + q.input1_offset, b[i2] + q.input2_offset);
      v = v < q.activation_min ? q.activation_min : v;
      v = v > q.activation_max ? q.activation_max : v;
      out[o] = static_cast<int8_t>(v);
    });
    return kTfLiteOk;
  }
  float act_min;
  float act_max;
  CalculateActivationRange(ArithmeticActivation(node), &act_min, &act_max);
  const float* a = input1->data.f;
  const float* b = input2->data.f;
  float* out = output->data.f;
  ForEachBroadcast(plan, [&](int32_t o, int32_t i1, int32_t i2) {
    const float y = float_op(a[i1], b[i2]);
    out[o] = y < act_min ? act_min : (y > act_max ? act_max : y);
  });
  return kTfLiteOk;
}

// Rounds half away from zero (like TFLite's TfLiteRound) without libm. The
// fraction x - trunc(x) is exact, unlike adding 0.5 which can round up
// 0.49999997. |x| must fit in int32.
inline int32_t RoundToInt32(float x) {
  int32_t t = static_cast<int32_t>(x);
  const float fraction = x - static_cast<float>(t);
  if (fraction >= 0.5f) ++t;
  if (fraction <= -0.5f) --t;
  return t;
}

// Quantizes a real value to int8 with round-half-away and saturation.
inline int8_t QuantizeToInt8(float value, float scale, int32_t zero_point) {
  const float scaled = value / scale;
  if (scaled != scaled) return static_cast<int8_t>(zero_point);  // NaN
  // Saturate before converting: a float outside int32 range is undefined.
  if (scaled > 1000.0f) return 127;
  if (scaled < -1000.0f) return -128;
  int32_t q = RoundToInt32(scaled) + zero_point;
  if (q > 127) q = 127;
  if (q < -128) q = -128;
  return static_cast<int8_t>(q);
}

// Fills table[i] = quantize(f(dequantize(i - 128))) for an int8 -> int8 op,
// so invoke is one table read per element. Exact rounding of f; TFLite's
// fixed-point kernels are within +-1 of that.
void BuildInt8Table(float input_scale, int32_t input_zero_point, float output_scale,
                    int32_t output_zero_point, float (*f)(float), int8_t table[256]);

// Applies a table built by BuildInt8Table.
inline void ApplyInt8Table(const int8_t table[256], const int8_t* input, int8_t* output,
                           int32_t count) {
  for (int32_t i = 0; i < count; ++i) output[i] = table[static_cast<int32_t>(input[i]) + 128];
}

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
