#include "boards/stm32/stm32_usart.h"

#include "boards/cortex_m/cortex_m.h"

#define USART_SR(base) CM_REG((base) + 0x00u)
#define USART_DR(base) CM_REG((base) + 0x04u)
#define USART_BRR(base) CM_REG((base) + 0x08u)
#define USART_CR1(base) CM_REG((base) + 0x0Cu)
#define USART_SR_TXE (1u << 7)
#define USART_SR_TC (1u << 6)
#define USART_SR_RXNE (1u << 5)

void Stm32UsartInit(uint32_t base, uint32_t brr) {
  USART_BRR(base) = brr;
  USART_CR1(base) = 0x200Cu;
}

void Stm32UsartPutc(uint32_t base, char c) {
  while ((USART_SR(base) & USART_SR_TXE) == 0) {
  }
  USART_DR(base) = (uint8_t)c;
}

int Stm32UsartGetc(uint32_t base) {
  if ((USART_SR(base) & USART_SR_RXNE) == 0) {
    return -1;
  }
  return (int)(USART_DR(base) & 0xFFu); /* reading DR clears RXNE (and an overrun) */
}
