// Platform hooks for the host board: DebugLog to stdout, DebugRead from
// stdin (without waiting), exit() with the status, a microsecond monotonic
// clock for timing.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "micro_runtime/platform.h"

extern "C" void DebugLog(const char* s) {
  fputs(s, stdout);
  fflush(stdout);  // a crash must not lose what was already logged
}

// stdin is read with read(2), not stdio, so no byte waits in a stdio buffer
// that poll(2) cannot see.
extern "C" int DebugRead(void) {
  pollfd in = {0, POLLIN, 0};
  if (poll(&in, 1, 0) <= 0) {
    return MICRO_READ_NONE;
  }
  unsigned char c;
  const ssize_t got = read(0, &c, 1);
  if (got == 1) {
    return c;
  }
  return got == 0 ? MICRO_READ_END : MICRO_READ_NONE;
}

extern "C" void MicroPlatformInit(void) {}

extern "C" void MicroExit(int status) { exit(status); }

// The harness hands each run its token in the environment: 16 hex digits,
// key[0] then key[1] (harness/run_token.py).
extern "C" int MicroRunToken(uint32_t key[2]) {
  const char* text = getenv("MICRO_TEST_TOKEN");
  if (text == nullptr) return 0;
  uint32_t words[2] = {0, 0};
  for (int i = 0; i < 16; ++i) {
    const char c = text[i];
    uint32_t digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return 0;  // short or not hex (this also stops at the terminating NUL)
    }
    words[i / 8] = (words[i / 8] << 4) | digit;
  }
  if (text[16] != '\0') return 0;
  key[0] = words[0];
  key[1] = words[1];
  return 1;
}

extern "C" uint32_t MicroTicks(void) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint32_t>(now.tv_sec * 1000000ull + now.tv_nsec / 1000);
}

extern "C" uint32_t MicroTicksPerSecond(void) { return 1000000u; }
