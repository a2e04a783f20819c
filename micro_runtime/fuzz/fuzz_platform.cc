// Platform hooks for the fuzz builds: log text is dropped (millions of runs)
// but its length is counted, so the mutation driver can check that every
// rejected model was explained. MicroExit would end the process, so it aborts
// to make any call visible as a finding.
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "micro_runtime/fuzz/fuzz_run.h"
#include "micro_runtime/platform.h"

namespace {
size_t g_log_bytes = 0;
}  // namespace

size_t FuzzLogBytes() { return g_log_bytes; }

extern "C" void DebugLog(const char* s) { g_log_bytes += strlen(s); }
extern "C" void MicroPlatformInit(void) {}
extern "C" void MicroExit(int) { abort(); }
extern "C" uint32_t MicroTicks(void) { return static_cast<uint32_t>(clock()); }
extern "C" uint32_t MicroTicksPerSecond(void) { return CLOCKS_PER_SEC; }
