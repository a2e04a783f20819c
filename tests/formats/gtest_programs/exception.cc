// An exception thrown out of a test body: GoogleTest catches it and fails the test.
#include <gtest/gtest.h>

#include <stdexcept>

TEST(Interp, Allocates) { SUCCEED(); }

TEST(Interp, Invokes) { throw std::runtime_error("arena too small"); }

TEST(Interp, Resets) { EXPECT_TRUE(true); }
