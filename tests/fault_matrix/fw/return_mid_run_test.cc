// Returns from main (status 0) in the middle of a case.
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_leave = 1;
}

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Returns) {
  if (g_leave) return 0;
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
