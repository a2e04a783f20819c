// The second case hangs: it times out, the third is not reached.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Before) {}

TF_LITE_MICRO_TEST(Hangs) {
  while (g_spin) {
  }
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
