/* Cortex-M3/M4 reset and exception entry for this firmware (no vendor startup files).
 *
 * The vector table holds the 16 architectural entries only: the firmware enables no
 * peripheral interrupt. Symbols come from link/common.ld.
 */
#include <stdint.h>

#include "log.h"

extern uint32_t _estack; /* top of RAM: the initial stack pointer */
extern uint32_t _sidata; /* where .data's initial values are, in flash */
extern uint32_t _sdata, _edata;
extern uint32_t _sbss, _ebss;

int main(void);

void Reset_Handler(void);
void NMI_Handler(void);
void HardFault_Handler(void);
void Default_Handler(void);

__attribute__((noreturn)) void Reset_Handler(void)
{
#if defined(__ARM_FP)
    /* Hard-float build: give CP10/CP11 (the FPU) full access before any C code may use it. */
    volatile uint32_t *const cpacr = (volatile uint32_t *)0xE000ED88u;
    *cpacr |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    /* The compiler may turn these loops into memcpy/memset calls (src/mem.c). */
    const uint32_t *from = &_sidata;
    for (uint32_t *to = &_sdata; to < &_edata;) {
        *to++ = *from++;
    }
    for (uint32_t *to = &_sbss; to < &_ebss;) {
        *to++ = 0u;
    }
    (void)main();
    for (;;) {
    }
}

void NMI_Handler(void)
{
    for (;;) {
    }
}

void HardFault_Handler(void)
{
    log_write("HardFault\n");
    for (;;) {
    }
}

void Default_Handler(void)
{
    for (;;) {
    }
}

struct vector_table {
    void *initial_stack_pointer;
    void (*handler[15])(void);
};

__attribute__((section(".isr_vector"), used)) const struct vector_table vector_table = {
    .initial_stack_pointer = &_estack,
    .handler = {
        Reset_Handler,
        NMI_Handler,
        HardFault_Handler,
        Default_Handler, /* MemManage */
        Default_Handler, /* BusFault */
        Default_Handler, /* UsageFault */
        0, 0, 0, 0,      /* reserved */
        Default_Handler, /* SVCall */
        Default_Handler, /* DebugMonitor */
        0,               /* reserved */
        Default_Handler, /* PendSV */
        Default_Handler, /* SysTick */
    },
};
