// One test skipped with GTEST_SKIP, the others pass.
#include <gtest/gtest.h>

TEST(Kernels, Float) { EXPECT_FLOAT_EQ(0.5f * 2.0f, 1.0f); }

TEST(Kernels, Int16) { GTEST_SKIP() << "int16 kernel not built"; }

TEST(Kernels, Int8) { EXPECT_EQ(static_cast<int8_t>(127), 127); }
