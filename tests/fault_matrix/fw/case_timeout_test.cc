// The second case hangs and has its own 2 s limit (the comment above it): the run ends as a
// timeout of that case after ~2 s, long before the binary's limit; the third is not reached.
// The first case's generous limit (the comment at the end of its line) must not fire.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(First) {}  // harness: timeout=30

// harness: timeout=2
TF_LITE_MICRO_TEST(Hangs) {
  while (g_spin) {
  }
}

TF_LITE_MICRO_TEST(Third) {}

TF_LITE_MICRO_TESTS_END
