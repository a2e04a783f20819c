// Does not compile: its items must be errors, never a stale pass.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(NeverBuilt) { this_does_not_compile(); }

TF_LITE_MICRO_TESTS_END
