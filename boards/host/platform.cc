// Platform hooks for the host board: DebugLog to stdout, exit() with the
// status, a microsecond monotonic clock for timing.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "micro_runtime/platform.h"

extern "C" void DebugLog(const char* s) {
  fputs(s, stdout);
  fflush(stdout);  // a crash must not lose what was already logged
}

extern "C" void MicroPlatformInit(void) {}

extern "C" void MicroExit(int status) { exit(status); }

extern "C" uint32_t MicroTicks(void) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint32_t>(now.tv_sec * 1000000ull + now.tv_nsec / 1000);
}

extern "C" uint32_t MicroTicksPerSecond(void) { return 1000000u; }
