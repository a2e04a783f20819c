/* MicroTicks from SysTick (boards/cortex_m/systick.c): core cycles,
 * wrapping after 2^32. Rate: BOARD_CORE_CLOCK_HZ ([board] clock_hz). Under
 * QEMU the SysTick runs on the emulated machine's clock (see
 * docs/boards.md); with -icount the counts are deterministic. Real boards
 * with a DWT unit can build with TAGS=dwt (boards/cortex_m/dwt/ticks.c) for
 * the exact cycle counter. */
#include <stdint.h>

#include "board_config.h"
#include "boards/cortex_m/cortex_m.h"

void CortexMTicksInit(void) { CortexMSysTickStart(); }

uint32_t CortexMTicks(void) { return CortexMSysTickCycles(); }

uint32_t CortexMTicksPerSecond(void) { return BOARD_CORE_CLOCK_HZ; }
