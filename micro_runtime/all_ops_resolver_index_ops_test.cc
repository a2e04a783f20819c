// AllOpsResolver's index and type ops (AddIndexOps): every kernel of the
// group is registered, with the version ranges of the types and ranks it
// implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class IndexOpsResolver : public MicroMutableOpResolver<kIndexOpsCount> {
 public:
  IndexOpsResolver() { AddIndexOps(*this); }
};

bool Supports(const IndexOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  IndexOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kIndexOpsCount, resolver.size());
  const Op ops[] = {Op::ARG_MAX, Op::ARG_MIN, Op::BATCH_TO_SPACE_ND, Op::CAST, Op::GATHER, Op::SPACE_TO_BATCH_ND};
  for (Op op : ops) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  IndexOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::GATHER, 2));   // int8
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::GATHER, 5));   // batch_dims
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::GATHER, 6));   // int16 positions
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::GATHER, 7));  // int4
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::ARG_MAX, 3));  // bool
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::ARG_MAX, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::ARG_MIN, 3));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::ARG_MIN, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::CAST, 3));    // int8
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::CAST, 4));   // uint16
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SPACE_TO_BATCH_ND, 3));  // 3-D
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SPACE_TO_BATCH_ND, 4));  // int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SPACE_TO_BATCH_ND, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::BATCH_TO_SPACE_ND, 4));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::BATCH_TO_SPACE_ND, 5));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(IndexOpsResolver(), kIndexOpRanges));
}

TF_LITE_MICRO_TESTS_END
