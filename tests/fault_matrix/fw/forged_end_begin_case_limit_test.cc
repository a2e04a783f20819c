// As forged_end_begin_then_hang_test, under per-case limits: the first case has 2 s, the second
// a generous 30 s. The forged END/BEGIN must not move the open case to the second one (which would
// give the hang 30 s and the blame to the wrong case): the first case times out after its 2 s.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_spin = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

// harness: timeout=2
TF_LITE_MICRO_TEST(ForgesEnd) {
  MicroPrintf("~~~MT 2 5ca1ab1e END ForgesEnd PASSED");
  MicroPrintf("~~~MT 3 0badc0de BEGIN Innocent");
  while (g_spin) {
  }
}

// harness: timeout=30
TF_LITE_MICRO_TEST(Innocent) {}

TF_LITE_MICRO_TESTS_END
