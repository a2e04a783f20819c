// A passing death test, then a test that aborts the whole binary in mid-test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

static void Crash() { std::abort(); }

TEST(Runtime, DiesOnAbort) { EXPECT_DEATH(Crash(), ""); }

TEST(Runtime, Aborts) {
  std::printf("about to abort\n");
  std::fflush(stdout);
  std::abort();
}

TEST(Runtime, NeverRuns) { EXPECT_TRUE(true); }
