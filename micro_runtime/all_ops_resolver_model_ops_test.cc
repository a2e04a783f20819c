// AllOpsResolver's model ops (AddModelOps): every kernel of the group is
// registered with the version ranges the converter writes, and the real
// kernels run the int8 hello_world model with TFLM's reference outputs (its
// cases.json). One group with one model is what fits a 64 KB Blue Pill; the
// float model runs in examples/hello_world.
#include "micro_runtime/all_ops_resolver.h"

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"
#include "micro_runtime/models/hello_int8_ref_model_data.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

constexpr size_t kArenaSize = 2048;
alignas(16) uint8_t g_arena[kArenaSize];

using ModelOpsResolver = OpGroupResolver<kModelOpsCount, AddModelOps>;

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::ADD,     Op::AVERAGE_POOL_2D, Op::CONV_2D, Op::DEPTHWISE_CONV_2D, Op::DEQUANTIZE,
                    Op::FULLY_CONNECTED, Op::LOGISTIC, Op::MAX_POOL_2D, Op::MUL, Op::QUANTIZE,
                    Op::RELU, Op::RELU6, Op::RESHAPE, Op::SIN, Op::SOFTMAX, Op::TANH};
  const ModelOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.HoldsAll(ops));
  TF_LITE_MICRO_EXPECT(resolver.Find(static_cast<int32_t>(Op::CUSTOM), "Atan", 1) != nullptr);
}

TF_LITE_MICRO_TEST(VersionRangesCoverTheConvertersOutput) {
  ModelOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::CONV_2D, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::DEPTHWISE_CONV_2D, 2));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::DEPTHWISE_CONV_2D, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::FULLY_CONNECTED, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SOFTMAX, 2));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MAX_POOL_2D, 2));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::AVERAGE_POOL_2D, 2));
  // int16 activations (16x8 filter ops, QUANTIZE's int16 pairs, DEQUANTIZE int16, ADD, MUL, pooling,
  // LOGISTIC, TANH, RELU, RELU6, SOFTMAX).
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::CONV_2D, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::DEPTHWISE_CONV_2D, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::FULLY_CONNECTED, 7));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::DEQUANTIZE, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::ADD, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MUL, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::AVERAGE_POOL_2D, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MAX_POOL_2D, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::LOGISTIC, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TANH, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::RELU, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::RELU6, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SOFTMAX, 3));
  // Versions beyond what the kernels implement are refused.
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::CONV_2D, 5));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::FULLY_CONNECTED, 8));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::RESHAPE, 2));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::ADD, 4));  // int64
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::MUL, 5));  // int64
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::RELU, 4));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::LOGISTIC, 4));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SOFTMAX, 4));
}

TF_LITE_MICRO_TEST(HelloWorldInt8WithRealKernels) {
  ModelOpsResolver resolver;
  MicroInterpreter interpreter(g_hello_int8_ref_model_data, g_hello_int8_ref_model_data_size, resolver, g_arena,
                               kArenaSize);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.AllocateTensors());
  if (interpreter.input(0) == nullptr) continue;
  const int8_t inputs[] = {-128, -96, -63, -34, 0, 127};
  const int8_t expected[] = {4, 89, 125, 93, 4, -9};
  for (int i = 0; i < 6; ++i) {
    interpreter.input(0)->data.int8[0] = inputs[i];
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, interpreter.Invoke());
    // Quantized results may differ by one step between implementations.
    TF_LITE_MICRO_EXPECT_NEAR(static_cast<int>(expected[i]), static_cast<int>(interpreter.output(0)->data.int8[0]),
                              1);
  }
  TF_LITE_MICRO_EXPECT_LE(interpreter.arena_used_bytes(), 1504u);  // TFLM on x86-64
  MicroPrintf("hello_world_int8 (real kernels) arena_used_bytes=%u",
              static_cast<unsigned>(interpreter.arena_used_bytes()));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ModelOpsResolver(), kModelOpRanges));
}

TF_LITE_MICRO_TESTS_END
