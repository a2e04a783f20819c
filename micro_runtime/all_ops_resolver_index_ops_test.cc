// AllOpsResolver's index and type ops (AddIndexOps): every kernel of the
// group is registered, with the version ranges of the types and ranks it
// implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using IndexOpsResolver = OpGroupResolver<kIndexOpsCount, AddIndexOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::ARG_MAX, Op::ARG_MIN, Op::BATCH_TO_SPACE_ND, Op::CAST, Op::GATHER, Op::SPACE_TO_BATCH_ND};
  const IndexOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  IndexOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::GATHER, 2));   // int8
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::GATHER, 5));   // batch_dims
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::GATHER, 6));   // int16 positions
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::GATHER, 7));  // int4
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::ARG_MAX, 3));  // bool
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::ARG_MAX, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::ARG_MIN, 3));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::ARG_MIN, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::CAST, 3));    // int8
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::CAST, 4));   // uint16
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SPACE_TO_BATCH_ND, 3));  // 3-D
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SPACE_TO_BATCH_ND, 4));  // int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SPACE_TO_BATCH_ND, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::BATCH_TO_SPACE_ND, 4));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::BATCH_TO_SPACE_ND, 5));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(IndexOpsResolver(), kIndexOpRanges));
}

TF_LITE_MICRO_TESTS_END
