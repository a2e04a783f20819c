// Exits with status 0 in the middle of a case.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Exits) { MicroExit(0); }

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
