// Elementwise unary kernels (ABS, LEAKY_RELU, HARD_SWISH, SIN, EXP, LOG,
// SQRT, Atan, LOGISTIC, TANH, SOFTMAX ...): prepare of one input and one
// output of one type and shape, the elementwise maps of float32 and
// quantized values, and int8 lookup tables for ops whose int8 output has
// TFLite's fixed quantization.
#ifndef MICRO_RUNTIME_KERNELS_UNARY_UTIL_H_
#define MICRO_RUNTIME_KERNELS_UNARY_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

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

// out[i] = f(in[i]) over every element of two tensors of the same shape.
template <typename T, typename F>
inline void MapElements(const TfLiteTensor* input, TfLiteTensor* output, F f) {
  const T* in = TensorData<T>(input);
  T* out = TensorData<T>(output);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) out[i] = f(in[i]);
}

// Invoke of an op prepared by PrepareQuantizedUnary (ABS, LEAKY_RELU,
// HARD_SWISH): float32 elements through float_fn(x); int8 (and int16 when
// kInt16) elements through quant_fn(d, q), an int32 saturated to the type,
// with d the node's OpData.

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

#endif  // MICRO_RUNTIME_KERNELS_UNARY_UTIL_H_
