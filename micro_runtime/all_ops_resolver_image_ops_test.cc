// AllOpsResolver's image ops (AddImageOps): every kernel of the group is
// registered, with the version ranges of the types and options it implements
// and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/resolver_group.h"

using namespace micro_runtime;

using Op = tflite::BuiltinOperator;
using ImageOpsResolver = OpGroupResolver<kImageOpsCount, AddImageOps>;

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  const Op ops[] = {Op::L2_NORMALIZATION, Op::RESIZE_BILINEAR, Op::RESIZE_NEAREST_NEIGHBOR};
  const ImageOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.HoldsAll(ops));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ImageOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::L2_NORMALIZATION, 2));         // int8
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::L2_NORMALIZATION, 3));
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::RESIZE_BILINEAR, 3));          // half_pixel_centers
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::RESIZE_BILINEAR, 4));         // int16: TFLM has none
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::RESIZE_NEAREST_NEIGHBOR, 3));  // align_corners, half_pixel_centers
  TF_LITE_MICRO_EXPECT(resolver.Supports(Op::RESIZE_NEAREST_NEIGHBOR, 4));  // int16
  TF_LITE_MICRO_EXPECT(!resolver.Supports(Op::RESIZE_NEAREST_NEIGHBOR, 5));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ImageOpsResolver(), kImageOpRanges));
}

TF_LITE_MICRO_TESTS_END
