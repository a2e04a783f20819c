// FULLY_CONNECTED: output[b, u] = act(sum_i input[b, i] * filter[u, i] + bias[u]).
// The input is viewed as [batches, input_size] with input_size = filter dim 1
// (so any rank works, keep_num_dims only changes the output shape the model
// declares). float32, and int8 with per-tensor or per-channel (per unit)
// filter scales.
//
// int8: filter zero point is 0, so
//   acc = bias[u] + input_offset * sum_i filter[u, i] + sum_i input[b, i] * filter[u, i]
// and the first two terms are folded into one per-unit constant in prepare
// when the filter (and bias) are constant, leaving a plain int8 dot product.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "FULLY_CONNECTED";

struct OpData {
  int32_t batches;
  int32_t input_size;
  int32_t units;
  // int8 only.
  int32_t input_offset;
  int32_t output_offset;
  int32_t act_min;
  int32_t act_max;
  int32_t* multipliers;  // per unit (all equal for a per-tensor filter)
  int32_t* shifts;
  int32_t* folded_bias;  // bias + input_offset * row sum; nullptr if not precomputable
};

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteFullyConnectedParams* params =
      static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  if (data == nullptr) {
    MicroPrintf("%s: out of arena memory for op data (enlarge the tensor arena)", kOp);
    return kTfLiteError;
  }
  if (params == nullptr) {
    MicroPrintf("%s: missing builtin options", kOp);
    return kTfLiteError;
  }
  if (NumInputs(node) < 2 || NumInputs(node) > 3 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 2-3 inputs (input, filter, optional bias) and 1 output, got %d and %d",
                kOp, NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, input != nullptr && filter != nullptr && output != nullptr);

  if (NumDimensions(filter) != 2) {
    MicroPrintf("%s: filter must be 2-D [units, input_size], got rank %d", kOp, NumDimensions(filter));
    return kTfLiteError;
  }
  data->units = SizeOfDimension(filter, 0);
  data->input_size = SizeOfDimension(filter, 1);
  const int32_t input_elements = ElementCount(input->dims);
  if (data->input_size <= 0 || input_elements % data->input_size != 0) {
    MicroPrintf("%s: input has %d elements, not a multiple of the filter's input size %d", kOp,
                static_cast<int>(input_elements), static_cast<int>(data->input_size));
    return kTfLiteError;
  }
  data->batches = input_elements / data->input_size;
  if (ElementCount(output->dims) != data->batches * data->units) {
    MicroPrintf("%s: output has %d elements, expected batches %d x units %d", kOp,
                static_cast<int>(ElementCount(output->dims)), static_cast<int>(data->batches),
                static_cast<int>(data->units));
    return kTfLiteError;
  }
  if (bias != nullptr && ElementCount(bias->dims) != data->units) {
    MicroPrintf("%s: bias has %d elements, expected %d (one per unit)", kOp,
                static_cast<int>(ElementCount(bias->dims)), static_cast<int>(data->units));
    return kTfLiteError;
  }
  if (output->type != input->type) {
    MicroPrintf("%s: output type %s must match input type %s", kOp, TfLiteTypeName(output->type),
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }

  if (input->type == kTfLiteFloat32) {
    TF_LITE_ENSURE_OK(context, EnsureType(kOp, "filter", filter, kTfLiteFloat32));
    if (bias != nullptr) TF_LITE_ENSURE_OK(context, EnsureType(kOp, "bias", bias, kTfLiteFloat32));
    return kTfLiteOk;
  }
  if (input->type != kTfLiteInt8) {
    MicroPrintf("%s: input type %s not supported (use float32 or int8)", kOp,
                TfLiteTypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, EnsureType(kOp, "filter", filter, kTfLiteInt8));

  const int units = static_cast<int>(data->units);
  data->multipliers = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(units));
  data->shifts = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(units));
  if (data->multipliers == nullptr || data->shifts == nullptr) {
    MicroPrintf("%s: out of arena memory for %d per-unit multipliers", kOp, units);
    return kTfLiteError;
  }
  const bool per_channel = filter->params.scales != nullptr && filter->params.scales->size > 1;
  if (per_channel) {
    TF_LITE_ENSURE_OK(context, PopulateConvolutionQuantizationParams(
                                   kOp, input, filter, bias, output, params->activation, units, 0,
                                   data->multipliers, data->shifts, &data->act_min, &data->act_max));
  } else {
    // Per-tensor: the same rounding path TFLite uses for this op.
    if (filter->params.zero_point != 0) {
      MicroPrintf("%s: int8 filter zero point must be 0 (symmetric weights), got %d", kOp,
                  static_cast<int>(filter->params.zero_point));
      return kTfLiteError;
    }
    if (bias != nullptr) TF_LITE_ENSURE_OK(context, EnsureType(kOp, "bias", bias, kTfLiteInt32));
    double real = 0.0;
    TF_LITE_ENSURE_OK(context, GetQuantizedConvolutionMultiplier(kOp, input, filter, output, &real));
    int32_t q = 0;
    int shift = 0;
    QuantizeMultiplier(real, &q, &shift);
    for (int u = 0; u < units; ++u) {
      data->multipliers[u] = q;
      data->shifts[u] = shift;
    }
    TF_LITE_ENSURE_OK(context, CalculateActivationRangeQuantized(params->activation, output,
                                                                 &data->act_min, &data->act_max));
  }
  data->input_offset = -input->params.zero_point;
  data->output_offset = output->params.zero_point;

  data->folded_bias = nullptr;
  if (filter->is_constant && (bias == nullptr || bias->is_constant)) {
    data->folded_bias = AllocatePersistentArray<int32_t>(context, static_cast<size_t>(units));
    if (data->folded_bias == nullptr) {
      MicroPrintf("%s: out of arena memory for %d folded bias values", kOp, units);
      return kTfLiteError;
    }
    const int8_t* w = filter->data.int8;
    for (int u = 0; u < units; ++u) {
      int32_t row_sum = 0;
      for (int32_t i = 0; i < data->input_size; ++i) row_sum += w[i];
      w += data->input_size;
      data->folded_bias[u] = (bias != nullptr ? bias->data.i32[u] : 0) + data->input_offset * row_sum;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus EvalFloat(const OpData* data, const TfLiteFullyConnectedParams* params,
                       const TfLiteTensor* input, const TfLiteTensor* filter,
                       const TfLiteTensor* bias, TfLiteTensor* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const int32_t n = data->input_size;
  const float* in = input->data.f;
  float* out = output->data.f;
  const float* b = bias != nullptr ? bias->data.f : nullptr;
  const int32_t units = data->units;
  for (int32_t batch = 0; batch < data->batches; ++batch) {
    const float* w = filter->data.f;
    int32_t u = 0;
#ifndef __SOFTFP__
    // Four rows per pass over the input; each row still sums in index order,
    // then adds its bias, exactly like the reference kernel. Skipped without
    // an FPU: there each float op is a library call and the unrolled loop
    // only costs flash.
    for (; u + 4 <= units; u += 4) {
      const float* w0 = w;
      const float* w1 = w0 + n;
      const float* w2 = w1 + n;
      const float* w3 = w2 + n;
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
      for (int32_t i = 0; i < n; ++i) {
        const float x = in[i];
        a0 += x * w0[i];
        a1 += x * w1[i];
        a2 += x * w2[i];
        a3 += x * w3[i];
      }
      if (b != nullptr) {
        a0 += b[u];
        a1 += b[u + 1];
        a2 += b[u + 2];
        a3 += b[u + 3];
      }
      out[u] = ClampFloat(a0, act_min, act_max);
      out[u + 1] = ClampFloat(a1, act_min, act_max);
      out[u + 2] = ClampFloat(a2, act_min, act_max);
      out[u + 3] = ClampFloat(a3, act_min, act_max);
      w += 4 * n;
    }
#endif
    for (; u < units; ++u) {
      float acc = 0.0f;
      for (int32_t i = 0; i < n; ++i) acc += in[i] * w[i];
      w += n;
      if (b != nullptr) acc += b[u];
      out[u] = ClampFloat(acc, act_min, act_max);
    }
    in += n;
    out += units;
  }
  return kTfLiteOk;
}

inline int8_t Requantize(const OpData* data, int32_t acc, int32_t u) {
  acc = MultiplyByQuantizedMultiplier(acc, data->multipliers[u], static_cast<int>(data->shifts[u]));
  acc += data->output_offset;
  return static_cast<int8_t>(ClampInt32(acc, data->act_min, data->act_max));
}

TfLiteStatus EvalInt8(const OpData* data, const TfLiteTensor* input, const TfLiteTensor* filter,
                      const TfLiteTensor* bias, TfLiteTensor* output) {
  const int32_t n = data->input_size;
  const int32_t units = data->units;
  const int8_t* in = input->data.int8;
  int8_t* out = output->data.int8;
  const int32_t* b = bias != nullptr ? bias->data.i32 : nullptr;
  const int32_t* folded = data->folded_bias;
  for (int32_t batch = 0; batch < data->batches; ++batch) {
    const int8_t* w = filter->data.int8;
    int32_t u = 0;
    if (folded != nullptr) {
      // Four rows at a time: each input byte is loaded once for four dot products.
      for (; u + 4 <= units; u += 4) {
        const int8_t* w0 = w;
        const int8_t* w1 = w0 + n;
        const int8_t* w2 = w1 + n;
        const int8_t* w3 = w2 + n;
        int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
        for (int32_t i = 0; i < n; ++i) {
          const int32_t x = in[i];
          d0 += x * w0[i];
          d1 += x * w1[i];
          d2 += x * w2[i];
          d3 += x * w3[i];
        }
        out[u] = Requantize(data, folded[u] + d0, u);
        out[u + 1] = Requantize(data, folded[u + 1] + d1, u + 1);
        out[u + 2] = Requantize(data, folded[u + 2] + d2, u + 2);
        out[u + 3] = Requantize(data, folded[u + 3] + d3, u + 3);
        w += 4 * n;
      }
    }
    for (; u < units; ++u) {
      int32_t dot = 0;
      int32_t acc;
      if (folded != nullptr) {
        for (int32_t i = 0; i < n; ++i) dot += static_cast<int32_t>(in[i]) * w[i];
        acc = folded[u] + dot;
      } else {
        // Non-constant weights: the input-offset term is computed per row here.
        int32_t row_sum = 0;
        for (int32_t i = 0; i < n; ++i) {
          dot += static_cast<int32_t>(in[i]) * w[i];
          row_sum += w[i];
        }
        acc = dot + data->input_offset * row_sum + (b != nullptr ? b[u] : 0);
      }
      w += n;
      out[u] = Requantize(data, acc, u);
    }
    in += n;
    out += units;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteFullyConnectedParams* params =
      static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) == 3 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* output = GetOutput(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      return EvalFloat(data, params, input, filter, bias, output);
    case kTfLiteInt8:
      return EvalInt8(data, input, filter, bias, output);
    default:
      MicroPrintf("%s: input type %s not supported (use float32 or int8)", kOp,
                  TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_FULLY_CONNECTED() { return {Init, nullptr, Prepare, Eval}; }
