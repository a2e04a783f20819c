/* MicroTicks from the DWT cycle counter (TAGS=dwt): exact core cycles, no
 * interrupt. Cortex-M3/M4/M7/M33 silicon has it; QEMU 7.2 does not emulate
 * it, so this variant is for real boards. If CYCCNT does not move after
 * enabling it (no DWT, or not emulated), the SysTick counter is used.
 * Rate: BOARD_CORE_CLOCK_HZ either way. */
#include <stdint.h>

#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

#define DEMCR CM_REG(0xE000EDFCu)
#define DWT_CTRL CM_REG(0xE0001000u)
#define DWT_CYCCNT CM_REG(0xE0001004u)

static uint32_t g_use_dwt;

void CortexMTicksInit(void) {
  DEMCR |= 1u << 24; /* TRCENA: power the DWT */
  DWT_CYCCNT = 0;
  DWT_CTRL |= 1u; /* CYCCNTENA */
  uint32_t before = DWT_CYCCNT;
  for (volatile int i = 0; i < 8; ++i) {
  }
  g_use_dwt = DWT_CYCCNT != before;
  if (!g_use_dwt) {
    CortexMSysTickStart();
  }
}

uint32_t CortexMTicks(void) { return g_use_dwt ? DWT_CYCCNT : CortexMSysTickCycles(); }

uint32_t CortexMTicksPerSecond(void) { return BOARD_CORE_CLOCK_HZ; }
