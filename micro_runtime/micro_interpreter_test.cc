// MicroInterpreter end to end with the test-only kernels of testing/test_ops:
// the real hello_world float model gives TFLM's outputs, tensors point into
// the model, op lifecycles run in order, and misuse fails cleanly.
#include <string.h>

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/models/chain_model_data.h"
#include "micro_runtime/models/fc_external_model_data.h"
#include "micro_runtime/models/fc_model_data.h"
#include "micro_runtime/models/hello_float_ref_model_data.h"
#include "micro_runtime/models/hello_int8_ref_model_data.h"
#include "micro_runtime/models/optional_scratch_model_data.h"
#include "micro_runtime/models/per_channel_model_data.h"
#include "micro_runtime/models/scratch_model_data.h"
#include "micro_runtime/testing/test_ops.h"

namespace {

using Op = tflite::BuiltinOperator;

constexpr size_t kArenaSize = 4096;
alignas(16) uint8_t g_arena[kArenaSize];

// The resolver every test uses: test kernels under the builtin codes and
// custom names the test models use.
class TestResolver : public MicroMutableOpResolver<6> {
 public:
  TestResolver() {
    AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_FULLY_CONNECTED_FLOAT(), 1, 1);
    AddBuiltin(Op::RESHAPE, test_ops::Register_COPY());
    AddCustom("AddOne", test_ops::Register_ADD_ONE());
    AddCustom("Scratch", test_ops::Register_SCRATCH());
  }
};

bool Inside(const void* p, const void* start, size_t size) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  const uint8_t* s = static_cast<const uint8_t*>(start);
  return b >= s && b < s + size;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(HelloWorldFloatMatchesTflm) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.initialization_status());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(1u, interpreter.inputs_size());
  TF_LITE_MICRO_EXPECT_EQ(1u, interpreter.outputs_size());
  TF_LITE_MICRO_EXPECT_EQ(10u, interpreter.tensors_size());
  TF_LITE_MICRO_EXPECT_EQ(3u, interpreter.operators_size());
  // Inputs and expected outputs of TFLM's reference interpreter (cases.json).
  const float inputs[] = {0.0f, 1.0f, 3.0f, 5.0f, 6.2f};
  const float expected[] = {0.02640528976917267f, 0.8630436062812805f, 0.12764602899551392f, -0.9565187692642212f,
                            -0.11011934280395508f};
  for (int i = 0; i < 5; ++i) {
    TfLiteTensor* in = interpreter.input(0);
    TF_LITE_MICRO_EXPECT(in != nullptr);
    if (in == nullptr) break;
    in->data.f[0] = inputs[i];
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    TF_LITE_MICRO_EXPECT_NEAR(expected[i], interpreter.output(0)->data.f[0], 1e-5f);
  }
  // TFLM needs 1,536 bytes for this model on x86-64.
  TF_LITE_MICRO_EXPECT_GT(interpreter.arena_used_bytes(), 0u);
  TF_LITE_MICRO_EXPECT_LE(interpreter.arena_used_bytes(), 1536u);
  MicroPrintf("hello_world_float arena_used_bytes=%u", static_cast<unsigned>(interpreter.arena_used_bytes()));
}

TF_LITE_MICRO_TEST(TensorsPointIntoTheModel) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_hello_float_ref_model_data, g_hello_float_ref_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  // Tensor 5 is the 16x16 weight matrix: constant, in flash, not copied.
  const TfLiteTensor* weights = interpreter.tensor(5);
  TF_LITE_MICRO_EXPECT(weights != nullptr);
  if (weights == nullptr) continue;  // ends this test (the body runs in a run-once loop)
  TF_LITE_MICRO_EXPECT(weights->is_constant);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteFloat32, weights->type);
  TF_LITE_MICRO_EXPECT_EQ(1024u, weights->bytes);
  TF_LITE_MICRO_EXPECT(Inside(weights->data.raw_const, g_hello_float_ref_model_data,
                              g_hello_float_ref_model_data_size));
  TF_LITE_MICRO_EXPECT(Inside(weights->dims, g_hello_float_ref_model_data, g_hello_float_ref_model_data_size));
  TF_LITE_MICRO_EXPECT_EQ(2, weights->dims->size);
  TF_LITE_MICRO_EXPECT_EQ(16, weights->dims->data[0]);
  // Activations live in the arena, 16-byte aligned.
  const TfLiteTensor* input = interpreter.input(0);
  TF_LITE_MICRO_EXPECT(!input->is_constant);
  TF_LITE_MICRO_EXPECT(Inside(input->data.raw, g_arena, kArenaSize));
  TF_LITE_MICRO_EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(input->data.raw) % 16);
  TF_LITE_MICRO_EXPECT(interpreter.input(1) == nullptr);
  TF_LITE_MICRO_EXPECT(interpreter.output(1) == nullptr);
  TF_LITE_MICRO_EXPECT(interpreter.tensor(10) == nullptr);
}

TF_LITE_MICRO_TEST(HelloWorldInt8AllocatesWithinTflmFigure) {
  // Only allocation: a no-op kernel stands in for the int8 FULLY_CONNECTED (v4).
  MicroMutableOpResolver<1> resolver;
  resolver.AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_NOP(), 1, 4);
  MicroInterpreter interpreter(g_hello_int8_ref_model_data, g_hello_int8_ref_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  const TfLiteTensor* input = interpreter.input(0);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteInt8, input->type);
  TF_LITE_MICRO_EXPECT_GT(input->params.scale, 0.0f);
  TF_LITE_MICRO_EXPECT(input->params.scales == nullptr);
  // TFLM needs 1,504 bytes for this model on x86-64.
  TF_LITE_MICRO_EXPECT_LE(interpreter.arena_used_bytes(), 1504u);
  MicroPrintf("hello_world_int8 arena_used_bytes=%u", static_cast<unsigned>(interpreter.arena_used_bytes()));
  // The two parts the runners print, head and tail; the rest is alignment padding. The head is the
  // activations, two 16-byte tensors live at once; a model this small plans on the stack, so the planner's
  // bookkeeping (16 bytes for each of its 4 buffers) is not in it.
  TF_LITE_MICRO_EXPECT_EQ(32u, interpreter.arena_activation_bytes());
  const size_t parts = interpreter.arena_activation_bytes() + interpreter.arena_persistent_bytes();
  TF_LITE_MICRO_EXPECT_LE(parts, interpreter.arena_used_bytes());
  TF_LITE_MICRO_EXPECT_LT(interpreter.arena_used_bytes(), parts + 24);
}

TF_LITE_MICRO_TEST(InvokeBeforeAllocateFails) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_fc_model_data, g_fc_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.Invoke());
  TF_LITE_MICRO_EXPECT(interpreter.input(0) == nullptr);
  TF_LITE_MICRO_EXPECT(interpreter.output(0) == nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());  // idempotent
  float* x = interpreter.input(0)->data.f;
  x[0] = 1.0f;
  x[1] = 2.0f;
  x[2] = 3.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  // relu([1,2,3].[1,2,3] + 0.5, [1,2,3].[-1,-2,-3] + 10)
  TF_LITE_MICRO_EXPECT_NEAR(14.5f, interpreter.output(0)->data.f[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, interpreter.output(0)->data.f[1], 1e-6f);
}

TF_LITE_MICRO_TEST(FailedAllocationLeavesASafeInterpreter) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_fc_model_data, g_fc_model_data_size, resolver, g_arena, 64);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.initialization_status());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.Invoke());
  TF_LITE_MICRO_EXPECT(interpreter.input(0) == nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());  // retry fails the same way
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.Invoke());
}

TF_LITE_MICRO_TEST(RejectedModelFailsEverywhere) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_fc_model_data, 7, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.initialization_status());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(0u, interpreter.inputs_size());
  TF_LITE_MICRO_EXPECT(interpreter.input(0) == nullptr);
  MicroInterpreter no_arena(g_fc_model_data, g_fc_model_data_size, resolver, nullptr, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, no_arena.AllocateTensors());
}

TF_LITE_MICRO_TEST(OpLifecycleRunsInitPrepareInvokeFree) {
  test_ops::ResetCounters();
  {
    TestResolver resolver;
    MicroInterpreter interpreter(g_chain_model_data, g_chain_model_data_size, resolver, g_arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    // 3 AddOne (counted init/prepare) + RESHAPE copy (prepare counted, no init).
    TF_LITE_MICRO_EXPECT_EQ(3, test_ops::g_counters.init);
    TF_LITE_MICRO_EXPECT_EQ(4, test_ops::g_counters.prepare);
    TF_LITE_MICRO_EXPECT_EQ(0, test_ops::g_counters.invoke);
    float* x = interpreter.input(0)->data.f;
    for (int i = 0; i < 8; ++i) x[i] = static_cast<float>(i);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    TF_LITE_MICRO_EXPECT_EQ(4, test_ops::g_counters.invoke);
    const float* y = interpreter.output(0)->data.f;
    for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_NEAR(static_cast<float>(i % 4) + 3.0f, y[i], 1e-6f);
    TF_LITE_MICRO_EXPECT_EQ(0, test_ops::g_counters.free);
  }
  TF_LITE_MICRO_EXPECT_EQ(3, test_ops::g_counters.free);  // the destructor freed every op
}

TF_LITE_MICRO_TEST(CustomOptionsAndScratchBuffers) {
  test_ops::ResetCounters();
  TestResolver resolver;
  MicroInterpreter interpreter(g_scratch_model_data, g_scratch_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  float* x = interpreter.input(0)->data.f;
  for (int i = 0; i < 4; ++i) x[i] = 10.0f * static_cast<float>(i);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  for (int i = 0; i < 4; ++i) {
    TF_LITE_MICRO_EXPECT_NEAR(10.0f * static_cast<float>(i) + 2.0f, interpreter.output(0)->data.f[i], 1e-6f);
  }
  uint8_t* s0 = static_cast<uint8_t*>(test_ops::g_last_scratch[0]);
  uint8_t* s1 = static_cast<uint8_t*>(test_ops::g_last_scratch[1]);
  TF_LITE_MICRO_EXPECT(Inside(s0, g_arena, kArenaSize));
  TF_LITE_MICRO_EXPECT(Inside(s1, g_arena, kArenaSize));
  TF_LITE_MICRO_EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(s0) % 16);
  // The scratch buffers of different ops never live at the same time, so
  // they share memory; neither overlaps the tensors live at its op.
  TF_LITE_MICRO_EXPECT_EQ(s0, s1);
  const uint8_t* in = interpreter.input(0)->data.uint8;
  const uint8_t* out = interpreter.output(0)->data.uint8;
  TF_LITE_MICRO_EXPECT(in + 16 <= s0 || s0 + 64 <= in);
  TF_LITE_MICRO_EXPECT(out + 16 <= s1 || s1 + 100 <= out);
}

TF_LITE_MICRO_TEST(OptionalScratchBuffersOnlyUseRoomBelowTheHead) {
  // optional_scratch: op 0's tensors set the head (768 bytes, no room for its 16-byte request); op 1's
  // 200 bytes fit in the 256 bytes its tensors leave below the head; op 2's 300 do not.
  test_ops::ResetCounters();
  TestResolver resolver;
  size_t needed = 0;
  {
    MicroInterpreter interpreter(g_optional_scratch_model_data, g_optional_scratch_model_data_size, resolver,
                                 g_arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(768u, interpreter.arena_activation_bytes());
    float* x = interpreter.input(0)->data.f;
    for (int i = 0; i < 128; ++i) x[i] = static_cast<float>(i);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    for (int i = 0; i < 64; ++i) {
      TF_LITE_MICRO_EXPECT_NEAR(static_cast<float>(i) + 3.0f, interpreter.output(0)->data.f[i], 1e-6f);
    }
    TF_LITE_MICRO_EXPECT(test_ops::g_last_scratch[0] == nullptr);
    TF_LITE_MICRO_EXPECT(test_ops::g_last_scratch[2] == nullptr);
    const uint8_t* s1 = static_cast<const uint8_t*>(test_ops::g_last_scratch[1]);
    TF_LITE_MICRO_EXPECT(s1 != nullptr);
    TF_LITE_MICRO_EXPECT(Inside(s1, g_arena, kArenaSize));
    // Apart from op 1's input and output (a and b, the 256-byte tensors that are not the graph output).
    int apart = 0;
    for (size_t t = 0; t < interpreter.tensors_size(); ++t) {
      const TfLiteTensor* tensor = interpreter.tensor(t);
      if (tensor->bytes != 256 || tensor == interpreter.output(0)) continue;
      const uint8_t* p = tensor->data.uint8;
      apart += (p + 256 <= s1 || s1 + 200 <= p) ? 1 : 0;
    }
    TF_LITE_MICRO_EXPECT_EQ(2, apart);
    needed = interpreter.arena_used_bytes();
  }
  // The same arena need as without the optional buffers: the exact size works, one byte less does not.
  {
    MicroInterpreter exact(g_optional_scratch_model_data, g_optional_scratch_model_data_size, resolver, g_arena,
                           needed);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, exact.Invoke());
  }
  MicroInterpreter short_by_one(g_optional_scratch_model_data, g_optional_scratch_model_data_size, resolver, g_arena,
                                needed - 1);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, short_by_one.AllocateTensors());
}

TF_LITE_MICRO_TEST(ExternalBuffersAreRead) {
  TestResolver resolver;
  MicroInterpreter interpreter(g_fc_external_model_data, g_fc_external_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  float* x = interpreter.input(0)->data.f;
  x[0] = 1.0f;
  x[1] = 2.0f;
  x[2] = 3.0f;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
  TF_LITE_MICRO_EXPECT_NEAR(14.5f, interpreter.output(0)->data.f[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, interpreter.output(0)->data.f[1], 1e-6f);
}

TF_LITE_MICRO_TEST(PerChannelQuantizationUsesTheModelsScales) {
  MicroMutableOpResolver<1> resolver;
  resolver.AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_NOP(), 1, 4);
  MicroInterpreter interpreter(g_per_channel_model_data, g_per_channel_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  const TfLiteTensor* x = interpreter.tensor(0);
  const TfLiteTensor* w = interpreter.tensor(1);
  TF_LITE_MICRO_EXPECT_NEAR(0.5f, x->params.scale, 0.0f);
  TF_LITE_MICRO_EXPECT_EQ(-3, x->params.zero_point);
  TF_LITE_MICRO_EXPECT(x->params.scales == nullptr);
  TF_LITE_MICRO_EXPECT(w->params.scales != nullptr);
  if (w->params.scales == nullptr) continue;
  TF_LITE_MICRO_EXPECT(Inside(w->params.scales, g_per_channel_model_data, g_per_channel_model_data_size));
  TF_LITE_MICRO_EXPECT_EQ(3, w->params.scales->size);
  TF_LITE_MICRO_EXPECT_NEAR(0.25f, w->params.scales->data[0], 0.0f);
  TF_LITE_MICRO_EXPECT_NEAR(0.5f, w->params.scales->data[1], 0.0f);
  TF_LITE_MICRO_EXPECT_NEAR(0.125f, w->params.scales->data[2], 0.0f);
  TF_LITE_MICRO_EXPECT_NEAR(0.25f, w->params.scale, 0.0f);
  TF_LITE_MICRO_EXPECT_EQ(0, w->params.zero_point);
  TF_LITE_MICRO_EXPECT_EQ(0, w->quantized_dimension);
  TF_LITE_MICRO_EXPECT_EQ(6, w->data.int8[5]);
}

TF_LITE_MICRO_TEST(PrepareFailureIsReported) {
  test_ops::ResetCounters();
  MicroMutableOpResolver<1> resolver;
  resolver.AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_FAIL_PREPARE());
  {
    MicroInterpreter interpreter(g_fc_model_data, g_fc_model_data_size, resolver, g_arena, kArenaSize);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
    TF_LITE_MICRO_EXPECT_EQ(1, test_ops::g_counters.init);
    // The failed attempt already freed what init created.
    TF_LITE_MICRO_EXPECT_EQ(1, test_ops::g_counters.free);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.Invoke());
  }
  TF_LITE_MICRO_EXPECT_EQ(1, test_ops::g_counters.free);
}

TF_LITE_MICRO_TEST(PersistentExhaustionInInitIsReported) {
  test_ops::ResetCounters();
  MicroMutableOpResolver<1> resolver;
  resolver.AddBuiltin(Op::FULLY_CONNECTED, test_ops::Register_GREEDY_INIT());
  test_ops::g_init_persistent_bytes = kArenaSize;
  MicroInterpreter interpreter(g_fc_model_data, g_fc_model_data_size, resolver, g_arena, kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, interpreter.AllocateTensors());
  test_ops::g_init_persistent_bytes = 40;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());  // a retry after the cause went away
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
}

TF_LITE_MICRO_TESTS_END
