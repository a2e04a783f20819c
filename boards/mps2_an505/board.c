/* MPS2+ AN505 bring-up: nothing to clock; the CMSDK APB UART0 is only set
 * up when the build logs through "uart" (the default is semihosting). */
#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

#define UART_DATA CM_REG(BOARD_UART_BASE + 0x000u)
#define UART_STATE CM_REG(BOARD_UART_BASE + 0x004u)
#define UART_CTRL CM_REG(BOARD_UART_BASE + 0x008u)
#define UART_BAUDDIV CM_REG(BOARD_UART_BASE + 0x010u)
#define UART_STATE_TXFULL (1u << 0)
#define UART_STATE_RXFULL (1u << 1)
#define UART_CTRL_TXEN (1u << 0)
#define UART_CTRL_RXEN (1u << 1)

void BoardInit(void) {
#if BOARD_LOG_UART
  UART_BAUDDIV = BOARD_CORE_CLOCK_HZ / 115200u; /* >= 16 as the CMSDK UART requires */
  UART_CTRL = UART_CTRL_TXEN | UART_CTRL_RXEN;
#endif
}

void BoardUartPutc(char c) {
  while (UART_STATE & UART_STATE_TXFULL) {
  }
  UART_DATA = (uint8_t)c;
}

int BoardUartGetc(void) {
  if ((UART_STATE & UART_STATE_RXFULL) == 0) {
    return -1;
  }
  return (int)(UART_DATA & 0xFFu);
}
