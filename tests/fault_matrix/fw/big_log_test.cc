// 1 MB of log lines and a 1 MB line, in passing cases.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ManyLines) {
  for (int i = 0; i < 16384; ++i) {
    MicroPrintf("line %05d of the megabyte log ..............................", i);
  }
}

TF_LITE_MICRO_TEST(OneLongLine) {
  static const char kChunk[] =
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
  for (int i = 0; i < 8192; ++i) DebugLog(kChunk);
  DebugLog("\n");
}

TF_LITE_MICRO_TESTS_END
