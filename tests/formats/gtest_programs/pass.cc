// Every test passes: two suites, one with a fixture.
#include <gtest/gtest.h>

#include <vector>

TEST(Arith, Adds) { EXPECT_EQ(2 + 2, 4); }

TEST(Arith, Multiplies) { ASSERT_EQ(3 * 4, 12); }

class VectorTest : public ::testing::Test {
 protected:
  void SetUp() override { values_ = {1, 2, 3}; }
  std::vector<int> values_;
};

TEST_F(VectorTest, HasThree) { EXPECT_EQ(values_.size(), 3u); }

TEST_F(VectorTest, SumsToSix) {
  int sum = 0;
  for (int v : values_) sum += v;
  EXPECT_EQ(sum, 6);
}
