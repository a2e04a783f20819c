// AllOpsResolver's elementwise ops (AddElementwiseOps): every kernel of the
// group is registered, with the version ranges of the types and
// broadcasting it implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using ElementwiseOpsResolver = OpGroupResolver<kElementwiseOpsCount, AddElementwiseOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::ABS,     Op::DIV,   Op::EXP,   Op::HARD_SWISH, Op::LEAKY_RELU,         Op::LOG, Op::MAXIMUM,
                    Op::MINIMUM, Op::PRELU, Op::RSQRT, Op::SQRT,       Op::SQUARED_DIFFERENCE, Op::SUB};
  const ElementwiseOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ElementwiseOpsResolver resolver;
  // int8 (v2), broadcasting beyond 4-D (SUB v3, DIV v2, MAXIMUM/MINIMUM v3) and int16 variants.
  const Op two[] = {Op::SUB, Op::DIV, Op::MAXIMUM, Op::MINIMUM, Op::SQUARED_DIFFERENCE, Op::ABS, Op::RSQRT,
                    Op::LEAKY_RELU};
  for (Op op : two) TF_LITE_MICRO_EXPECT(resolver.Supports(op, 2));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SUB, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MAXIMUM, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MINIMUM, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::ABS, 3));
  // Versions beyond what the kernels implement are refused.
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::ABS, 4));    // unquantized int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::EXP, 2));    // quantized EXP: TFLM has none
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::LOG, 2));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::RSQRT, 3));  // int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SQUARED_DIFFERENCE, 3));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SUB, 6));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::HARD_SWISH, 2));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::PRELU, 2));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ElementwiseOpsResolver(), kElementwiseOpRanges));
}

TF_LITE_MICRO_TESTS_END
