// The second case prints a well-formed line of the boards' fault handler (text a test can print, not
// a fault) and ends normally; the run ends right after. The harness cannot tell the line from a real
// fault report (a real handler may also return and let the firmware go on), so it is a crash, of the
// case that was running when the line came: that case must not pass, and the run fails. The lie can
// only fail the run, never pass it. (The case is the last, so whatever follows the line arrives
// within the harness's grace after a fault line, or not, the blame is the same.)
#include "micro_runtime/micro_test.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Before) {}

TF_LITE_MICRO_TEST(PrintsFault) {
  MicroPrintf("*** HardFault: PC=0x08001234 LR=0x08000567 xPSR=0x01000000 CFSR=0x00000400 "
              "HFSR=0x40000000 MMFAR=0xe000ed34 BFAR=0xe000ed38");
}

TF_LITE_MICRO_TESTS_END
