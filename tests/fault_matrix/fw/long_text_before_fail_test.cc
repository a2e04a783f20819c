// Application text without a newline, longer than the reader's longest line (64 KiB), right before
// a failing expectation: the FAIL record glued after it must still be found, whether the text is
// 70 KB long or ends just where the record's prefix straddles the 65,536-byte cut.
#include "micro_runtime/micro_test.h"

namespace {
const char kChunk[] =
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";  // 128 bytes

// `bytes` of text without a newline.
void Text(int bytes) {
  for (; bytes >= 128; bytes -= 128) DebugLog(kChunk);
  DebugLog(kChunk + (128 - bytes));
}
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(SeventyKilobytes) {
  Text(70 * 1024);
  TF_LITE_MICRO_EXPECT(false);
}

// The record starts at byte 65,533 of its line: its 6-byte prefix straddles byte 65,536.
TF_LITE_MICRO_TEST(PrefixAcrossTheCut) {
  Text(65533);
  TF_LITE_MICRO_EXPECT_EQ(1, 2);
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
