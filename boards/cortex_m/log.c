/* The log transports DebugLog writes to, chosen at build time from the
 * board's [log] transports (or make LOG_TRANSPORTS="..."), see
 * gen/<board>/board_config.h:
 *   semihosting              SYS_WRITE0 (skipped once the start-up probe found no host)
 *   semihosting-if-debugger  SYS_WRITE0 while a debugger is attached (DHCSR C_DEBUGEN),
 *                            and then only there; otherwise the other transports
 *   uart                     the board's log UART, polled
 *   rtt                      SEGGER-RTT up channel 0 (boards/cortex_m/rtt.cc)
 * With several plain transports every string goes to each of them, so a
 * runner that merges them sees each line twice: boards default to one. */
#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

#if BOARD_LOG_RTT
#include "boards/cortex_m/rtt.h"
#endif

void CortexMLogWrite(const char* s) {
#if BOARD_LOG_SEMIHOSTING_IF_DEBUGGER
  if (CortexMDebuggerAttached()) {
    SemihostingWrite0(s);
    return;
  }
#endif
#if BOARD_LOG_SEMIHOSTING
  SemihostingWrite0(s);
#endif
#if BOARD_LOG_UART
  for (const char* p = s; *p; ++p) {
    if (*p == '\n') {
      BoardUartPutc('\r'); /* terminals want CR LF; the harness accepts both */
    }
    BoardUartPutc(*p);
  }
#endif
#if BOARD_LOG_RTT
  size_t length = 0;
  while (s[length] != '\0') {
    ++length;
  }
  (void)MicroRttWrite(s, length);
#endif
}

/* Input comes from the log UART when the board logs through it (polled,
 * never waits). Semihosting's console input (SYS_READC) is not used: it waits
 * for a byte, and QEMU 7.2 returns wrong bytes for it on M-profile cores. */
int CortexMLogRead(void) {
#if BOARD_LOG_UART
  return BoardUartGetc();
#else
  return -1;
#endif
}
