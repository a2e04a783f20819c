/* Polled transmit and receive on an STM32 USART (F1/F2/F4 register layout: SR at 0x00,
 * DR at 0x04, BRR at 0x08, CR1 at 0x0C). */
#ifndef BOARDS_STM32_STM32_USART_H_
#define BOARDS_STM32_STM32_USART_H_

#include <stdint.h>

/* Sets the baud divider and enables the transmitter (CR1 = UE|TE|RE =
 * 0x200C, which is also what QEMU's and Renode's models need). */
void Stm32UsartInit(uint32_t base, uint32_t brr);
void Stm32UsartPutc(uint32_t base, char c);
/* The received byte (0-255), or -1 when the receive register is empty. */
int Stm32UsartGetc(uint32_t base);

#endif /* BOARDS_STM32_STM32_USART_H_ */
