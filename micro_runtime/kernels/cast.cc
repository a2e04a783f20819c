// CAST: every element converted to the output's type, float32, int8, uint8,
// int16, int32, int64 or bool in and out (TFLM: int8, int16, int32, float32
// and bool to int8, int16, int32, float32 and bool; uint32, which TFLM also
// takes, is not a type micro_runtime stores). Conversions are TFLM's (C++
// static_cast, with TFLite's SafeCast from float):
//  - float to an integer type rounds toward zero and saturates at the type's
//    range; NaN gives 0 (LiteRT gives the type's maximum);
//  - integer to a narrower integer type keeps the low bits (two's complement
//    wraparound), to a wider one extends the sign;
//  - integer to float rounds to the nearest float;
//  - to bool: value != 0 (NaN is true); from bool: 0 or 1.
// Quantization parameters are ignored, as TFLM and LiteRT do. Input and
// output have one shape.
#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "CAST";
constexpr char kCastTypes[] = "float32, int8, uint8, int16, int32, int64, bool";

bool CastType(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteBool:
      return true;
    default:
      return false;
  }
}

// A type recorded in CastOptions that contradicts the tensor's (FLOAT32 is
// also the schema default of a model that recorded nothing, so it never does).
TfLiteStatus CheckRecordedType(const char* what, TfLiteType recorded, const TfLiteTensor* tensor) {
  if (recorded != kTfLiteFloat32 && recorded != tensor->type) {
    MicroPrintf("%s: %s %s in the options differs from the %s tensor's %s", kOp, what, TfLiteTypeName(recorded),
                what[0] == 'i' ? "input" : "output", TfLiteTypeName(tensor->type));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CastPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!CastType(input->type)) return ReportUnsupportedType(kOp, input->type, kCastTypes, "input");
  if (!CastType(output->type)) return ReportUnsupportedType(kOp, output->type, kCastTypes, "output");
  const auto* params = static_cast<const TfLiteCastParams*>(node->builtin_data);
  if (params != nullptr) {
    TF_LITE_ENSURE_OK(context, CheckRecordedType("in_data_type", params->in_data_type, input));
    TF_LITE_ENSURE_OK(context, CheckRecordedType("out_data_type", params->out_data_type, output));
  }
  return CheckSameShape(kOp, input, output);
}

// Elements go through a block of int64 (integer and bool inputs) or float
// values: one loader per input type and one storer per output type instead
// of a loop per pair.
constexpr int32_t kBlock = 32;

template <typename T>
void LoadInts(const void* in, int32_t start, int32_t n, int64_t* v) {
  const T* p = static_cast<const T*>(in) + start;
  for (int32_t k = 0; k < n; ++k) v[k] = p[k];
}

// Integer input as int64 (bool as its byte != 0).
void LoadIntegers(const TfLiteTensor* input, int32_t start, int32_t n, int64_t* v) {
  const void* in = input->data.raw_const;
  switch (input->type) {
    case kTfLiteInt8:
      LoadInts<int8_t>(in, start, n, v);
      break;
    case kTfLiteUInt8:
      LoadInts<uint8_t>(in, start, n, v);
      break;
    case kTfLiteBool: {
      const uint8_t* p = static_cast<const uint8_t*>(in) + start;
      for (int32_t k = 0; k < n; ++k) v[k] = p[k] != 0;
      break;
    }
    case kTfLiteInt16:
      LoadInts<int16_t>(in, start, n, v);
      break;
    case kTfLiteInt32:
      LoadInts<int32_t>(in, start, n, v);
      break;
    default:  // int64, maybe only 4-byte aligned when constant
      for (int32_t k = 0; k < n; ++k) v[k] = LoadInt64(in, start + k);
      break;
  }
}

// Integer values to an integer type: the low bits of the two's complement
// value (GCC and Clang define the narrowing conversion so).
template <typename T>
void StoreInts(const int64_t* v, int32_t n, void* out, int32_t start) {
  T* p = static_cast<T*>(out) + start;
  for (int32_t k = 0; k < n; ++k) p[k] = static_cast<T>(v[k]);
}

void StoreIntegers(const int64_t* v, int32_t n, TfLiteTensor* output, int32_t start) {
  void* out = output->data.raw;
  switch (output->type) {
    case kTfLiteFloat32: {
      float* p = output->data.f + start;
      for (int32_t k = 0; k < n; ++k) p[k] = static_cast<float>(v[k]);
      break;
    }
    case kTfLiteInt8:
      StoreInts<int8_t>(v, n, out, start);
      break;
    case kTfLiteUInt8:
      StoreInts<uint8_t>(v, n, out, start);
      break;
    case kTfLiteBool: {
      uint8_t* p = output->data.uint8 + start;
      for (int32_t k = 0; k < n; ++k) p[k] = v[k] != 0 ? 1 : 0;
      break;
    }
    case kTfLiteInt16:
      StoreInts<int16_t>(v, n, out, start);
      break;
    case kTfLiteInt32:
      StoreInts<int32_t>(v, n, out, start);
      break;
    default:  // int64
      memcpy(static_cast<int64_t*>(out) + start, v, static_cast<size_t>(n) * sizeof(int64_t));
      break;
  }
}

// TFLite's SafeCast: NaN -> 0, below the type's minimum -> minimum, at or
// above its exclusive upper bound 2^(bits - 1) (2^bits unsigned), an exact
// float -> maximum, else truncation toward zero (then in range: no UB).
template <typename T>
void StoreFloatsSaturated(const float* v, int32_t n, void* out, int32_t start, float lo, float hi_exclusive,
                          T min_value, T max_value) {
  T* p = static_cast<T*>(out) + start;
  for (int32_t k = 0; k < n; ++k) {
    const float x = v[k];
    if (x != x) {
      p[k] = 0;
    } else if (x < lo) {
      p[k] = min_value;
    } else if (x >= hi_exclusive) {
      p[k] = max_value;
    } else {
      p[k] = static_cast<T>(x);
    }
  }
}

void StoreFloats(const float* v, int32_t n, TfLiteTensor* output, int32_t start) {
  void* out = output->data.raw;
  switch (output->type) {
    case kTfLiteFloat32:
      memcpy(output->data.f + start, v, static_cast<size_t>(n) * sizeof(float));
      break;
    case kTfLiteInt8:
      StoreFloatsSaturated<int8_t>(v, n, out, start, -128.0f, 128.0f, INT8_MIN, INT8_MAX);
      break;
    case kTfLiteUInt8:
      StoreFloatsSaturated<uint8_t>(v, n, out, start, 0.0f, 256.0f, 0, UINT8_MAX);
      break;
    case kTfLiteBool: {
      uint8_t* p = output->data.uint8 + start;
      for (int32_t k = 0; k < n; ++k) p[k] = v[k] != 0.0f ? 1 : 0;  // NaN != 0
      break;
    }
    case kTfLiteInt16:
      StoreFloatsSaturated<int16_t>(v, n, out, start, -32768.0f, 32768.0f, INT16_MIN, INT16_MAX);
      break;
    case kTfLiteInt32:
      StoreFloatsSaturated<int32_t>(v, n, out, start, -2147483648.0f, 2147483648.0f, INT32_MIN, INT32_MAX);
      break;
    default: {  // int64, stored through memcpy (int64 outputs need no 8-byte alignment)
      int64_t block[kBlock];
      StoreFloatsSaturated<int64_t>(v, n, block, 0, -9223372036854775808.0f, 9223372036854775808.0f, INT64_MIN,
                                    INT64_MAX);
      memcpy(static_cast<int64_t*>(out) + start, block, static_cast<size_t>(n) * sizeof(int64_t));
      break;
    }
  }
}

TfLiteStatus CastInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  if (input->type == output->type) {
    if (count > 0 && input->data.raw_const != output->data.raw) {
      memmove(output->data.raw, input->data.raw_const, static_cast<size_t>(count) * TypeSize(output->type));
    }
    return kTfLiteOk;
  }
  for (int32_t start = 0; start < count; start += kBlock) {
    const int32_t n = count - start < kBlock ? count - start : kBlock;
    if (input->type == kTfLiteFloat32) {
      StoreFloats(input->data.f + start, n, output, start);
    } else {
      int64_t block[kBlock];
      LoadIntegers(input, start, n, block);
      StoreIntegers(block, n, output, start);
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_CAST() { return {nullptr, nullptr, CastPrepare, CastInvoke}; }

}  // namespace micro_runtime
