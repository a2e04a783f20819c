// AllOpsResolver's signal-processing ops (AddSignalOps: SVDF, TRANSPOSE_CONV):
// every kernel of the group is registered, with the version ranges of the
// types it implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using SignalOpsResolver = OpGroupResolver<kSignalOpsCount, AddSignalOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::SVDF, Op::TRANSPOSE_CONV};
  TF_LITE_MICRO_EXPECT(SignalOpsResolver().HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  SignalOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SVDF, 3));            // int8
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SVDF, 4));            // hybrid: reaches prepare, which refuses it
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SVDF, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TRANSPOSE_CONV, 2));  // int8
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TRANSPOSE_CONV, 3));  // bias input
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TRANSPOSE_CONV, 4));  // fused activation
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TRANSPOSE_CONV, 5));  // 16x8 quantized_bias_type
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::TRANSPOSE_CONV, 6));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(SignalOpsResolver(), kSignalOpRanges));
}

TF_LITE_MICRO_TESTS_END
