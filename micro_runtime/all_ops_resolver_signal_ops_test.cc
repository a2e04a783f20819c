// AllOpsResolver's signal-processing ops (AddSignalOps: SVDF, TRANSPOSE_CONV):
// every kernel of the group is registered, with the version ranges of the
// types it implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class SignalOpsResolver : public MicroMutableOpResolver<kSignalOpsCount> {
 public:
  SignalOpsResolver() { AddSignalOps(*this); }
};

bool Supports(const SignalOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  SignalOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kSignalOpsCount, resolver.size());
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SVDF, 1));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE_CONV, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  SignalOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SVDF, 3));            // int8
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SVDF, 4));            // hybrid: reaches prepare, which refuses it
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SVDF, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE_CONV, 2));  // int8
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE_CONV, 3));  // bias input
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE_CONV, 4));  // fused activation
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE_CONV, 5));  // 16x8 quantized_bias_type
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::TRANSPOSE_CONV, 6));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(SignalOpsResolver(), kSignalOpRanges));
}

TF_LITE_MICRO_TESTS_END
