// Helpers shared by the elementwise, activation and shape kernels (ADD, SUB,
// MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM/MINIMUM, PRELU, SOFTMAX, LOGISTIC,
// TANH, RELU, LEAKY_RELU, HARD_SWISH, ABS, RSQRT, QUANTIZE, SIN, Atan ...):
// input/output count checks with messages that name the op, numpy-style
// broadcasting, the quantized binary-op loop and int8 lookup tables.
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

// Element types a kernel accepts, as a bit set.
enum TypeSet : unsigned { kTypeFloat32 = 1u, kTypeInt8 = 2u, kTypeInt16 = 4u };

// Prepare of an op with one input and one output of the same type (one of
// `types`, named in `supported` for the message) and the same shape.
TfLiteStatus PrepareUnary(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                          const char* supported);

// PrepareUnary, and for int8/int16 also CheckQuantized on input and output
// and `op_data_bytes` of op data allocated once into node->user_data
// (*op_data; nullptr for float32).
TfLiteStatus PrepareQuantizedUnary(const char* op, TfLiteContext* context, TfLiteNode* node,
                                   unsigned types, const char* supported, size_t op_data_bytes,
                                   void** op_data);

// Checks the per-tensor quantization of an int8/int16 tensor: scale > 0 and,
// for int16, zero point 0 (TFLite's symmetric int16 activations). `what`
// names the tensor ("input 1", "output") in the message.
TfLiteStatus CheckQuantized(const char* op, const char* what, const TfLiteTensor* tensor);

// True when `type` is one of `types` (TypeSet bits).
bool InTypeSet(TfLiteType type, unsigned types);

// A tensor's data as T (the caller has checked the type).
template <typename T>
inline T* TensorData(const TfLiteTensor* tensor) {
  return static_cast<T*>(tensor->data.raw);
}

// out[i] = f(in[i]) over every element of two tensors of the same shape.
template <typename T, typename F>
inline void MapElements(const TfLiteTensor* input, TfLiteTensor* output, F f) {
  const T* in = TensorData<T>(input);
  T* out = TensorData<T>(output);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) out[i] = f(in[i]);
}

// Clamps v to the range of T (int8_t or int16_t).
template <typename T>
inline T SaturateTo(int32_t v) {
  constexpr int32_t lo = sizeof(T) == 1 ? -128 : -32768;
  constexpr int32_t hi = sizeof(T) == 1 ? 127 : 32767;
  return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
}

// Invoke of an op prepared by PrepareQuantizedUnary (ABS, LEAKY_RELU,
// HARD_SWISH): float32 elements through float_fn(x); int8 (and int16 when
// kInt16) elements through quant_fn(d, q), an int32 saturated to the type,
// with d the node's OpData.
TfLiteStatus ReportMissingOpData(const char* op);  // below

template <typename OpData, bool kInt16, typename FloatFn, typename QuantFn>
inline TfLiteStatus EvalQuantizedUnary(const char* op, TfLiteContext* context, TfLiteNode* node,
                                       FloatFn float_fn, QuantFn quant_fn) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type == kTfLiteFloat32) {
    MapElements<float>(input, output, float_fn);
    return kTfLiteOk;
  }
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const OpData& d = *static_cast<const OpData*>(node->user_data);
  if (kInt16 && input->type == kTfLiteInt16) {
    MapElements<int16_t>(input, output, [&d, quant_fn](int16_t q) { return SaturateTo<int16_t>(quant_fn(d, q)); });
  } else {
    MapElements<int8_t>(input, output, [&d, quant_fn](int8_t q) { return SaturateTo<int8_t>(quant_fn(d, q)); });
  }
  return kTfLiteOk;
}

// Prepare of a float32 -> float32 op with one input and one output of the
// same shape (SIN, Atan, EXP, LOG, SQRT).
TfLiteStatus PrepareFloatUnary(const char* op, TfLiteContext* context, TfLiteNode* node);

// Runs f on every element of a float32 op prepared by PrepareFloatUnary.
TfLiteStatus EvalFloatUnary(TfLiteContext* context, TfLiteNode* node, float (*f)(float));

// Registration of a float32 op y = f(x) (SIN, EXP, LOG, SQRT): prepare is
// PrepareFloatUnary(kName), invoke EvalFloatUnary(kFunction).
template <const char* kName, float (*kFunction)(float)>
TfLiteRegistration FloatUnaryRegistration() {
  return {nullptr, nullptr,
          [](TfLiteContext* context, TfLiteNode* node) { return PrepareFloatUnary(kName, context, node); },
          [](TfLiteContext* context, TfLiteNode* node) { return EvalFloatUnary(context, node, kFunction); }};
}

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

// ---- Shape and data-movement ops (RESHAPE, SQUEEZE, EXPAND_DIMS, PAD,
// CONCATENATION, STRIDED_SLICE, TRANSPOSE, MEAN) ----

// Most dimensions the shape ops handle (TFLite's RuntimeShape keeps 6 inline).
constexpr int kMaxShapeDims = 6;

// Prepare of an op that only moves bytes (RESHAPE, SQUEEZE, EXPAND_DIMS):
// min_inputs..max_inputs inputs, one output of the input's type (any type the
// runtime stores), a static output shape and the input's element count.
TfLiteStatus PrepareCopy(const char* op, TfLiteContext* context, TfLiteNode* node, int min_inputs,
                         int max_inputs);

// Invoke of an op prepared by PrepareCopy: the input's bytes into the output
// (nothing when the planner gave both one buffer).
TfLiteStatus EvalCopy(TfLiteContext* context, TfLiteNode* node);

// The data of a constant int32 tensor (`what` names it in messages: "paddings",
// "perm", ...) with `count` elements (any count when count < 0; *actual gets the
// count); logs and returns nullptr when it is not constant, not int32 or has
// another element count.
const int32_t* ConstantInt32Data(const char* op, const char* what, const TfLiteTensor* tensor, int32_t count,
                                 int32_t* actual = nullptr);

// Checks that a tensor has at most `max_rank` dimensions, none negative, and
// that the product of its nonzero dimensions fits int32.
TfLiteStatus CheckRank(const char* op, const char* what, const TfLiteTensor* tensor, int max_rank);

// Types a data-movement op copies by element size: float32, int8, int16,
// int32, int64 and bool (the names in kDataTypeNames); logs and fails for others.
extern const char kDataTypeNames[];
TfLiteStatus CheckDataType(const char* op, const TfLiteTensor* tensor);

// The common start of a data-movement op's prepare (STRIDED_SLICE,
// TRANSPOSE): exactly `inputs` inputs and one output, input 0 of a
// CheckDataType type and at most max_rank dimensions, the output of its type.
TfLiteStatus PrepareDataMovement(const char* op, TfLiteContext* context, TfLiteNode* node, int inputs,
                                 int max_rank);

// Logs "<op>: output shape <actual> does not match <expected>" and fails
// unless the output's shape is `expected` (rank dims).
TfLiteStatus CheckOutputShape(const char* op, const TfLiteTensor* output, const int32_t* expected, int rank);

// For int8/int16 tensors: that `output` has the scale and zero point of
// `input`, as an op that copies values without requantizing needs (GATHER,
// SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND); logs and fails otherwise. Other
// types pass.
TfLiteStatus CheckSameQuantization(const char* op, const TfLiteTensor* input, const TfLiteTensor* output);

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

// Prepare of ADD and SUB: PrepareArithmetic with `types` (op data
// CommonScaleOpData), then for int8/int16 the common scale after a left shift
// of 20 (int8) or 15 (int16) bits and the output multiplier
// common_scale / (2^left_shift * output_scale). TFLite aborts when that
// multiplier reaches 1 (an output scale ~2^-left_shift times the input
// scales); this refuses it with a message.
TfLiteStatus PrepareAddSub(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types);

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

// x * 2^exponent saturated to int32, exponent in [1, 30]: gemmlowp's
// SaturatingRoundingMultiplyByPOT for a positive exponent (the Rescale of
// its fixed-point types; used by DIV's reciprocal and RSQRT's Newton steps).
inline int32_t SaturatingShiftLeft(int32_t x, int exponent) {
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// TFLite's GetInvSqrtQuantizedMultiplierExp with the reverse shift (-1) its
// callers pass: 1 / sqrt(x) for x >= 0 as multiplier * 2^(shift - 31), the
// multiplier from five Newton-Raphson steps in Q3.28 after x is normalized by
// powers of four, shift <= 0 for a left-shift-style MultiplyByQuantizedMultiplier.
// x of 0 or 1 gives (INT32_MAX, 0), as in TFLite. Used by RSQRT and
// L2_NORMALIZATION.
void InverseSqrtMultiplier(int32_t x, int32_t* multiplier, int* shift);

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
