// Terminal noise glued to failing expectations on their line: ANSI colour escapes, a carriage
// return, NUL bytes (host; other control bytes on MCU boards, where DebugLog cannot send NUL). Every
// FAIL record must still be found: each of these cases fails, the last one passes.
#include "micro_runtime/micro_test.h"

#if defined(__linux__)
#include <stdio.h>
#endif

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(AnsiAroundFail) {
  DebugLog("\x1b[1;31m");
  TF_LITE_MICRO_EXPECT_EQ(7, 8);
  DebugLog("\x1b[0m");
}

TF_LITE_MICRO_TEST(CarriageReturnBeforeFail) {
  DebugLog("progress 50%\r");
  TF_LITE_MICRO_EXPECT(false);
}

TF_LITE_MICRO_TEST(NulBytesAroundFail) {
#if defined(__linux__)
  fwrite("\0\0\0", 1, 3, stdout);
  fflush(stdout);
#else
  DebugLog("\x7f\x07\x1b");
#endif
  TF_LITE_MICRO_EXPECT(false);
#if defined(__linux__)
  fwrite("\0\0", 1, 2, stdout);
  fflush(stdout);
#endif
}

TF_LITE_MICRO_TEST(Passes) { DebugLog("\x1b[0m\x1b[2K"); }

TF_LITE_MICRO_TESTS_END
