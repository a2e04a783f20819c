/* log.h over USART2 (PA2 = TX), polled, 115200 baud from the reset clock (HSI).
 *
 * USART2 sits at the same address with the same register layout on the STM32F1 and F4;
 * what differs is how its clock and its pin are switched on. Pick the chip with
 * -DCHIP_STM32F1 or -DCHIP_STM32F4.
 */
#include <stdint.h>

#include "log.h"

#define REG32(address) (*(volatile uint32_t *)(uintptr_t)(address))

#define USART2_BASE 0x40004400u
#define USART2_SR REG32(USART2_BASE + 0x00u)
#define USART2_DR REG32(USART2_BASE + 0x04u)
#define USART2_BRR REG32(USART2_BASE + 0x08u)
#define USART2_CR1 REG32(USART2_BASE + 0x0Cu)

#define USART_SR_TXE (1u << 7)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_UE (1u << 13)

#define BAUD_RATE 115200u

#if defined(CHIP_STM32F1)

#define PCLK1_HZ 8000000u /* HSI 8 MHz, no APB1 prescaler after reset */
#define RCC_BASE 0x40021000u
#define RCC_APB2ENR REG32(RCC_BASE + 0x18u)
#define RCC_APB1ENR REG32(RCC_BASE + 0x1Cu)
#define RCC_APB2ENR_IOPAEN (1u << 2)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define GPIOA_CRL REG32(0x40010800u)

static void enable_clock_and_pin(void)
{
    RCC_APB2ENR |= RCC_APB2ENR_IOPAEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
    /* PA2: CNF=10 (alternate function push-pull), MODE=11 (output 50 MHz) -> 0xB in bits 11:8 */
    GPIOA_CRL = (GPIOA_CRL & ~(0xFu << 8)) | (0xBu << 8);
}

#elif defined(CHIP_STM32F4)

#define PCLK1_HZ 16000000u /* HSI 16 MHz, no APB1 prescaler after reset */
#define RCC_BASE 0x40023800u
#define RCC_AHB1ENR REG32(RCC_BASE + 0x30u)
#define RCC_APB1ENR REG32(RCC_BASE + 0x40u)
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define GPIOA_BASE 0x40020000u
#define GPIOA_MODER REG32(GPIOA_BASE + 0x00u)
#define GPIOA_AFRL REG32(GPIOA_BASE + 0x20u)

static void enable_clock_and_pin(void)
{
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
    /* The peripheral may be touched two bus cycles after its clock is on: one read-back covers it. */
    (void)RCC_APB1ENR;
    /* PA2: mode 0b10 (alternate function), AF7 (USART1..3) */
    GPIOA_MODER = (GPIOA_MODER & ~(0x3u << 4)) | (0x2u << 4);
    GPIOA_AFRL = (GPIOA_AFRL & ~(0xFu << 8)) | (0x7u << 8);
}

#else
#error "define CHIP_STM32F1 or CHIP_STM32F4"
#endif

static int uart_ready;

static void uart_init(void)
{
    enable_clock_and_pin();
    /* 16x oversampling: BRR = fck / baud (mantissa and fraction packed), rounded */
    USART2_BRR = (PCLK1_HZ + BAUD_RATE / 2u) / BAUD_RATE;
    USART2_CR1 = USART_CR1_UE | USART_CR1_TE;
    uart_ready = 1;
}

void log_write(const char *text)
{
    if (!uart_ready) {
        uart_init();
    }
    for (; *text != '\0'; ++text) {
        while ((USART2_SR & USART_SR_TXE) == 0u) {
        }
        USART2_DR = (uint8_t)*text;
    }
}

void log_exit(int status)
{
    (void)status; /* a UART cannot end the session: the output's last lines carry the verdict */
    for (;;) {
        __asm__ volatile("wfi");
    }
}
