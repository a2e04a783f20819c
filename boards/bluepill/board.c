/* Blue Pill (STM32F103C8) bring-up: the core stays on the 8 MHz HSI
 * oscillator it boots from (no PLL: one clock on silicon and emulators),
 * USART2 on PA2 at 115200 baud for the log.
 * Under QEMU's netduino2 (STM32F205) the RCC/GPIO writes below hit
 * unimplemented or unrelated registers and are ignored; the USART2 block is
 * at the same address on both chips. */
#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"
#include "boards/stm32/stm32_usart.h"

#define RCC_APB2ENR CM_REG(0x40021018u)
#define RCC_APB1ENR CM_REG(0x4002101Cu)
#define GPIOA_CRL CM_REG(0x40010800u)
#define RCC_APB2ENR_AFIOEN (1u << 0)
#define RCC_APB2ENR_IOPAEN (1u << 2)
#define RCC_APB1ENR_USART2EN (1u << 17)

/* BRR = PCLK1 / baud = 8 MHz / 115200 = 69.4 -> 69 (mantissa 4, fraction 5). */
#define USART2_BRR_115200 0x45u

void BoardInit(void) {
#if BOARD_LOG_UART
  RCC_APB2ENR |= RCC_APB2ENR_AFIOEN | RCC_APB2ENR_IOPAEN;
  RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
  (void)RCC_APB1ENR; /* read back: the clocks are on before the first peripheral access */
  /* PA2 = USART2_TX: output 50 MHz (MODE=11), alternate push-pull (CNF=10). */
  GPIOA_CRL = (GPIOA_CRL & ~(0xFu << 8)) | (0xBu << 8);
  /* PA3 = USART2_RX (DebugRead) stays in its reset state, floating input. */
  Stm32UsartInit(BOARD_UART_BASE, USART2_BRR_115200);
#endif
}

void BoardUartPutc(char c) { Stm32UsartPutc(BOARD_UART_BASE, c); }

int BoardUartGetc(void) { return Stm32UsartGetc(BOARD_UART_BASE); }
