// AllOpsResolver: the union of its groups (AddModelOps, AddElementwiseOps, AddShapeOps),
// each op once, every kernel linked (49,076 bytes of flash on bluepill). The
// groups' own tests check every registration and version range and run a
// model on the real kernels: every kernel with the interpreter and a model
// (66,000 bytes) no longer fits a 64 KB Blue Pill.
#include "micro_runtime/all_ops_resolver.h"

#include "micro_runtime/micro_test.h"

namespace {

using Op = tflite::BuiltinOperator;

bool Supports(const AllOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryGroupIsRegisteredOnce) {
  AllOpsResolver resolver;
  // A duplicate across the groups would be refused by AddBuiltin and missing from the count.
  TF_LITE_MICRO_EXPECT_EQ(kAllOpsCount, resolver.size());
  TF_LITE_MICRO_EXPECT_EQ(kModelOpsCount + kElementwiseOpsCount + kShapeOpsCount, kAllOpsCount);
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::CONV_2D, 3));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SUB, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE, 6));
  TF_LITE_MICRO_EXPECT(resolver.Find(static_cast<int32_t>(Op::CUSTOM), "Atan", 1) != nullptr);
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::CONV_2D, 4));
}

TF_LITE_MICRO_TESTS_END
