/* MicroTicks from the DWT cycle counter (TAGS=dwt): exact core cycles, no
 * interrupt. Cortex-M3/M4/M7/M33 silicon has it; QEMU 7.2 does not emulate
 * it, so this variant is for real boards. If CYCCNT does not move after
 * enabling (no DWT, or a debugger owns it), the SysTick counter is used.
 * Rate: BOARD_CORE_CLOCK_HZ either way. */
#include <stdint.h>

#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

#define DEMCR CM_REG(0xE000EDFCu)
#define DWT_CTRL CM_REG(0xE0001000u)
#define DWT_CYCCNT CM_REG(0xE0001004u)
#define SYSTICK_MAX 0x00FFFFFFu

static volatile uint32_t g_systick_wraps;
static uint32_t g_use_dwt;

void SysTick_Handler(void) { g_systick_wraps = g_systick_wraps + 1; }

void CortexMTicksInit(void) {
  DEMCR |= 1u << 24; /* TRCENA: power the DWT */
  DWT_CYCCNT = 0;
  DWT_CTRL |= 1u; /* CYCCNTENA */
  uint32_t before = DWT_CYCCNT;
  for (volatile int i = 0; i < 8; ++i) {
  }
  g_use_dwt = DWT_CYCCNT != before;
  if (!g_use_dwt) {
    CM_SYST_RVR = SYSTICK_MAX;
    CM_SYST_CVR = 0;
    CM_SYST_CSR = 7u;
  }
}

uint32_t CortexMTicks(void) {
  if (g_use_dwt) {
    return DWT_CYCCNT;
  }
  uint32_t wraps, value;
  do {
    wraps = g_systick_wraps;
    value = CM_SYST_CVR;
  } while (wraps != g_systick_wraps);
  return (wraps << 24) | (SYSTICK_MAX - value);
}

uint32_t CortexMTicksPerSecond(void) { return BOARD_CORE_CLOCK_HZ; }
