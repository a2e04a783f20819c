#include "micro_runtime/testing/test_ops.h"

#include <string.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/micro_log.h"

namespace test_ops {

Counters g_counters = {0, 0, 0, 0};
void* g_last_scratch[4] = {nullptr, nullptr, nullptr, nullptr};
size_t g_init_persistent_bytes = 0;

void ResetCounters() {
  g_counters = {0, 0, 0, 0};
  for (void*& p : g_last_scratch) p = nullptr;
}

namespace {

void* CountInit(TfLiteContext*, const char*, size_t) {
  ++g_counters.init;
  return nullptr;
}

void CountFree(TfLiteContext*, void*) { ++g_counters.free; }

TfLiteStatus FcPrepare(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.prepare;
  TF_LITE_ENSURE(context, NumInputs(node) >= 2 && NumOutputs(node) == 1);
  const TfLiteTensor* in = GetInput(context, node, 0);
  const TfLiteTensor* w = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) > 2 ? GetInput(context, node, 2) : nullptr;
  const TfLiteTensor* out = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, in != nullptr && w != nullptr && out != nullptr);
  TF_LITE_ENSURE(context, in->type == kTfLiteFloat32 && w->type == kTfLiteFloat32 && out->type == kTfLiteFloat32);
  TF_LITE_ENSURE(context, NumDimensions(w) == 2 && NumDimensions(out) >= 1);
  const int32_t units = SizeOfDimension(w, 0);
  const int32_t depth = SizeOfDimension(w, 1);
  TF_LITE_ENSURE(context, depth > 0 && ElementCount(in->dims) % depth == 0);
  TF_LITE_ENSURE_EQ(context, ElementCount(out->dims), ElementCount(in->dims) / depth * units);
  if (bias != nullptr) {
    TF_LITE_ENSURE(context, bias->type == kTfLiteFloat32 && ElementCount(bias->dims) == units);
  }
  return kTfLiteOk;
}

TfLiteStatus FcInvoke(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.invoke;
  const TfLiteTensor* in = GetInput(context, node, 0);
  const TfLiteTensor* w = GetInput(context, node, 1);
  const TfLiteTensor* bias = NumInputs(node) > 2 ? GetInput(context, node, 2) : nullptr;
  TfLiteTensor* out = GetOutput(context, node, 0);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const int32_t units = SizeOfDimension(w, 0);
  const int32_t depth = SizeOfDimension(w, 1);
  const int32_t batches = ElementCount(in->dims) / depth;
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t u = 0; u < units; ++u) {
      float sum = bias != nullptr ? bias->data.f[u] : 0.0f;
      for (int32_t d = 0; d < depth; ++d) sum += in->data.f[b * depth + d] * w->data.f[u * depth + d];
      if (params != nullptr && params->activation == kTfLiteActRelu && sum < 0.0f) sum = 0.0f;
      out->data.f[b * units + u] = sum;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus FloatUnaryPrepare(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.prepare;
  TF_LITE_ENSURE(context, NumInputs(node) >= 1 && NumOutputs(node) == 1);
  const TfLiteTensor* in = GetInput(context, node, 0);
  const TfLiteTensor* out = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, in != nullptr && out != nullptr);
  TF_LITE_ENSURE(context, in->type == kTfLiteFloat32 && out->type == kTfLiteFloat32);
  TF_LITE_ENSURE(context, ElementCount(in->dims) > 0);
  return kTfLiteOk;
}

TfLiteStatus AddOneInvoke(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.invoke;
  const TfLiteTensor* in = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  const int32_t in_count = ElementCount(in->dims);
  const int32_t out_count = ElementCount(out->dims);
  for (int32_t i = 0; i < out_count; ++i) out->data.f[i] = in->data.f[i % in_count] + 1.0f;
  return kTfLiteOk;
}

TfLiteStatus CopyPrepare(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.prepare;
  TF_LITE_ENSURE(context, NumInputs(node) >= 1 && NumOutputs(node) == 1);
  const TfLiteTensor* in = GetInput(context, node, 0);
  const TfLiteTensor* out = GetOutput(context, node, 0);
  TF_LITE_ENSURE(context, in != nullptr && out != nullptr);
  TF_LITE_ENSURE_EQ(context, in->bytes, out->bytes);
  return kTfLiteOk;
}

TfLiteStatus CopyInvoke(TfLiteContext* context, TfLiteNode* node) {
  ++g_counters.invoke;
  const TfLiteTensor* in = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  if (out->data.raw != in->data.raw_const) memmove(out->data.raw, in->data.raw_const, out->bytes);
  return kTfLiteOk;
}

struct ScratchState {
  int buffer_index;
  uint32_t bytes;
  bool optional;
};

TfLiteStatus ScratchPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, FloatUnaryPrepare(context, node));
  const int32_t size = node->custom_initial_data_size;
  TF_LITE_ENSURE(context, node->custom_initial_data != nullptr && (size == 4 || size == 8));
  uint32_t words[2] = {0, 0};
  memcpy(words, node->custom_initial_data, static_cast<size_t>(size));
  const uint32_t bytes = words[0];
  auto* state = static_cast<ScratchState*>(context->AllocatePersistentBuffer(context, sizeof(ScratchState)));
  TF_LITE_ENSURE(context, state != nullptr);
  state->bytes = bytes;
  auto request = words[1] == 1 ? context->RequestOptionalScratchBufferInArena : context->RequestScratchBufferInArena;
  TF_LITE_ENSURE_OK(context, request(context, bytes, &state->buffer_index));
  state->optional = words[1] == 1;
  node->user_data = state;
  return kTfLiteOk;
}

TfLiteStatus ScratchInvoke(TfLiteContext* context, TfLiteNode* node) {
  const auto* state = static_cast<const ScratchState*>(node->user_data);
  uint8_t* scratch = static_cast<uint8_t*>(context->GetScratchBuffer(context, state->buffer_index));
  TF_LITE_ENSURE(context, scratch != nullptr || state->optional);
  if (scratch != nullptr) memset(scratch, 0xA5, state->bytes);
  g_last_scratch[g_counters.invoke % 4] = scratch;
  return AddOneInvoke(context, node);
}

TfLiteStatus NopPrepare(TfLiteContext*, TfLiteNode*) {
  ++g_counters.prepare;
  return kTfLiteOk;
}

TfLiteStatus NopInvoke(TfLiteContext*, TfLiteNode*) {
  ++g_counters.invoke;
  return kTfLiteOk;
}

TfLiteStatus FailPrepare(TfLiteContext*, TfLiteNode*) {
  ++g_counters.prepare;
  MicroPrintf("test op: prepare fails on purpose");
  return kTfLiteError;
}

void* GreedyInit(TfLiteContext* context, const char*, size_t) {
  ++g_counters.init;
  return context->AllocatePersistentBuffer(context, g_init_persistent_bytes);
}

}  // namespace

TfLiteRegistration Register_FULLY_CONNECTED_FLOAT() { return {CountInit, CountFree, FcPrepare, FcInvoke}; }
TfLiteRegistration Register_ADD_ONE() { return {CountInit, CountFree, FloatUnaryPrepare, AddOneInvoke}; }
TfLiteRegistration Register_COPY() { return {nullptr, nullptr, CopyPrepare, CopyInvoke}; }
TfLiteRegistration Register_SCRATCH() { return {CountInit, CountFree, ScratchPrepare, ScratchInvoke}; }
TfLiteRegistration Register_NOP() { return {CountInit, CountFree, NopPrepare, NopInvoke}; }
TfLiteRegistration Register_FAIL_PREPARE() { return {CountInit, CountFree, FailPrepare, NopInvoke}; }
TfLiteRegistration Register_GREEDY_INIT() { return {GreedyInit, CountFree, NopPrepare, NopInvoke}; }

}  // namespace test_ops
