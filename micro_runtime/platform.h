// The hooks a platform port (board support code under boards/<board>/)
// provides. The library only calls DebugLog; test and runner mains call the
// rest (DebugRead only firmware that takes input). Host implementations
// live in boards/host/.
#ifndef MICRO_RUNTIME_PLATFORM_H_
#define MICRO_RUNTIME_PLATFORM_H_

#include <stdint.h>

extern "C" {
// Writes a NUL-terminated string to the board's log transport, unchanged.
void DebugLog(const char* s);
// Reads one byte the test sent to the device (dut.write() in a pytest test)
// without waiting, from the input side of the log transport: stdin on the
// host, the log UART's receiver on MCU boards that log through a UART (a
// board without one never has input). Returns the byte (0-255),
// MICRO_READ_NONE when no byte is waiting, or MICRO_READ_END when the input
// is closed for good (host: end of stdin).
#define MICRO_READ_NONE (-1)
#define MICRO_READ_END (-2)
int DebugRead(void);
// Brings up the log transport (UART clocks, handshake); called first by mains.
void MicroPlatformInit(void);
// Ends the program with `status` (0 = success): process exit on host,
// semihosting SYS_EXIT_EXTENDED under a debugger/emulator, else a halt loop.
void MicroExit(int status) __attribute__((noreturn));
// The run token the harness handed to this run (micro_test.h signs its
// records with it): fills key[0..1] and returns 1, or returns 0 when no token
// reached the device. Host: the MICRO_TEST_TOKEN environment variable (16 hex
// digits); Cortex-M boards: a RAM block in .noinit that the emulator or
// debugger writes before the core starts (boards/cortex_m/run_token.c). A
// port without one links the weak default in micro_runtime/run_token.cc.
int MicroRunToken(uint32_t key[2]);
// A free-running tick counter and its rate, for timing Invoke().
uint32_t MicroTicks(void);
uint32_t MicroTicksPerSecond(void);
}

#endif  // MICRO_RUNTIME_PLATFORM_H_
