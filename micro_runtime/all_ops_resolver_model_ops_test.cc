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

// Versions the converter writes (true) and versions beyond what the kernels implement (false). A table
// and one check instead of one expectation each: every expectation carries its own text and code, and this
// binary must fit a 64 KB Blue Pill.
struct VersionCase {
  Op op;
  int version;
  bool supported;
};
constexpr VersionCase kVersionCases[] = {
    {Op::CONV_2D, 3, true}, {Op::DEPTHWISE_CONV_2D, 2, true}, {Op::DEPTHWISE_CONV_2D, 3, true},
    {Op::FULLY_CONNECTED, 4, true}, {Op::SOFTMAX, 2, true}, {Op::MAX_POOL_2D, 2, true},
    {Op::AVERAGE_POOL_2D, 2, true},
    // int16 activations (16x8 filter ops, QUANTIZE's int16 pairs, DEQUANTIZE int16, ADD, MUL, pooling,
    // LOGISTIC, TANH, RELU, RELU6, SOFTMAX).
    {Op::CONV_2D, 4, true}, {Op::DEPTHWISE_CONV_2D, 5, true}, {Op::FULLY_CONNECTED, 7, true},
    {Op::DEQUANTIZE, 3, true}, {Op::ADD, 3, true}, {Op::MUL, 4, true}, {Op::AVERAGE_POOL_2D, 3, true},
    {Op::MAX_POOL_2D, 3, true}, {Op::LOGISTIC, 3, true}, {Op::TANH, 3, true}, {Op::RELU, 3, true},
    {Op::RELU6, 3, true}, {Op::SOFTMAX, 3, true},
    // Versions beyond what the kernels implement are refused.
    {Op::CONV_2D, 5, false}, {Op::FULLY_CONNECTED, 8, false}, {Op::RESHAPE, 2, false},
    {Op::ADD, 4, false},  // int64
    {Op::MUL, 5, false},  // int64
    {Op::RELU, 4, false}, {Op::LOGISTIC, 4, false}, {Op::SOFTMAX, 4, false},
};

TF_LITE_MICRO_TEST(VersionRangesCoverTheConvertersOutput) {
  ModelOpsResolver resolver;
  for (const VersionCase& c : kVersionCases) {
    const bool supported = resolver.Supports(c.op, c.version);
    if (supported != c.supported) {
      MicroPrintf("builtin op %d version %d: %s, expected %s", static_cast<int>(c.op), c.version,
                  supported ? "supported" : "refused", c.supported ? "supported" : "refused");
    }
    TF_LITE_MICRO_EXPECT(supported == c.supported);
  }
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
