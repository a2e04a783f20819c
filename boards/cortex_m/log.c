/* The log transports DebugLog writes to, chosen at build time from the
 * board's [log] transports (or make LOG_TRANSPORTS="..."), see
 * gen/<board>/board_config.h. With several transports every string goes to
 * each of them. */
#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

void CortexMLogWrite(const char* s) {
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
}
