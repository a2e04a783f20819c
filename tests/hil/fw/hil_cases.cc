// The test binary the HIL tests run on emulated boards: a few micro_test
// cases; HIL_FAIL adds a failing case, HIL_CRASH one that faults.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Arithmetic) { TF_LITE_MICRO_EXPECT_EQ(4, 2 + 2); }

TF_LITE_MICRO_TEST(Formatting) {
  char buffer[32];
  MicroSnprintf(buffer, sizeof(buffer), "%d-%s", 42, "ok");
  TF_LITE_MICRO_EXPECT_EQ('4', buffer[0]);
  TF_LITE_MICRO_EXPECT_EQ('k', buffer[4]);
}

TF_LITE_MICRO_TEST(LongOutput) {
  // Enough text to wrap an RTT buffer and keep a UART busy for a while.
  for (int i = 0; i < 40; ++i) MicroPrintf("line %d of filler output to exercise the transport", i);
  TF_LITE_MICRO_EXPECT(true);
}

#ifdef HIL_FAIL
TF_LITE_MICRO_TEST(DeliberateFailure) { TF_LITE_MICRO_EXPECT_EQ(1, 2); }
#endif

#ifdef HIL_CRASH
TF_LITE_MICRO_TEST(DeliberateCrash) {
  volatile uint32_t* bad = reinterpret_cast<volatile uint32_t*>(0xFFFFFFF0u);
  TF_LITE_MICRO_EXPECT_EQ(0u, static_cast<unsigned>(*bad));
}
#endif

TF_LITE_MICRO_TESTS_END
