// AllOpsResolver's shape and data-movement ops (AddShapeOps): every kernel of
// the group is registered, with the version ranges of the types and ranks it
// implements and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using ShapeOpsResolver = OpGroupResolver<kShapeOpsCount, AddShapeOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::CONCATENATION, Op::EXPAND_DIMS,   Op::MEAN,      Op::PACK,  Op::PAD,
                    Op::PADV2,         Op::STRIDED_SLICE, Op::TRANSPOSE, Op::UNPACK, Op::SQUEEZE, Op::SPLIT, Op::SPLIT_V,
                    Op::SHAPE,         Op::FILL,          Op::ZEROS_LIKE};
  const ShapeOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ShapeOpsResolver resolver;
  // int8 (v2) everywhere it has a version of its own; int16 and more dimensions above.
  const Op two[] = {Op::CONCATENATION, Op::MEAN,      Op::PACK,  Op::PAD,
                    Op::PADV2,         Op::STRIDED_SLICE, Op::TRANSPOSE, Op::UNPACK};
  for (Op op : two) TF_LITE_MICRO_EXPECT(resolver.Supports(op, 2));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::PAD, 4));    // 5-D
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::PADV2, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::CONCATENATION, 3));  // int16
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::MEAN, 3));           // int16
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::STRIDED_SLICE, 4));  // 5-D
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::TRANSPOSE, 6));      // 6-D
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::PACK, 3));           // int16
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::UNPACK, 3));         // bool
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::UNPACK, 4));         // int16
  // Versions beyond what the kernels implement are refused.
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::PAD, 5));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::CONCATENATION, 4));  // uint32
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::MEAN, 4));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::STRIDED_SLICE, 5));  // string
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::STRIDED_SLICE, 6));  // ellipsis / new axis masks
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SQUEEZE, 2));        // string
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::EXPAND_DIMS, 2));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::TRANSPOSE, 7));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::PACK, 4));    // uint32
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::UNPACK, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SPLIT, 4));     // int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SPLIT, 5));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::SPLIT_V, 3));   // int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SPLIT_V, 4));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::FILL, 3));  // int8/int16 value
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::FILL, 4));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::SHAPE, 2));
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::ZEROS_LIKE, 2));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ShapeOpsResolver(), kShapeOpRanges));
}

TF_LITE_MICRO_TESTS_END
