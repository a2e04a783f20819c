/* A 32-bit core-cycle counter from SysTick: the 24-bit down-counter runs at
 * the core clock with the maximum reload, and its interrupt counts the
 * wraps. Used by ticks.c (and by dwt/ticks.c where DWT is missing). */
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

#define SYSTICK_MAX 0x00FFFFFFu
#define ICSR_PENDSTSET (1u << 26)

static volatile uint32_t g_systick_wraps;

void SysTick_Handler(void) { g_systick_wraps = g_systick_wraps + 1; }

void CortexMSysTickStart(void) {
  CM_SYST_RVR = SYSTICK_MAX;
  CM_SYST_CVR = 0;
  CM_SYST_CSR = 7u; /* processor clock, interrupt on wrap, enabled */
  /* The CVR write parks the counter at 0 until its next clock reloads it
   * (no interrupt for that reload). Silicon reloads at once; QEMU only when
   * its timer callback runs, and reads of 0 until then would look like a
   * full period. Wait for the reload (bounded, in case SysTick is absent). */
  for (uint32_t i = 0; i < 1000000u && CM_SYST_CVR == 0; ++i) {
  }
}

uint32_t CortexMSysTickCycles(void) {
  uint32_t wraps, value, pending;
  do {
    wraps = g_systick_wraps;
    value = CM_SYST_CVR;
    /* Wrapped but the interrupt has not run yet (it is taken a few cycles
     * late, or later with interrupts masked): that wrap is counted below,
     * and the counter is re-read so the value is surely past the reload. */
    pending = CM_SCB_ICSR & ICSR_PENDSTSET;
    if (pending) {
      value = CM_SYST_CVR;
    }
  } while (wraps != g_systick_wraps); /* the handler ran in between: again */
  if (pending) {
    wraps += 1;
  }
  return (wraps << 24) | (SYSTICK_MAX - value);
}
