// Value-parameterized tests (one value fails) and a typed test.
#include <gtest/gtest.h>

#include <cstdint>

class Quantize : public ::testing::TestWithParam<int> {};

TEST_P(Quantize, FitsInt8) {
  int value = GetParam();
  EXPECT_LE(value, 127);
}

INSTANTIATE_TEST_SUITE_P(Values, Quantize, ::testing::Values(1, 64, 300));

template <typename T>
class Widths : public ::testing::Test {};

using WidthTypes = ::testing::Types<int8_t, int32_t>;
TYPED_TEST_SUITE(Widths, WidthTypes);

TYPED_TEST(Widths, NonZero) { EXPECT_GT(sizeof(TypeParam), 0u); }
