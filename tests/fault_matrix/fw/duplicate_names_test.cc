// Two cases with one name: the second fails.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Twice) {}

TF_LITE_MICRO_TEST(Twice) { TF_LITE_MICRO_EXPECT(false); }

TF_LITE_MICRO_TESTS_END
