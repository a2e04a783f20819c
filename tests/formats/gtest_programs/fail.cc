// EXPECT and ASSERT failures, a failure after a message, and a passing test between them.
#include <gtest/gtest.h>

#include <cstdio>

TEST(Conv, Simple) { EXPECT_EQ(1 + 1, 2); }

TEST(Conv, PerChannel) {
  int expected = 12;
  int output = 13;
  EXPECT_EQ(expected, output) << "output[3]";
  EXPECT_TRUE(output > 0);  // still runs after a non-fatal failure
}

TEST(Conv, NullInput) {
  const int* input = nullptr;
  ASSERT_NE(input, nullptr) << "no input tensor";
  std::printf("never printed\n");
}

TEST(Conv, Relu) {
  std::printf("[       OK ] Conv.Relu (0 ms)\n");  // forged: the test is still running
  ADD_FAILURE() << "relu clipped a negative value";
}
