// AllOpsResolver's image ops (AddImageOps): every kernel of the group is
// registered, with the version ranges of the types and options it implements
// and none beyond.
#include "micro_runtime/all_ops_resolver.h"
#include "micro_runtime/micro_test.h"

using namespace micro_runtime;

namespace {

using Op = tflite::BuiltinOperator;

class ImageOpsResolver : public MicroMutableOpResolver<kImageOpsCount> {
 public:
  ImageOpsResolver() { AddImageOps(*this); }
};

bool Supports(const ImageOpsResolver& resolver, Op op, int version) {
  return resolver.Find(static_cast<int32_t>(op), nullptr, version) != nullptr;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(EveryKernelIsRegistered) {
  ImageOpsResolver resolver;
  TF_LITE_MICRO_EXPECT_EQ(kImageOpsCount, resolver.size());
  const Op ops[] = {Op::L2_NORMALIZATION, Op::RESIZE_BILINEAR, Op::RESIZE_NEAREST_NEIGHBOR};
  for (Op op : ops) TF_LITE_MICRO_EXPECT(Supports(resolver, op, 1));
}

TF_LITE_MICRO_TEST(VersionRanges) {
  ImageOpsResolver resolver;
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::L2_NORMALIZATION, 2));         // int8
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::L2_NORMALIZATION, 3));
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::RESIZE_BILINEAR, 3));          // half_pixel_centers
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::RESIZE_BILINEAR, 4));         // int16: TFLM has none
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::RESIZE_NEAREST_NEIGHBOR, 3));  // align_corners, half_pixel_centers
  TF_LITE_MICRO_EXPECT(Supports(resolver, Op::RESIZE_NEAREST_NEIGHBOR, 4));  // int16
  TF_LITE_MICRO_EXPECT(!Supports(resolver, Op::RESIZE_NEAREST_NEIGHBOR, 5));
}

TF_LITE_MICRO_TEST(ResolverMatchesTheTable) {
  // The list all_ops_resolver_test checks is what the group registered.
  TF_LITE_MICRO_EXPECT(RegistersExactly(ImageOpsResolver(), kImageOpRanges));
}

TF_LITE_MICRO_TESTS_END
