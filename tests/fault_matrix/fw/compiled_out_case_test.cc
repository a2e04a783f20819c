// A case the preprocessor removes (its feature is not defined) and one it keeps: the removed one is
// no case of the binary (skipped, or no item at all), never a case that "never ran"; the binary passes.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

#if defined(SOME_UNDEFINED_FEATURE)
TF_LITE_MICRO_TEST(CompiledOut) { TF_LITE_MICRO_EXPECT(false); }
#endif

#if 1
TF_LITE_MICRO_TEST(CompiledIn) { TF_LITE_MICRO_EXPECT_EQ(4, 2 + 2); }
#endif

TF_LITE_MICRO_TESTS_END
