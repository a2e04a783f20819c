// Host only (on MCU boards the case does nothing): the case forks a silent child that is still
// sleeping when the parent has passed every case and exited 0: a process of the test left running
// fails the run (binary-checks); the case itself passed.
#include "micro_runtime/micro_test.h"

#if defined(__linux__)
#include <unistd.h>
#endif

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Forks) {
#if defined(__linux__)
  if (fork() == 0) {
    sleep(30);
    _exit(0);
  }
#endif
}

TF_LITE_MICRO_TESTS_END
