/* Netduino Plus 2 (STM32F405RG) bring-up: the core stays on the 16 MHz HSI
 * it boots from, USART2 on PA2 (AF7) at 115200 baud for the log. QEMU
 * models RCC and GPIO as unimplemented (writes ignored); silicon needs them. */
#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"
#include "boards/stm32/stm32_usart.h"

#define RCC_AHB1ENR CM_REG(0x40023830u)
#define RCC_APB1ENR CM_REG(0x40023840u)
#define GPIOA_MODER CM_REG(0x40020000u)
#define GPIOA_AFRL CM_REG(0x40020020u)
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_APB1ENR_USART2EN (1u << 17)

/* BRR = PCLK1 / baud = 16 MHz / 115200 = 138.9 -> 139 (mantissa 8, fraction 11). */
#define USART2_BRR_115200 0x8Bu

void BoardInit(void) {
#if BOARD_LOG_UART
  RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
  RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
  (void)RCC_APB1ENR; /* read back: the clocks are on before the first peripheral access */
  GPIOA_MODER = (GPIOA_MODER & ~(0xFu << 4)) | (0xAu << 4); /* PA2, PA3: alternate function */
  GPIOA_AFRL = (GPIOA_AFRL & ~(0xFFu << 8)) | (0x77u << 8); /* AF7 = USART2_TX, USART2_RX (DebugRead) */
  Stm32UsartInit(BOARD_UART_BASE, USART2_BRR_115200);
#endif
}

void BoardUartPutc(char c) { Stm32UsartPutc(BOARD_UART_BASE, c); }

int BoardUartGetc(void) { return Stm32UsartGetc(BOARD_UART_BASE); }
