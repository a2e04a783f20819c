/* MicroTicks from SysTick: the 24-bit down-counter runs at the core clock
 * with the maximum reload, and its interrupt counts the wraps, giving a
 * 32-bit count of core cycles (wraps after 2^32 cycles).
 * Rate: BOARD_CORE_CLOCK_HZ ([board] clock_hz). Under QEMU the SysTick runs
 * on the emulated machine's clock (see docs/boards.md); with -icount the
 * counts are deterministic. Real boards that have DWT can build with
 * TAGS=dwt (boards/cortex_m/dwt/ticks.c) for an exact cycle counter. */
#include <stdint.h>

#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

#define SYSTICK_MAX 0x00FFFFFFu

static volatile uint32_t g_systick_wraps;

void SysTick_Handler(void) { g_systick_wraps = g_systick_wraps + 1; }

void CortexMTicksInit(void) {
  CM_SYST_RVR = SYSTICK_MAX;
  CM_SYST_CVR = 0;
  CM_SYST_CSR = 7u; /* processor clock, interrupt on wrap, enabled */
}

uint32_t CortexMTicks(void) {
  uint32_t wraps, value;
  /* Re-read if the wrap interrupt ran in between. */
  do {
    wraps = g_systick_wraps;
    value = CM_SYST_CVR;
  } while (wraps != g_systick_wraps);
  return (wraps << 24) | (SYSTICK_MAX - value);
}

uint32_t CortexMTicksPerSecond(void) { return BOARD_CORE_CLOCK_HZ; }
