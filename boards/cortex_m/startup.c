/* Cortex-M start-up: vector table and reset handler.
 *
 * Reset: enable the FPU (before any code that may use it), set the stack
 * limit on ARMv8-M, turn the emulation guard on when an emulator asked for
 * it (emulation_guard.c), copy .data from flash, zero .bss, bring up the board
 * (clocks, log UART) and the tick counter, run the C++ static constructors
 * (.preinit_array, then .init_array: without this, objects built by
 * constructors, e.g. self-registering tests, silently do nothing), then
 * main(0, NULL), then MicroExit(main's status). */
#include <stddef.h>
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

/* Defined by boards/cortex_m/cortex_m.ld. */
extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _sstack, _estack;
extern void (*__preinit_array_start[])(void);
extern void (*__preinit_array_end[])(void);
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

extern int main(int argc, char** argv);
void MicroExit(int status) __attribute__((noreturn));
void SemihostingProbe(void);
void EmulationGuardInit(void);
void CortexMTicksInit(void);
void HardFault_Handler(void);
void SysTick_Handler(void);
void Reset_Handler(void);
void ResetC(void) __attribute__((noreturn, used));
typedef void (*Vector)(void);
extern const Vector g_vector_table[];

void CortexMHalt(void) {
  __asm__ volatile("cpsid i" ::: "memory");
  for (;;) {
    __asm__ volatile("wfi");
  }
}

/* Naked: runs before the FPU is on, so no compiler-generated code may touch
 * FP registers here. */
__attribute__((naked)) void Reset_Handler(void) {
  __asm__ volatile(
      "ldr r0, =_estack\n"
      "msr msp, r0\n"
#if defined(__ARM_ARCH_8M_MAIN__)
      /* Stack overflow becomes a UsageFault (CFSR STKOF) instead of silently
       * overwriting .bss. */
      "ldr r0, =_sstack\n"
      "msr msplim, r0\n"
#endif
#if defined(__ARM_FP)
      /* CPACR: full access to CP10 and CP11. */
      "ldr r0, =0xE000ED88\n"
      "ldr r1, [r0]\n"
      "orr r1, r1, #(0xF << 20)\n"
      "str r1, [r0]\n"
      /* FPCCR: keep automatic FP state preservation but not the lazy
       * variant (LSPEN off). QEMU 7.2's Cortex-M33 corrupts FP results when
       * the SysTick interrupt lands in FP code with lazy stacking; the eager
       * save costs a few cycles once per 2^24 cycles. */
      "ldr r0, =0xE000EF34\n"
      "ldr r1, [r0]\n"
      "bic r1, r1, #(1 << 30)\n"
      "str r1, [r0]\n"
      "dsb\n"
      "isb\n"
#endif
      "b ResetC\n"
      ".ltorg\n"); /* literal pool right here, in reach of the ldr above */
}

void ResetC(void) {
  /* First, so everything after runs under it: in an emulator that set the
   * guard word, only the real chip's memory map is accessible (MPU). */
  EmulationGuardInit();
  const uint32_t* src = &_sidata;
  for (uint32_t* dst = &_sdata; dst < &_edata;) {
    *dst++ = *src++;
  }
  for (uint32_t* dst = &_sbss; dst < &_ebss;) {
    *dst++ = 0;
  }
  /* Our table, even when a bootloader started us with VTOR pointing at its own. */
  CM_SCB_VTOR = (uint32_t)(uintptr_t)g_vector_table;
  /* Integer division by zero traps (UsageFault DIVBYZERO on the HardFault
   * line) instead of silently giving 0: the host build crashes on it too. */
  CM_SCB_CCR |= 1u << 4; /* DIV_0_TRP */
  SemihostingProbe();
  BoardInit();
  CortexMTicksInit();
  size_t count = (size_t)(__preinit_array_end - __preinit_array_start);
  for (size_t i = 0; i < count; ++i) {
    __preinit_array_start[i]();
  }
  count = (size_t)(__init_array_end - __init_array_start);
  for (size_t i = 0; i < count; ++i) {
    __init_array_start[i]();
  }
  MicroExit(main(0, NULL));
}

/* Exception numbers 1..15, then a few external interrupts. None are enabled;
 * anything unexpected lands in the fault reporter, which names the PC. */
__attribute__((section(".isr_vector"), used)) const Vector g_vector_table[16 + 16] = {
    (Vector)(uintptr_t)&_estack,
    Reset_Handler,
    HardFault_Handler, /* NMI */
    HardFault_Handler, /* HardFault */
    HardFault_Handler, /* MemManage */
    HardFault_Handler, /* BusFault */
    HardFault_Handler, /* UsageFault */
    HardFault_Handler, /* SecureFault (ARMv8-M) */
    0,
    0,
    0,
    HardFault_Handler, /* SVCall */
    HardFault_Handler, /* DebugMonitor */
    0,
    HardFault_Handler, /* PendSV */
    SysTick_Handler,
    HardFault_Handler, HardFault_Handler, HardFault_Handler, HardFault_Handler,
    HardFault_Handler, HardFault_Handler, HardFault_Handler, HardFault_Handler,
    HardFault_Handler, HardFault_Handler, HardFault_Handler, HardFault_Handler,
    HardFault_Handler, HardFault_Handler, HardFault_Handler, HardFault_Handler,
};
