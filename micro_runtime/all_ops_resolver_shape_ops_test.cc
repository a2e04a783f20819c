// AllOpsResolver's shape and data-movement ops (AddShapeOps): every kernel of
// the group is registered, with the version ranges of the types and ranks it
// implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class ShapeOpsResolver : public MicroMutableOpResolver<kShapeOpsCount> {
 public:
  ShapeOpsResolver() { AddShapeOps(*this); }
};

bool Supports(const ShapeOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  ShapeOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kShapeOpsCount, resolver.size());
  const Op ops[] = {Op::CONCATENATION, Op::EXPAND_DIMS,   Op::MEAN,      Op::PACK,  Op::PAD,
                    Op::PADV2,         Op::STRIDED_SLICE, Op::TRANSPOSE, Op::UNPACK, Op::SQUEEZE, Op::SPLIT, Op::SPLIT_V,
                    Op::SHAPE,         Op::FILL,          Op::ZEROS_LIKE};
  for (Op op : ops) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ShapeOpsResolver resolver;
  // int8 (v2) everywhere it has a version of its own; int16 and more dimensions above.
  const Op two[] = {Op::CONCATENATION, Op::MEAN,      Op::PACK,  Op::PAD,
                    Op::PADV2,         Op::STRIDED_SLICE, Op::TRANSPOSE, Op::UNPACK};
  for (Op op : two) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 2));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::PAD, 4));    // 5-D
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::PADV2, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::CONCATENATION, 3));  // int16
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::MEAN, 3));           // int16
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::STRIDED_SLICE, 4));  // 5-D
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::TRANSPOSE, 6));      // 6-D
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::PACK, 3));           // int16
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::UNPACK, 3));         // bool
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::UNPACK, 4));         // int16
  // Versions beyond what the kernels implement are refused.
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::PAD, 5));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::CONCATENATION, 4));  // uint32
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::MEAN, 4));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::STRIDED_SLICE, 5));  // string
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::STRIDED_SLICE, 6));  // ellipsis / new axis masks
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SQUEEZE, 2));        // string
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::EXPAND_DIMS, 2));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::TRANSPOSE, 7));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::PACK, 4));    // uint32
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::UNPACK, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SPLIT, 4));     // int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SPLIT, 5));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::SPLIT_V, 3));   // int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SPLIT_V, 4));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::FILL, 3));  // int8/int16 value
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::FILL, 4));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::SHAPE, 2));
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::ZEROS_LIKE, 2));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ShapeOpsResolver(), kShapeOpRanges));
}

TF_LITE_MICRO_TESTS_END
