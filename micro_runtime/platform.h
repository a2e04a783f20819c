// The hooks a platform port (board support code under boards/<board>/)
// provides. The library only calls DebugLog; test and runner mains call the
// rest. Host implementations live in boards/host/.
#ifndef MICRO_RUNTIME_PLATFORM_H_
#define MICRO_RUNTIME_PLATFORM_H_

#include <stdint.h>

extern "C" {
// Writes a NUL-terminated string to the board's log transport, unchanged.
void DebugLog(const char* s);
// Brings up the log transport (UART clocks, handshake); called first by mains.
void MicroPlatformInit(void);
// Ends the program with `status` (0 = success): process exit on host,
// semihosting SYS_EXIT_EXTENDED under a debugger/emulator, else a halt loop.
void MicroExit(int status) __attribute__((noreturn));
// A free-running tick counter and its rate, for timing Invoke().
uint32_t MicroTicks(void);
uint32_t MicroTicksPerSecond(void);
}

#endif  // MICRO_RUNTIME_PLATFORM_H_
