// TF_LITE_MICRO_FAIL fails its case; an odd (GNU '$') case name still gets an item.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FailMacro) { TF_LITE_MICRO_FAIL("reached the unreachable"); }

TF_LITE_MICRO_TEST(Odd$Name) { TF_LITE_MICRO_EXPECT_EQ(2, 1 + 1); }

TF_LITE_MICRO_TESTS_END
