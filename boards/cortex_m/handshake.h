// Firmware side of the harness's hardware-in-the-loop helpers for Cortex-M
// boards: the UART start handshake, debugger detection, polled UART I/O.
// See docs/hardware.md ("Start handshake").
#ifndef BOARDS_CORTEX_M_HANDSHAKE_H_
#define BOARDS_CORTEX_M_HANDSHAKE_H_

#include <stdint.h>

// The line the firmware prints once the handshake is over; the serial runner
// waits for it before it trusts that nothing was lost. " token" follows it
// when the host's pokes carried the run token and the firmware took it.
#define MICRO_START_MARKER "~~~MICRO START~~~"

extern "C" {
// With MICRO_START_HANDSHAKE=1: waits (bounded, MICRO_START_HANDSHAKE_MS,
// default 2000 ms) for any byte on the log UART, then prints the start
// marker. Returns 1 if a byte came, 0 on timeout. Without the flag it
// returns 0 at once and prints nothing, so emulator runs are unaffected.
int MicroStartHandshake(void);
// The handshake regardless of the flag (once per boot); what
// handshake_at_start.cc runs before main when it is linked in.
int MicroStartHandshakeNow(void);
// 1 when a debugger is attached (DHCSR.C_DEBUGEN), so semihosting is safe.
int MicroDebuggerAttached(void);
// Polled UART (STM32F1-style USART at MICRO_UART_BASE, default USART2).
void MicroUartWrite(const char* s);
// Next received byte, or -1 if none is waiting.
int MicroUartTryRead(void);
}

#endif  // BOARDS_CORTEX_M_HANDSHAKE_H_
