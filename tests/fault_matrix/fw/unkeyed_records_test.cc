// A case prints the rest of a passing run as exact records (the right format, the right next
// sequence numbers, authenticators from micro_test::RecordMac) but under key 0, the key of a run
// without a token, and then exits 0 before its real END. The run has a token: key-0 records are not
// this run's, so the run ended inside the case. (Without a token the same log would pass: the
// forgery is exact except for the key.)
#include "micro_runtime/micro_test.h"

namespace {
volatile int g_leave = 1;

void PrintUnkeyed(uint32_t sequence, const char* text) {
  const uint32_t zero_key[2] = {0, 0};
  MicroPrintf("~~~MT %u %08x %s", static_cast<unsigned>(sequence),
              static_cast<unsigned>(micro_test::RecordMac(zero_key, sequence, text)), text);
}
}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(ExitsEarly) {
  // START was record 0 and this case's BEGIN record 1: the framework's next would be 2, 3, 4.
  PrintUnkeyed(2, "END ExitsEarly PASSED");
  PrintUnkeyed(3, "SUMMARY 1/1 tests passed");
  PrintUnkeyed(4, "DONE PASSED");
  if (g_leave) MicroExit(0);
  TF_LITE_MICRO_EXPECT(false);
}

TF_LITE_MICRO_TESTS_END
