// FULLY_CONNECTED: output[b, u] = act(sum_i input[b, i] * filter[u, i] + bias[u]).
// The input is viewed as [batches, input_size] with input_size = filter dim 1
// (so any rank works, keep_num_dims only changes the output shape the model
// declares). float32, and int8 with per-tensor or per-channel (per unit)
// filter scales.
//
// int8: filter zero point is 0, so
//   acc = bias[u] + sum_i (input[b, i] + input_offset) * filter[u, i]
// (the DSP kernel adds the offset while it unpacks the input, at no cost).
// The op data holds only the requantization; the shapes come from the
// tensors at eval.
//
// This file: init, prepare and the float eval; the int8 eval is
// fully_connected_int8.cc (portable) or a tag-specialized replacement
// (arm_dsp/fully_connected_int8.cc), like CONV_2D's.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/fully_connected.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "FULLY_CONNECTED";

using OpData = FullyConnectedOpData;

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const TfLiteFullyConnectedParams* params =
      static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = nullptr;
  const TfLiteTensor* filter = nullptr;
  const TfLiteTensor* bias = nullptr;
  const TfLiteTensor* output = nullptr;
  TF_LITE_ENSURE_OK(context, GetFilterOpTensors(kOp, context, node, &input, &filter, &bias, &output));

  if (NumDimensions(filter) != 2) {
    MicroPrintf("%s: filter must be 2-D [units, input_size], got rank %d", kOp, NumDimensions(filter));
    return kTfLiteError;
  }
  const int32_t units = SizeOfDimension(filter, 0);
  const int32_t input_size = SizeOfDimension(filter, 1);
  const int32_t input_elements = ElementCount(input->dims);
  if (input_size <= 0 || input_elements % input_size != 0) {
    MicroPrintf("%s: input has %d elements, not a multiple of the filter's input size %d", kOp,
                static_cast<int>(input_elements), static_cast<int>(input_size));
    return kTfLiteError;
  }
  const int32_t batches = input_elements / input_size;
  // int64: prepare runs before the arena plan bounds the shapes (fuzzing).
  if (ElementCount(output->dims) != static_cast<int64_t>(batches) * units) {
    MicroPrintf("%s: output has %d elements, expected batches %d x units %d", kOp,
                static_cast<int>(ElementCount(output->dims)), static_cast<int>(batches),
                static_cast<int>(units));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckFilterOpTypes(kOp, input, filter, bias, output, units, "unit"));
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  // Per-tensor filters use the rounding path TFLite uses for this op.
  return PrepareInt8ChannelQuant(
      kOp, context, input, filter, bias, output, params->activation, static_cast<int>(units), 0,
      kFullyConnectedRounding | (input->type == kTfLiteInt16 ? kInt16Activations : 0u), &data->q);
}

TfLiteStatus EvalFloat(const FullyConnectedShape& shape, const TfLiteFullyConnectedParams* params,
                       const TfLiteTensor* input, const TfLiteTensor* filter,
                       const TfLiteTensor* bias, TfLiteTensor* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(params->activation, &act_min, &act_max);
  const int32_t n = shape.input_size;
  const float* in = input->data.f;
  float* out = output->data.f;
  const float* b = bias != nullptr ? bias->data.f : nullptr;
  const int32_t units = shape.units;
  for (int32_t batch = 0; batch < shape.batches; ++batch) {
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

// The int8 eval of Eval and of Register_FULLY_CONNECTED_INT8.
// Inlined into both: as a call of its own it cost hello_world_int8 156 instructions per Invoke.
__attribute__((always_inline)) inline TfLiteStatus EvalInt8Tensors(TfLiteContext* context, const OpData* data,
                                                                   const TfLiteTensor* input,
                                                                   const TfLiteTensor* filter,
                                                                   const TfLiteTensor* bias, TfLiteTensor* output,
                                                                   const FullyConnectedShape& shape) {
  TF_LITE_ENSURE_OK(context, CheckVariableBiasRange(kOp, input, filter, bias, SizeOfDimension(filter, 0), 0));
  return FullyConnectedEvalInt8(data->q, shape, input->data.int8, filter->data.int8,
                                bias != nullptr ? bias->data.i32 : nullptr, output->data.int8);
}

TfLiteStatus EvalInt8(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  return EvalInt8Tensors(context, static_cast<const OpData*>(node->user_data), input, filter,
                         GetOptionalBias(context, node), GetOutput(context, node, 0),
                         FullyConnectedShapeOf(input, filter));
}

TfLiteStatus PrepareInt8(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, RequireInt8Input(kOp, "Register_FULLY_CONNECTED_INT8", context, node));
  return Prepare(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const TfLiteFullyConnectedParams* params =
      static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* filter = GetInput(context, node, 1);
  const TfLiteTensor* bias = GetOptionalBias(context, node);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const FullyConnectedShape shape = FullyConnectedShapeOf(input, filter);
  switch (input->type) {
    case kTfLiteFloat32:
      return EvalFloat(shape, params, input, filter, bias, output);
    case kTfLiteInt8:
      return EvalInt8Tensors(context, data, input, filter, bias, output, shape);
    case kTfLiteInt16: {
      Int16FilterEval e;
      TF_LITE_ENSURE_OK(context,
                        PrepareInt16FilterEval(bias, output, params->activation, &e, params->quantized_bias_type));
      return FullyConnectedEvalInt16(data->q, e, shape, input->data.i16, filter->data.int8, output->data.i16);
    }
    default:
      MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", kOp,
                  TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_FULLY_CONNECTED() { return {Init, nullptr, Prepare, Eval}; }
TfLiteRegistration Register_FULLY_CONNECTED_INT8() { return {Init, nullptr, PrepareInt8, EvalInt8}; }

}  // namespace micro_runtime
