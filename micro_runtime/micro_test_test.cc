// Self-test of micro_test.h. Failing expectations would print failure lines
// that the harness rightly counts as failures, so this checks the pieces
// behind them instead: value formatting, single evaluation of operands,
// pass/fail bookkeeping (by saving and restoring the state) and test counts.
#include "micro_runtime/micro_test.h"

#include <stdint.h>

namespace {

char g_text[32];

bool Same(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

template <typename T>
bool Formats(T value, const char* expected) {
  micro_test::ValueKind<T>::Format(g_text, sizeof(g_text), value);
  return Same(expected, g_text);
}

int g_calls = 0;
int Count() { return ++g_calls; }

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FirstTestSeesEmptyCounts) {
  TF_LITE_MICRO_EXPECT_EQ(0, micro_test::state.tests_passed);
  TF_LITE_MICRO_EXPECT_EQ(0, micro_test::state.tests_failed);
  TF_LITE_MICRO_EXPECT_FALSE(micro_test::state.current_failed);
}

TF_LITE_MICRO_TEST(ValuesAreFormattedByKind) {
  TF_LITE_MICRO_EXPECT(Formats(-5, "-5"));
  TF_LITE_MICRO_EXPECT(Formats(7u, "7"));
  TF_LITE_MICRO_EXPECT(Formats(static_cast<int8_t>(-3), "-3"));
  TF_LITE_MICRO_EXPECT(Formats(static_cast<uint8_t>(200), "200"));
  TF_LITE_MICRO_EXPECT(Formats(static_cast<int16_t>(-32768), "-32768"));
  TF_LITE_MICRO_EXPECT(Formats(static_cast<size_t>(4096), "4096"));
  TF_LITE_MICRO_EXPECT(Formats(1.5f, "1.500000"));
  TF_LITE_MICRO_EXPECT(Formats(-0.25, "-0.250000"));
  TF_LITE_MICRO_EXPECT(Formats(true, "true"));
  TF_LITE_MICRO_EXPECT(Formats(false, "false"));
  TF_LITE_MICRO_EXPECT(Formats(static_cast<const void*>(nullptr), "0x00000000"));
}

TF_LITE_MICRO_TEST(OperandsAreEvaluatedOnce) {
  g_calls = 0;
  TF_LITE_MICRO_EXPECT_EQ(1, Count());
  TF_LITE_MICRO_EXPECT_EQ(1, g_calls);
  TF_LITE_MICRO_EXPECT_NEAR(2, Count(), 0);
  TF_LITE_MICRO_EXPECT_EQ(2, g_calls);
  TF_LITE_MICRO_EXPECT_LT(Count(), 4);
  TF_LITE_MICRO_EXPECT_EQ(3, g_calls);
}

TF_LITE_MICRO_TEST(PassingComparisonsLeaveTheTestPassing) {
  TF_LITE_MICRO_EXPECT_NE(1, 2);
  TF_LITE_MICRO_EXPECT_GT(2.5f, 2.0f);
  TF_LITE_MICRO_EXPECT_GE(3, 3);
  TF_LITE_MICRO_EXPECT_LE(-1, 0);
  TF_LITE_MICRO_EXPECT_NEAR(1.0f, 1.0001f, 1e-3f);
  TF_LITE_MICRO_EXPECT_NEAR(-5, -7, 2);  // integer tolerance, both orders
  TF_LITE_MICRO_EXPECT_TRUE(1 + 1 == 2);
  TF_LITE_MICRO_EXPECT_FALSE(1 + 1 == 3);
  const bool failed = micro_test::state.current_failed;
  TF_LITE_MICRO_EXPECT_FALSE(failed);
}

TF_LITE_MICRO_TEST(CountTestCountsFailures) {
  // Simulate a failed test without printing, then restore the real state.
  const micro_test::State saved = micro_test::state;
  micro_test::state.current_failed = true;
  micro_test::CountTest();
  const int failed_after_failure = micro_test::state.tests_failed;
  const int passed_after_failure = micro_test::state.tests_passed;
  micro_test::state.current_failed = false;
  micro_test::CountTest();
  const int passed_after_pass = micro_test::state.tests_passed;
  micro_test::state = saved;
  TF_LITE_MICRO_EXPECT_EQ(saved.tests_failed + 1, failed_after_failure);
  TF_LITE_MICRO_EXPECT_EQ(saved.tests_passed, passed_after_failure);
  TF_LITE_MICRO_EXPECT_EQ(saved.tests_passed + 1, passed_after_pass);
}

TF_LITE_MICRO_TEST(EarlyExitStillCounts) {
  if (micro_test::state.tests_passed >= 0) continue;  // leaves the run-once loop
  TF_LITE_MICRO_FAIL("unreachable");
}

TF_LITE_MICRO_TEST(EveryEarlierTestWasCounted) {
  TF_LITE_MICRO_EXPECT_EQ(6, micro_test::state.tests_passed);
  TF_LITE_MICRO_EXPECT_EQ(0, micro_test::state.tests_failed);
}

// The authenticator the harness checks records with (harness/run_token.py:
// KNOWN_KEY, KNOWN_MAC): the C++ and the Python implementation must agree.
TF_LITE_MICRO_TEST(RecordMacMatchesTheHarness) {
  const uint32_t key[2] = {0x01234567u, 0x89ABCDEFu};
  TF_LITE_MICRO_EXPECT_EQ(0xECCDBF2Fu, micro_test::RecordMac(key, 5, "BEGIN Case"));
  TF_LITE_MICRO_EXPECT_NE(micro_test::RecordMac(key, 5, "BEGIN Case"), micro_test::RecordMac(key, 6, "BEGIN Case"));
  TF_LITE_MICRO_EXPECT(micro_test::state.keyed);  // taken at the first record
  const uint32_t other[2] = {0x01234567u, 0x89ABCDEEu};
  TF_LITE_MICRO_EXPECT_NE(micro_test::RecordMac(key, 5, "BEGIN Case"), micro_test::RecordMac(other, 5, "BEGIN Case"));
}

TF_LITE_MICRO_TESTS_END
