// QUANTIZE: float32 -> int8 (per-tensor, or per-channel along the output's
// quantized_dimension) and float32 -> int16 (per-tensor) as
// q = clamp(round(x / scale) + zero_point), with a float division and ties
// rounded away from zero, which is what TFLM does (bit-exact against it;
// LiteRT multiplies by 1/scale and rounds ties to even, so it can differ by 1
// on ties); and requantization between integer types with a fixed-point
// multiplier (TFLM's Requantize: input_scale / output_scale in double,
// MultiplyByQuantizedMultiplier, the zero points, the output type's range),
// for TFLM's pairs: int8 -> int8, uint8, int16, int32; int16 -> int8, int16,
// int32; int32 -> int8, int16; uint8 -> int8.
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "QUANTIZE";

struct RequantizeOpData {
  int32_t multiplier;
  int shift;
};

// The output types TFLM requantizes `input` to ("" when it has none).
const char* RequantizeOutputs(TfLiteType input) {
  switch (input) {
    case kTfLiteInt8:
      return "int8, uint8, int16, int32";
    case kTfLiteInt16:
      return "int8, int16, int32";
    case kTfLiteInt32:
      return "int8, int16";
    case kTfLiteUInt8:
      return "int8";
    default:
      return "";
  }
}

bool RequantizePairSupported(TfLiteType input, TfLiteType output) {
  switch (input) {
    case kTfLiteInt8:
      return output == kTfLiteInt8 || output == kTfLiteUInt8 || output == kTfLiteInt16 || output == kTfLiteInt32;
    case kTfLiteInt16:
      return output == kTfLiteInt8 || output == kTfLiteInt16 || output == kTfLiteInt32;
    case kTfLiteInt32:
      return output == kTfLiteInt8 || output == kTfLiteInt16;
    case kTfLiteUInt8:
      return output == kTfLiteInt8;
    default:
      return false;
  }
}

TfLiteStatus QuantizePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 1, 1, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  const bool integer_input = input->type != kTfLiteFloat32;
  if (integer_input && RequantizeOutputs(input->type)[0] == '\0') {
    return ReportUnsupportedType(kOp, input->type, "float32, int8, int16, int32, uint8", "input");
  }
  if (integer_input ? !RequantizePairSupported(input->type, output->type)
                    : output->type != kTfLiteInt8 && output->type != kTfLiteInt16) {
    if (!integer_input) return ReportUnsupportedType(kOp, output->type, "int8, int16", "output");
    MicroPrintf("%s: %s input to %s output is not supported; a %s input quantizes to %s", kOp,
                TfLiteTypeName(input->type), TfLiteTypeName(output->type), TfLiteTypeName(input->type),
                RequantizeOutputs(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckSameShape(kOp, input, output));

  const TfLiteFloatArray* scales = output->params.scales;
  const bool per_channel = scales != nullptr && scales->size > 1;
  if (per_channel) {
    const int32_t axis = output->quantized_dimension;
    if (input->type != kTfLiteFloat32 || output->type != kTfLiteInt8 || axis < 0 || axis >= NumDimensions(output) ||
        scales->size != SizeOfDimension(output, axis)) {
      MicroPrintf("%s: per-channel output needs float32 input, int8 output and one scale per channel of the "
                  "quantized dimension (got %d scales, dimension %d)",
                  kOp, static_cast<int>(scales->size), static_cast<int>(axis));
      return kTfLiteError;
    }
    for (int32_t c = 0; c < scales->size; ++c) {
      if (!(scales->data[c] > 0.0f)) {
        MicroPrintf("%s: output scale of channel %d must be > 0", kOp, static_cast<int>(c));
        return kTfLiteError;
      }
    }
  }
  if (!(output->params.scale > 0.0f)) {
    MicroPrintf("%s: output scale must be > 0, got %f", kOp, static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (!integer_input) return kTfLiteOk;

  if (!(input->params.scale > 0.0f)) {
    MicroPrintf("%s: %s input scale must be > 0, got %f", kOp, TfLiteTypeName(input->type),
                static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) {
    node->user_data = AllocateOpData(kOp, context, sizeof(RequantizeOpData));
  }
  if (node->user_data == nullptr) return kTfLiteError;
  RequantizeOpData* data = static_cast<RequantizeOpData*>(node->user_data);
  QuantizeMultiplier(static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
                     &data->multiplier, &data->shift);
  return kTfLiteOk;
}

// x * multiplier * 2^shift like TFLite's (int32) MultiplyByQuantizedMultiplier,
// without kMaxRequantized's saturation: an int32 output takes the whole
// result. The left shift wraps where TFLite's overflows (undefined).
int32_t Requantize(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(static_cast<int32_t>(static_cast<uint32_t>(x) << left), multiplier), right);
}

// Stores v, clamped to the output type's range, as element i.
void StoreClamped(TfLiteTensor* output, int32_t i, int64_t v) {
  switch (output->type) {
    case kTfLiteInt8:
      output->data.int8[i] = static_cast<int8_t>(v > 127 ? 127 : (v < -128 ? -128 : v));
      break;
    case kTfLiteInt16:
      output->data.i16[i] = static_cast<int16_t>(v > 32767 ? 32767 : (v < -32768 ? -32768 : v));
      break;
    case kTfLiteUInt8:
      output->data.uint8[i] = static_cast<uint8_t>(v > 255 ? 255 : (v < 0 ? 0 : v));
      break;
    default:
      output->data.i32[i] = static_cast<int32_t>(v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : v));
      break;
  }
}

// Element i of an int8, uint8, int16 or int32 tensor.
int64_t LoadInteger(const TfLiteTensor* t, int32_t i) {
  switch (t->type) {
    case kTfLiteInt8:
      return t->data.int8[i];
    case kTfLiteUInt8:
      return t->data.uint8[i];
    case kTfLiteInt16:
      return t->data.i16[i];
    default:
      return t->data.i32[i];
  }
}

// round(x / scale) + zero_point like TFLM's AffineQuantize (float division,
// ties away from zero), saturated to [lo, hi] (NaN gives the zero point).
int32_t QuantizeFloat(float value, float scale, int32_t zero_point, int32_t lo, int32_t hi) {
  const float scaled = value / scale;
  if (scaled != scaled) return zero_point;
  // Saturate before converting: a float outside int32 range is undefined.
  if (scaled > 100000.0f) return hi;
  if (scaled < -100000.0f) return lo;
  return ClampInt32(RoundToInt32(scaled) + zero_point, lo, hi);
}

TfLiteStatus QuantizeInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t count = ElementCount(output->dims);
  const int32_t zero_point = output->params.zero_point;

  if (input->type != kTfLiteFloat32) {
    if (node->user_data == nullptr) return ReportMissingOpData(kOp);
    const RequantizeOpData* data = static_cast<const RequantizeOpData*>(node->user_data);
    const int64_t input_zero_point = input->params.zero_point;
    for (int32_t i = 0; i < count; ++i) {
      // x - zero point in int32 as TFLite, saturated where an int32 input
      // would overflow it (undefined there).
      const int64_t x = LoadInteger(input, i) - input_zero_point;
      const int32_t centered = static_cast<int32_t>(x > INT32_MAX ? INT32_MAX : (x < INT32_MIN ? INT32_MIN : x));
      StoreClamped(output, i, static_cast<int64_t>(Requantize(centered, data->multiplier, data->shift)) + zero_point);
    }
    return kTfLiteOk;
  }

  if (output->type == kTfLiteInt16) {
    const float scale = output->params.scale;
    for (int32_t i = 0; i < count; ++i) {
      output->data.i16[i] = static_cast<int16_t>(QuantizeFloat(input->data.f[i], scale, zero_point, -32768, 32767));
    }
    return kTfLiteOk;
  }
  int8_t* out = output->data.int8;
  const TfLiteFloatArray* scales = output->params.scales;
  if (scales == nullptr || scales->size <= 1) {
    const float scale = output->params.scale;
    for (int32_t i = 0; i < count; ++i) {
      out[i] = QuantizeToInt8(input->data.f[i], scale, zero_point);
    }
    return kTfLiteOk;
  }
  // Per-channel: element i belongs to channel (i / inner) % channels, where
  // inner is the number of elements after the quantized dimension.
  const int32_t axis = output->quantized_dimension;
  int32_t inner = 1;
  for (int d = axis + 1; d < NumDimensions(output); ++d) inner *= SizeOfDimension(output, d);
  const int32_t channels = scales->size;
  for (int32_t i = 0; i < count; ++i) {
    const int32_t channel = (i / inner) % channels;
    out[i] = QuantizeToInt8(input->data.f[i], scales->data[channel], zero_point);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_QUANTIZE() { return {nullptr, nullptr, QuantizePrepare, QuantizeInvoke}; }

}  // namespace micro_runtime
