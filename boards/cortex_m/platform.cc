// micro_runtime platform hooks (micro_runtime/platform.h) for every
// Cortex-M board: DebugLog through the configured transports, DebugRead from
// the log transport's input side, MicroExit
// through semihosting (halt when no host listens), SysTick/DWT ticks.
#include "micro_runtime/platform.h"

#include "boards/cortex_m/cortex_m.h"

extern "C" uint32_t CortexMTicks(void);
extern "C" uint32_t CortexMTicksPerSecond(void);

extern "C" void DebugLog(const char* s) { CortexMLogWrite(s); }

extern "C" int DebugRead(void) { return CortexMLogRead(); }

// The reset handler already ran BoardInit before main; nothing is left to do
// here, and calling it again must be harmless.
extern "C" void MicroPlatformInit(void) {}

extern "C" void MicroExit(int status) { SemihostingExit(status); }

extern "C" uint32_t MicroTicks(void) { return CortexMTicks(); }

extern "C" uint32_t MicroTicksPerSecond(void) { return CortexMTicksPerSecond(); }
