// Platform hooks for the fuzzer: logging is dropped (millions of runs), and
// MicroExit would end the fuzzing process, so it aborts to make any call
// visible as a finding.
#include <stdlib.h>
#include <time.h>

#include "micro_runtime/platform.h"

extern "C" void DebugLog(const char*) {}
extern "C" void MicroPlatformInit(void) {}
extern "C" void MicroExit(int) { abort(); }
extern "C" uint32_t MicroTicks(void) { return static_cast<uint32_t>(clock()); }
extern "C" uint32_t MicroTicksPerSecond(void) { return CLOCKS_PER_SEC; }
