// Application text without a newline that ends in a fragment of the record prefix (or a whole
// record head) right before a failing expectation: the FAIL record follows on the same raw line
// and must still be found, so each of these cases fails.
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(WholePrefix) {
  DebugLog("progress ~~~MT ");
  TF_LITE_MICRO_EXPECT(false);
}

TF_LITE_MICRO_TEST(PartialPrefix) {
  DebugLog("~~~M");
  TF_LITE_MICRO_EXPECT(false);
}

TF_LITE_MICRO_TEST(RecordHead) {
  DebugLog("~~~MT 7 0123abcd ");
  TF_LITE_MICRO_EXPECT_EQ(1, 2);
}

TF_LITE_MICRO_TEST(After) { DebugLog("~~~MT"); }

TF_LITE_MICRO_TESTS_END
