// AllOpsResolver's elementwise ops (AddElementwiseOps): every kernel of the
// group is registered, with the version ranges of the types and
// broadcasting it implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class ElementwiseOpsResolver : public MicroMutableOpResolver<kElementwiseOpsCount> {
 public:
  ElementwiseOpsResolver() { AddElementwiseOps(*this); }
};

bool Supports(const ElementwiseOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  ElementwiseOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kElementwiseOpsCount, resolver.size());
  const Op ops[] = {Op::ABS,     Op::DIV,   Op::EXP,   Op::HARD_SWISH, Op::LEAKY_RELU,         Op::LOG, Op::MAXIMUM,
                    Op::MINIMUM, Op::PRELU, Op::RSQRT, Op::SQRT,       Op::SQUARED_DIFFERENCE, Op::SUB};
  for (Op op : ops) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ElementwiseOpsResolver resolver;
  // int8 (v2), broadcasting beyond 4-D (SUB v3, DIV v2, MAXIMUM/MINIMUM v3) and int16 variants.
  const Op two[] = {Op::SUB, Op::DIV, Op::MAXIMUM, Op::MINIMUM, Op::SQUARED_DIFFERENCE, Op::ABS, Op::RSQRT,
                    Op::LEAKY_RELU};
  for (Op op : two) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 2));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SUB, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::MAXIMUM, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::MINIMUM, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::ABS, 3));
  // Versions beyond what the kernels implement are refused.
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::ABS, 4));    // unquantized int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::EXP, 2));    // quantized EXP: TFLM has none
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::LOG, 2));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::RSQRT, 3));  // int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SQUARED_DIFFERENCE, 3));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SUB, 6));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::HARD_SWISH, 2));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::PRELU, 2));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ElementwiseOpsResolver(), kElementwiseOpRanges));
}

TF_LITE_MICRO_TESTS_END
