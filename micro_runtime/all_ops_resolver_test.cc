// AllOpsResolver: the union of its groups (AddModelOps, AddElementwiseOps,
// AddShapeOps, AddSignalOps, AddIndexOps, AddImageOps, AddLstmOps), each op once. Every
// kernel together (62 KB of flash on
// bluepill before the interpreter) no longer fits a 64 KB Blue Pill with the
// test framework, so this test compares the groups' registration tables
// (kModelOpRanges, ...: the X-macro lists the Add functions expand) without
// linking a kernel, on every board. The groups' own tests register their
// kernels and check that their resolver registered exactly their table
// (ResolverMatchesTheTable), so the tables are what AllOpsResolver holds.
#include "micro_runtime/all_ops_resolver.h"

#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

struct Group {
  const OpVersionRange* ranges;
  size_t count;
};

constexpr Group kGroups[] = {
    {kModelOpRanges, sizeof(kModelOpRanges) / sizeof(kModelOpRanges[0])},
    {kElementwiseOpRanges, sizeof(kElementwiseOpRanges) / sizeof(kElementwiseOpRanges[0])},
    {kShapeOpRanges, sizeof(kShapeOpRanges) / sizeof(kShapeOpRanges[0])},
    {kSignalOpRanges, sizeof(kSignalOpRanges) / sizeof(kSignalOpRanges[0])},
    {kIndexOpRanges, sizeof(kIndexOpRanges) / sizeof(kIndexOpRanges[0])},
    {kImageOpRanges, sizeof(kImageOpRanges) / sizeof(kImageOpRanges[0])},
    {kLstmOpRanges, sizeof(kLstmOpRanges) / sizeof(kLstmOpRanges[0])},
};

const OpVersionRange* FindRange(Op op) {
  const OpVersionRange* found = nullptr;
  for (const Group& g : kGroups) {
    for (size_t i = 0; i < g.count; ++i) {
      if (g.ranges[i].op == op) found = &g.ranges[i];
    }
  }
  return found;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryGroupIsRegisteredOnce) {
  TF_LITE_MICRO_EXPECT_EQ(kModelOpsCount + kElementwiseOpsCount + kShapeOpsCount + kSignalOpsCount + kIndexOpsCount +
                              kImageOpsCount + kLstmOpsCount,
                          kAllOpsCount);
  size_t builtins = 0;
  for (const Group& g : kGroups) {
    for (size_t i = 0; i < g.count; ++i) {
      const OpVersionRange& r = g.ranges[i];
      ++builtins;
      // Every range starts at version 1 and is not empty.
      TF_LITE_MICRO_EXPECT_EQ(1, r.first_version);
      TF_LITE_MICRO_EXPECT(r.last_version >= r.first_version);
      // No op in two groups (AddBuiltin would refuse the second and the count would fall short).
      int times = 0;
      for (const Group& h : kGroups) {
        for (size_t j = 0; j < h.count; ++j) times += h.ranges[j].op == r.op ? 1 : 0;
      }
      if (times != 1) MicroPrintf("op %d is in %d group entries", static_cast<int>(r.op), times);
      TF_LITE_MICRO_EXPECT_EQ(1, times);
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(kAllOpsCount, builtins + 1);  // and the custom op Atan
}

TF_LITE_MICRO_TEST(VersionRanges) {
  TF_LITE_MICRO_EXPECT(FindRange(Op::CONV_2D) != nullptr);
  TF_LITE_MICRO_EXPECT_EQ(5, FindRange(Op::SUB)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(6, FindRange(Op::TRANSPOSE)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(3, FindRange(Op::PACK)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(4, FindRange(Op::UNPACK)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(4, FindRange(Op::SPLIT)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(3, FindRange(Op::SPLIT_V)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(4, FindRange(Op::SVDF)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(5, FindRange(Op::TRANSPOSE_CONV)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(6, FindRange(Op::GATHER)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(3, FindRange(Op::ARG_MAX)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(3, FindRange(Op::CAST)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(4, FindRange(Op::SPACE_TO_BATCH_ND)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(2, FindRange(Op::L2_NORMALIZATION)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(3, FindRange(Op::RESIZE_BILINEAR)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(4, FindRange(Op::RESIZE_NEAREST_NEIGHBOR)->last_version);
  TF_LITE_MICRO_EXPECT_EQ(5, FindRange(Op::UNIDIRECTIONAL_SEQUENCE_LSTM)->last_version);
  TF_LITE_MICRO_EXPECT(FindRange(Op::CUSTOM) == nullptr);
}

TF_LITE_MICRO_TESTS_END
