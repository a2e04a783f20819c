// Raw bytes without a newline (garbage, non-UTF-8) right before the next case's start.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Noisy) {
  DebugLog("garbage \xff\xfe\x01 no newline");
}

TF_LITE_MICRO_TEST(Fails) { TF_LITE_MICRO_EXPECT_EQ(5, 6); }

TF_LITE_MICRO_TEST(Passes) { DebugLog("\xc3\x28 invalid utf-8\n"); }

TF_LITE_MICRO_TESTS_END
