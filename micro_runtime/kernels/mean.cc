// MEAN: the average over the axes of the int32 `axis` tensor (input 1;
// negative counts from the end, repeats count once), keeping them as size-1
// axes when keep_dims. Up to 6 dimensions. TFLM's reduce arithmetic, so
// results are bit-exact with it:
//  - float32: each output sums its inputs in row-major input order, then
//    divides by the element count as a float;
//  - int8/int16: int32 sums (wrapping like TFLite), minus zero point x count,
//    then times input_scale / output_scale with 1/count folded into the
//    multiplier the way TFLite does (the Q31 multiplier shifted left by
//    floor(log2 count) bits, at most 32 and at most 31 + its shift, and
//    divided by the count with truncation), plus the output zero point,
//    saturated. int16 needs zero point 0.
// A constant axis tensor is resolved and checked in prepare; one computed by
// an earlier op at every invoke. A zero-size input gives zeros, as TFLM.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "MEAN";
constexpr int kMaxDims = kMaxShapeDims;

// What the axes make of the input: the element strides of the output along
// every input axis (0 along a reduced one) and the count per output.
struct MeanPlan {
  int32_t out_stride[kMaxDims];
  int32_t count;       // input elements per output element
  int32_t multiplier;  // int8/int16: input_scale / output_scale / count
  int32_t shift;
};

struct MeanOpData {
  MeanPlan plan;
  int32_t base_multiplier;  // input_scale / output_scale
  int32_t base_shift;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int scratch_index;  // int8/int16: one int32 sum per output element
  bool planned;       // the axis tensor was constant: plan made in prepare
};

// Resolves the axes, checks the output shape and fills `plan`.
TfLiteStatus Plan(const TfLiteTensor* input, const TfLiteTensor* axis, const TfLiteTensor* output, bool keep_dims,
                  const MeanOpData& d, MeanPlan* plan) {
  const int rank = input->dims->size;
  const int32_t num_axis = ElementCount(axis->dims);
  bool reduced[kMaxDims] = {};
  for (int32_t i = 0; i < num_axis; ++i) {
    const int32_t given = axis->data.i32[i];
    const int32_t a = given < 0 ? given + rank : given;
    if (a < 0 || a >= rank) {
      MicroPrintf("%s: axis %d is outside [%d, %d) for a %d-D input", kOp, static_cast<int>(given), -rank, rank, rank);
      return kTfLiteError;
    }
    reduced[a] = true;
  }
  int32_t expected[kMaxDims] = {};
  int out_rank = 0;
  int64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    if (reduced[i]) count *= input->dims->data[i];
    if (!reduced[i] || keep_dims) expected[out_rank++] = reduced[i] ? 1 : input->dims->data[i];
  }
  TF_LITE_ENSURE_OK(nullptr, CheckOutputShape(kOp, output, expected, out_rank));
  plan->count = static_cast<int32_t>(count);  // at most the input's element count
  int32_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    plan->out_stride[i] = reduced[i] ? 0 : stride;
    if (!reduced[i]) stride *= input->dims->data[i];
  }
  plan->multiplier = d.base_multiplier;
  plan->shift = d.base_shift;
  if (input->type != kTfLiteFloat32 && count > 0) {
    // 1/count into the multiplier, as TFLite's QuantizedMeanOrSum.
    int s = 63 - __builtin_clzll(static_cast<uint64_t>(count));
    if (s > 32) s = 32;
    if (s > 31 + d.base_shift) s = 31 + d.base_shift;
    if (s < 0) s = 0;
    plan->multiplier = static_cast<int32_t>((static_cast<int64_t>(d.base_multiplier) << s) / count);
    plan->shift = d.base_shift - s;
    if (plan->shift > 30) {
      MicroPrintf("%s: input scale / output scale is too large (%f / %f)", kOp,
                  static_cast<double>(input->params.scale), static_cast<double>(output->params.scale));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

bool KeepDims(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteReducerParams*>(node->builtin_data);
  return params != nullptr && params->keep_dims;
}

TfLiteStatus MeanPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(kOp, context, node, 2, 2, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* axis = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8 && input->type != kTfLiteInt16) {
    return ReportUnsupportedType(kOp, input->type, "float32, int8, int16");
  }
  TF_LITE_ENSURE_OK(context, CheckSameType(kOp, input, output));
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "input", input, kMaxDims));
  if (axis->type != kTfLiteInt32) return ReportUnsupportedType(kOp, axis->type, "int32", "axis");
  if (node->user_data == nullptr) node->user_data = AllocateOpData(kOp, context, sizeof(MeanOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  auto* d = static_cast<MeanOpData*>(node->user_data);
  d->base_multiplier = 0;
  d->base_shift = 0;
  d->planned = false;
  if (input->type != kTfLiteFloat32) {
    TF_LITE_ENSURE_OK(context, CheckQuantized(kOp, "input", input));
    TF_LITE_ENSURE_OK(context, CheckQuantized(kOp, "output", output));
    int shift = 0;
    QuantizeMultiplier(static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
                       &d->base_multiplier, &shift);
    d->base_shift = shift;
    d->input_zero_point = input->params.zero_point;
    d->output_zero_point = output->params.zero_point;
    const size_t sums = static_cast<size_t>(ElementCount(output->dims)) * sizeof(int32_t);
    TF_LITE_ENSURE_OK(context, context->RequestScratchBufferInArena(context, sums, &d->scratch_index));
  }
  if (axis->is_constant && axis->data.raw_const != nullptr) {
    TF_LITE_ENSURE_OK(context, Plan(input, axis, output, KeepDims(node), *d, &d->plan));
    d->planned = true;
  }
  return kTfLiteOk;
}

// Calls f(out_offset, in_index) for every input element in row-major order.
template <typename F>
void ForEachInput(const TfLiteIntArray* dims, const MeanPlan& plan, F f) {
  const int rank = dims->size;
  const int32_t count = ElementCount(dims);
  int32_t index[kMaxDims] = {};
  int32_t offset = 0;
  for (int32_t i = 0; i < count; ++i) {
    f(offset, i);
    for (int d = rank - 1; d >= 0; --d) {
      offset += plan.out_stride[d];
      if (++index[d] < dims->data[d]) break;
      offset -= plan.out_stride[d] * dims->data[d];
      index[d] = 0;
    }
  }
}

template <typename T>
void QuantizedMean(const TfLiteTensor* input, TfLiteTensor* output, const MeanOpData& d, const MeanPlan& plan,
                   int32_t* sums) {
  const int32_t outputs = ElementCount(output->dims);
  T* out = TensorData<T>(output);
  for (int32_t o = 0; o < outputs; ++o) {
    sums[o] = 0;
    out[o] = 0;
  }
  if (ElementCount(input->dims) == 0 || plan.count == 0) return;
  const T* in = TensorData<T>(input);
  ForEachInput(input->dims, plan, [&](int32_t o, int32_t i) { sums[o] = WrappingAdd(sums[o], in[i]); });
  const int64_t zero = static_cast<int64_t>(d.input_zero_point) * plan.count;
  for (int32_t o = 0; o < outputs; ++o) {
    const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(sums[o]) - zero));
    out[o] = SaturateTo<T>(MultiplyByQuantizedMultiplier(shifted, plan.multiplier, plan.shift) +
                                          d.output_zero_point);
  }
}

TfLiteStatus MeanInvoke(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
  const auto& d = *static_cast<const MeanOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  MeanPlan plan;
  if (d.planned) {
    plan = d.plan;
  } else {
    TF_LITE_ENSURE_OK(context, Plan(input, GetInput(context, node, 1), output, KeepDims(node), d, &plan));
  }
  if (input->type == kTfLiteFloat32) {
    float* out = output->data.f;
    const int32_t outputs = ElementCount(output->dims);
    for (int32_t o = 0; o < outputs; ++o) out[o] = 0.0f;
    const float* in = input->data.f;
    ForEachInput(input->dims, plan, [&](int32_t o, int32_t i) { out[o] += in[i]; });
    if (plan.count > 0) {
      const float count = static_cast<float>(plan.count);
      for (int32_t o = 0; o < outputs; ++o) out[o] /= count;
    }
    return kTfLiteOk;
  }
  auto* sums = static_cast<int32_t*>(context->GetScratchBuffer(context, d.scratch_index));
  if (input->type == kTfLiteInt16) {
    QuantizedMean<int16_t>(input, output, d, plan, sums);
  } else {
    QuantizedMean<int8_t>(input, output, d, plan, sums);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_MEAN() { return {nullptr, nullptr, MeanPrepare, MeanInvoke}; }

}  // namespace micro_runtime
