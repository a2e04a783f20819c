/* Self-contained firmware for the runner and crash tests (no board support
 * needed): prints over semihosting and/or USART1, then behaves as selected by
 * -DMODE_<x>: PASS, FAIL, CRASH (HardFault via a bad read), HANG, EXIT_EARLY
 * (dies without a sentinel), LOCKUP (fault with an unusable stack).
 * -DNO_EXIT halts instead of exiting through semihosting, like a board
 * without a debugger attached. */
#include <stdint.h>

#define USART1_SR (*(volatile uint32_t *)0x40013800u)
#define USART1_DR (*(volatile uint32_t *)0x40013804u)
#define USART1_CR1 (*(volatile uint32_t *)0x4001380Cu)
#define RCC_APB2ENR (*(volatile uint32_t *)0x40021018u)

static int semihost(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static void put(const char *s) {
#ifdef USE_UART
  for (const char *p = s; *p; ++p) USART1_DR = (uint32_t)*p;
#else
  semihost(0x04, s); /* SYS_WRITE0 */
#endif
}

__attribute__((noreturn)) static void exit_status(int status) {
#ifdef NO_EXIT
  (void)status;
  for (;;) {
  }
#endif
  uint32_t block[2] = {0x20026u, (uint32_t)status}; /* ADP_Stopped_ApplicationExit */
  semihost(0x20, block);                             /* SYS_EXIT_EXTENDED */
  for (;;) {
  }
}

static void hex8(char *out, uint32_t v) {
  for (int i = 7; i >= 0; --i) {
    out[i] = "0123456789abcdef"[v & 0xf];
    v >>= 4;
  }
}

/* Prints the one-line HardFault report (docs/log_protocol.md) and exits 3. */
void hardfault_c(uint32_t *frame) {
  static char line[] = "*** HardFault: PC=0x######## LR=0x######## xPSR=0x######## CFSR=0x######## "
                       "HFSR=0x######## MMFAR=0x######## BFAR=0x########\n";
  hex8(line + 20, frame[6]);
  hex8(line + 34, frame[5]);
  hex8(line + 50, frame[7]);
  hex8(line + 66, *(volatile uint32_t *)0xE000ED28u);
  hex8(line + 82, *(volatile uint32_t *)0xE000ED2Cu);
  hex8(line + 99, *(volatile uint32_t *)0xE000ED34u);
  hex8(line + 115, *(volatile uint32_t *)0xE000ED38u);
  put(line);
  exit_status(3);
}

__attribute__((naked)) void hardfault_handler(void) {
  __asm__ volatile("tst lr, #4\n ite eq\n mrseq r0, msp\n mrsne r0, psp\n b hardfault_c\n");
}

__attribute__((noinline)) int crashing_read(volatile uint32_t *p) { return (int)*p; }

extern uint32_t _sdata, _edata, _sidata;

void reset_handler(void) {
  for (uint32_t *src = &_sidata, *dst = &_sdata; dst < &_edata;) *dst++ = *src++;
#ifdef USE_UART
  RCC_APB2ENR |= (1u << 14);
  USART1_CR1 = (1u << 13) | (1u << 3);
#endif
  put("Testing Mini\r\n");
#if defined(MODE_PASS)
  put("1/1 tests passed\n~~~ALL TESTS PASSED~~~\n");
  exit_status(0);
#elif defined(MODE_FAIL)
  put("x == 1 failed at mini.c:1 (0 vs 1)\n0/1 tests passed\n~~~SOME TESTS FAILED~~~\n");
  exit_status(1);
#elif defined(MODE_CRASH)
  crashing_read((volatile uint32_t *)0x70000000u); /* unmapped: precise bus fault -> HardFault */
  exit_status(0);
#elif defined(MODE_LOCKUP)
  /* Fault with the stack pointer in unmapped memory: exception entry cannot
   * stack, the core locks up (QEMU reports "Lockup" and aborts). */
  __asm__ volatile("msr msp, %0" : : "r"(0x30000000u));
  crashing_read((volatile uint32_t *)0x70000000u);
#elif defined(MODE_EXIT_EARLY)
  exit_status(2);
#else /* MODE_HANG */
  for (;;) {
  }
#endif
}

extern uint32_t _stack_top;
__attribute__((section(".vectors"), used)) void (*const vectors[16])(void) = {
    (void (*)(void))&_stack_top, reset_handler, hardfault_handler, hardfault_handler,
    hardfault_handler,           hardfault_handler, hardfault_handler,
};
