// Checks the platform port every board provides (micro_runtime/platform.h)
// and the start-up code behind it: C++ static constructors ran before main,
// .data holds its initial values, .bss is zero, and MicroTicks counts up
// monotonically, also across SysTick wraps (the 24-bit counter of the
// Cortex-M boards wraps every 2^24 cycles).
#include <stdint.h>

#include "micro_runtime/micro_test.h"
#include "micro_runtime/platform.h"

namespace {

constexpr uint32_t kCtorMagic = 0xC0DE1234u;

volatile uint32_t g_seed = 0x1000u;  // volatile: the constructor cannot be folded into static data
uint32_t g_ctor_value;                // .bss, set by the constructor below
int g_ctor_runs;

struct RunsAtStartup {
  RunsAtStartup() {
    g_ctor_value = kCtorMagic + g_seed - 0x1000u;
    ++g_ctor_runs;
  }
};
RunsAtStartup g_runs_at_startup;

volatile uint32_t g_data[4] = {1u, 2u, 0xDEADBEEFu, 0x12345678u};  // .data
volatile uint8_t g_bss[64];                                         // .bss

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(StaticConstructorsRanOnce) {
  TF_LITE_MICRO_EXPECT_EQ(kCtorMagic, g_ctor_value);
  TF_LITE_MICRO_EXPECT_EQ(1, g_ctor_runs);
}

TF_LITE_MICRO_TEST(DataIsInitialized) {
  TF_LITE_MICRO_EXPECT_EQ(1u, g_data[0]);
  TF_LITE_MICRO_EXPECT_EQ(2u, g_data[1]);
  TF_LITE_MICRO_EXPECT_EQ(0xDEADBEEFu, g_data[2]);
  TF_LITE_MICRO_EXPECT_EQ(0x12345678u, g_data[3]);
}

TF_LITE_MICRO_TEST(BssIsZero) {
  uint32_t sum = 0;
  for (unsigned i = 0; i < sizeof(g_bss); ++i) sum += g_bss[i];
  TF_LITE_MICRO_EXPECT_EQ(0u, sum);
}

TF_LITE_MICRO_TEST(TicksRateIsSane) {
  const uint32_t rate = MicroTicksPerSecond();
  TF_LITE_MICRO_EXPECT_GE(rate, 1000u);
  TF_LITE_MICRO_EXPECT_LE(rate, 1000000000u);
}

TF_LITE_MICRO_TEST(TicksAreMonotonicAcrossWraps) {
  // Just over one 24-bit SysTick period, capped at one second of ticks.
  const uint32_t rate = MicroTicksPerSecond();
  const uint32_t target = rate < 0x01100000u ? rate : 0x01100000u;
  const uint32_t start = MicroTicks();
  uint32_t previous = start;
  uint32_t backwards = 0;
  uint32_t reads = 0;
  while (previous - start < target) {
    const uint32_t now = MicroTicks();
    // Unsigned distance: a step "backwards" shows as a huge forward jump.
    if (now - previous > 0x80000000u) {
      ++backwards;
      MicroPrintf("ticks went backwards: 0x%x -> 0x%x after %u reads", static_cast<unsigned>(previous),
                  static_cast<unsigned>(now), static_cast<unsigned>(reads));
    }
    previous = now;
    // Gives up rather than hang when ticks do not advance at all.
    if (++reads > 400000000u) break;
  }
  TF_LITE_MICRO_EXPECT_EQ(0u, backwards);
  TF_LITE_MICRO_EXPECT_GE(previous - start, target);
  TF_LITE_MICRO_EXPECT_GT(reads, 1u);
}

TF_LITE_MICRO_TESTS_END
