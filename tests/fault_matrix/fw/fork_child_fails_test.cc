// Host only (on MCU boards the case does nothing): the case forks a child that fails a check 0.3 s
// later, after the parent has finished every case and exited 0. The child's FAIL record is signed
// (same token) but carries the sequence number the parent had at the fork, which the parent has
// long used for its own END record: a repeated record, so the record stream is broken and the run
// fails. The parent's own records of the case say PASSED, so the case item itself passes.
#include "micro_runtime/micro_test.h"

#if defined(__linux__)
#include <unistd.h>
#endif

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Forks) {
#if defined(__linux__)
  if (fork() == 0) {
    usleep(300000);
    TF_LITE_MICRO_EXPECT(false);
    _exit(0);
  }
#endif
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
