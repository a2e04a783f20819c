#include "micro_runtime/testing/test_helpers.h"

#include <math.h>

const TfLiteIntArray* IntArrayFromInts(const int32_t* ints) {
  return reinterpret_cast<const TfLiteIntArray*>(ints);
}

const TfLiteFloatArray* FloatArrayFromFloats(float* floats) {
  TfLiteFloatArray* array = reinterpret_cast<TfLiteFloatArray*>(floats);
  array->size = static_cast<int32_t>(floats[0]);
  return array;
}

static TfLiteTensor MakeTensor(void* data, const TfLiteIntArray* dims, TfLiteType type,
                               bool is_constant) {
  TfLiteTensor t;
  t.data.raw = data;
  t.dims = dims;
  t.type = type;
  t.bytes = static_cast<size_t>(ElementCount(dims)) * TypeSize(type);
  t.params.scale = 0.0f;
  t.params.zero_point = 0;
  t.params.scales = nullptr;
  t.quantized_dimension = 0;
  t.is_constant = is_constant;
  return t;
}

TfLiteTensor CreateTensor(float* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteFloat32, is_constant);
}
TfLiteTensor CreateTensor(int8_t* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteInt8, is_constant);
}
TfLiteTensor CreateTensor(int16_t* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteInt16, is_constant);
}
TfLiteTensor CreateTensor(int32_t* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteInt32, is_constant);
}
TfLiteTensor CreateTensor(int64_t* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteInt64, is_constant);
}
TfLiteTensor CreateTensor(uint8_t* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteUInt8, is_constant);
}
TfLiteTensor CreateTensor(bool* data, const TfLiteIntArray* dims, bool is_constant) {
  return MakeTensor(data, dims, kTfLiteBool, is_constant);
}

TfLiteTensor CreateQuantizedTensor(int16_t* data, const TfLiteIntArray* dims, float scale, int zero_point,
                                   bool is_constant) {
  TfLiteTensor t = MakeTensor(data, dims, kTfLiteInt16, is_constant);
  t.params.scale = scale;
  t.params.zero_point = zero_point;
  return t;
}

TfLiteTensor CreateQuantizedTensor(int8_t* data, const TfLiteIntArray* dims, float scale,
                                   int zero_point, bool is_constant) {
  TfLiteTensor t = MakeTensor(data, dims, kTfLiteInt8, is_constant);
  t.params.scale = scale;
  t.params.zero_point = zero_point;
  return t;
}

TfLiteTensor CreateQuantizedTensor(const float* values, int8_t* quantized,
                                   const TfLiteIntArray* dims, float scale, int zero_point,
                                   bool is_constant) {
  const int32_t n = ElementCount(dims);
  for (int32_t i = 0; i < n; ++i) quantized[i] = Quantize(values[i], scale, zero_point);
  return CreateQuantizedTensor(quantized, dims, scale, zero_point, is_constant);
}

TfLiteTensor CreatePerChannelQuantizedTensor(int8_t* data, const TfLiteIntArray* dims,
                                             const TfLiteFloatArray* scales,
                                             int quantized_dimension, bool is_constant) {
  TfLiteTensor t = MakeTensor(data, dims, kTfLiteInt8, is_constant);
  t.params.scale = scales->data[0];
  t.params.zero_point = 0;
  t.params.scales = scales;
  t.quantized_dimension = static_cast<int16_t>(quantized_dimension);
  return t;
}

// Index of element i's slice along `dim` in a row-major shape.
static int ChannelOf(int32_t i, const TfLiteIntArray* dims, int dim) {
  int32_t inner = 1;
  for (int d = dim + 1; d < dims->size; ++d) inner *= dims->data[d];
  return static_cast<int>((i / inner) % dims->data[dim]);
}

TfLiteTensor CreatePerChannelQuantizedTensor(const float* values, int8_t* quantized,
                                             const TfLiteIntArray* dims, float* scales_storage,
                                             int quantized_dimension, bool is_constant) {
  const int channels = dims->data[quantized_dimension];
  const int32_t n = ElementCount(dims);
  float* scales = scales_storage + 1;
  for (int c = 0; c < channels; ++c) scales[c] = 0.0f;
  for (int32_t i = 0; i < n; ++i) {
    const int c = ChannelOf(i, dims, quantized_dimension);
    const float a = fabsf(values[i]);
    if (a > scales[c]) scales[c] = a;
  }
  for (int c = 0; c < channels; ++c) scales[c] = scales[c] > 0.0f ? scales[c] / 127.0f : 1.0f;
  for (int32_t i = 0; i < n; ++i) {
    quantized[i] = Quantize(values[i], scales[ChannelOf(i, dims, quantized_dimension)], 0);
  }
  scales_storage[0] = static_cast<float>(channels);
  return CreatePerChannelQuantizedTensor(quantized, dims, FloatArrayFromFloats(scales_storage),
                                         quantized_dimension, is_constant);
}

TfLiteTensor CreateQuantizedBiasTensor(const float* values, int32_t* quantized,
                                       const TfLiteIntArray* dims, float input_scale,
                                       float weight_scale) {
  const float scale = input_scale * weight_scale;
  const int32_t n = ElementCount(dims);
  for (int32_t i = 0; i < n; ++i) quantized[i] = QuantizeBias(values[i], scale);
  TfLiteTensor t = MakeTensor(quantized, dims, kTfLiteInt32, true);
  t.params.scale = scale;
  return t;
}

TfLiteTensor CreatePerChannelQuantizedBiasTensor(const float* values, int32_t* quantized,
                                                 const TfLiteIntArray* dims, float input_scale,
                                                 const TfLiteFloatArray* weight_scales) {
  const int32_t n = ElementCount(dims);
  for (int32_t i = 0; i < n; ++i) {
    const float ws = weight_scales->size > 1 ? weight_scales->data[i] : weight_scales->data[0];
    quantized[i] = QuantizeBias(values[i], input_scale * ws);
  }
  TfLiteTensor t = MakeTensor(quantized, dims, kTfLiteInt32, true);
  t.params.scale = input_scale * weight_scales->data[0];
  return t;
}

int8_t Quantize(float value, float scale, int zero_point) {
  const float q = roundf(value / scale) + static_cast<float>(zero_point);
  if (q < -128.0f) return -128;
  if (q > 127.0f) return 127;
  return static_cast<int8_t>(q);
}

int32_t QuantizeBias(float value, float scale) {
  const double q = round(static_cast<double>(value) / static_cast<double>(scale));
  if (q < -2147483648.0) return INT32_MIN;
  if (q > 2147483647.0) return INT32_MAX;
  return static_cast<int32_t>(q);
}

float Dequantize(int32_t q, float scale, int zero_point) {
  return static_cast<float>(q - zero_point) * scale;
}
