// Building blocks for kernel unit tests: shapes and tensors made from static
// arrays, and the affine quantization formulas, so a test can describe one
// op's inputs and outputs without a model. Nothing allocates; every tensor
// points at storage the test owns.
#ifndef MICRO_RUNTIME_TESTING_TEST_HELPERS_H_
#define MICRO_RUNTIME_TESTING_TEST_HELPERS_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/common.h"

// `ints` = {size, d0, d1, ...}; returned in place (layouts match).
const TfLiteIntArray* IntArrayFromInts(const int32_t* ints);

// `floats` = {size, v0, v1, ...} with the size written as a float; the first
// element is rewritten in place to an int32 count, so call it once per array.
const TfLiteFloatArray* FloatArrayFromFloats(float* floats);

// Plain tensors (scale 0, not quantized).
TfLiteTensor CreateTensor(float* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(int8_t* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(int16_t* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(int32_t* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(int64_t* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(uint8_t* data, const TfLiteIntArray* dims, bool is_constant = false);
TfLiteTensor CreateTensor(bool* data, const TfLiteIntArray* dims, bool is_constant = false);
// int16 tensor with a per-tensor scale and zero point.
TfLiteTensor CreateQuantizedTensor(int16_t* data, const TfLiteIntArray* dims, float scale, int zero_point,
                                   bool is_constant = false);

// Per-tensor quantized int8 tensor over existing quantized data.
TfLiteTensor CreateQuantizedTensor(int8_t* data, const TfLiteIntArray* dims, float scale,
                                   int zero_point, bool is_constant = false);
// Same, quantizing `values` (ElementCount(dims) floats) into `quantized` first.
TfLiteTensor CreateQuantizedTensor(const float* values, int8_t* quantized,
                                   const TfLiteIntArray* dims, float scale, int zero_point,
                                   bool is_constant = false);

// Per-channel symmetric int8 tensor (zero point 0) over existing data.
// `scales` is one scale per slice along `quantized_dimension`.
TfLiteTensor CreatePerChannelQuantizedTensor(int8_t* data, const TfLiteIntArray* dims,
                                             const TfLiteFloatArray* scales,
                                             int quantized_dimension, bool is_constant = true);
// Same, choosing each channel's scale as max|value| / 127 and quantizing
// `values` into `quantized`. `scales_storage` must hold channels + 1 floats;
// it becomes the TfLiteFloatArray of scales.
TfLiteTensor CreatePerChannelQuantizedTensor(const float* values, int8_t* quantized,
                                             const TfLiteIntArray* dims, float* scales_storage,
                                             int quantized_dimension, bool is_constant = true);

// int32 bias with scale input_scale * weight_scale and zero point 0,
// quantizing `values` into `quantized`.
TfLiteTensor CreateQuantizedBiasTensor(const float* values, int32_t* quantized,
                                       const TfLiteIntArray* dims, float input_scale,
                                       float weight_scale);
// Per-channel int32 bias: channel c uses input_scale * weight_scales->data[c].
TfLiteTensor CreatePerChannelQuantizedBiasTensor(const float* values, int32_t* quantized,
                                                 const TfLiteIntArray* dims, float input_scale,
                                                 const TfLiteFloatArray* weight_scales);

// round(value / scale) + zero_point, clamped to int8.
int8_t Quantize(float value, float scale, int zero_point);
// round(value / scale), clamped to int32 (bias quantization).
int32_t QuantizeBias(float value, float scale);
// (q - zero_point) * scale.
float Dequantize(int32_t q, float scale, int zero_point);

// An int8 filter op's output by definition: the accumulator times `real_multiplier`
// (input scale * filter scale / output scale, in TFLite's fixed point) plus the
// output zero point, clamped to int8. The reference of the kernel tests' per-tap loops.
int8_t RequantizeInt8Reference(int32_t acc, double real_multiplier, int32_t output_zero_point);

// Deterministic pseudo-random integers for kernel tests (an LCG): the same seed
// gives the same values on every board.
class TestRandom {
 public:
  explicit TestRandom(uint32_t seed) : state_(seed) {}
  // An integer in [lo, hi].
  int32_t Next(int32_t lo, int32_t hi) {
    state_ = state_ * 1664525u + 1013904223u;
    return lo + static_cast<int32_t>((state_ >> 8) % static_cast<uint32_t>(hi - lo + 1));
  }

 private:
  uint32_t state_;
};

#endif  // MICRO_RUNTIME_TESTING_TEST_HELPERS_H_
