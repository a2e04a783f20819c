/* Emulation guard: in an emulator, make the core fault wherever the real chip
 * would.
 *
 * Emulators model bigger or more forgiving chips than the board's (QEMU's
 * netduino2 has 128 KB of RAM for the bluepill's 20 KB and ignores stores to
 * unmapped addresses). When g_emulation_guard holds EMULATION_GUARD_MAGIC at
 * reset, the MPU is programmed with the board's address map only (flash
 * read-only, RAM and peripherals read-write and execute-never, on ARMv7-M a
 * no-access guard at the bottom of the stack) and the background map off, so
 * any other access is a MemManage fault, reported on the HardFault line with
 * MMFAR. The word sits in .noinit (never zeroed or copied by start-up): only a
 * runner that loads the ELF writes it (harness/emulation_guard.py, e.g. QEMU's
 * -device loader), and start-up clears it once read. On a real chip nobody
 * writes it, the MPU stays off and nothing changes.
 *
 * The region table comes from the board file, as linker symbols in the
 * generated memory.ld (harness/mpu_regions.py): slot N is
 * __emu_guard_rbarN / __emu_guard_attrN (RBAR and RASR on ARMv7-M, RBAR and
 * RLAR on ARMv8-M; attr 0 = region off). */
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

#define EMULATION_GUARD_MAGIC 0xE1A5C0DEu /* harness/emulation_guard.py: GUARD_MAGIC */

#define MPU_TYPE CM_REG(0xE000ED90u)
#define MPU_CTRL CM_REG(0xE000ED94u)
#define MPU_RNR CM_REG(0xE000ED98u)
#define MPU_RBAR CM_REG(0xE000ED9Cu)
#define MPU_RASR_RLAR CM_REG(0xE000EDA0u) /* RASR on ARMv7-M, RLAR on ARMv8-M */
#define MPU_MAIR0 CM_REG(0xE000EDC0u)     /* ARMv8-M only */
#define MPU_SLOTS 8
/* ENABLE; PRIVDEFENA = 0 (no background map); HFNMIENA = 0, so the MPU is off
 * in the HardFault handler, which may read a frame inside the stack guard. */
#define MPU_CTRL_ENABLE 1u

uint32_t g_emulation_guard __attribute__((section(".noinit.emulation_guard"), used));

/* Weak: a board with its own linker script and no table keeps the guard off. */
#define GUARD_SLOT(n) \
  extern const char __emu_guard_rbar##n[] __attribute__((weak)), __emu_guard_attr##n[] __attribute__((weak));
GUARD_SLOT(0)
GUARD_SLOT(1)
GUARD_SLOT(2)
GUARD_SLOT(3)
GUARD_SLOT(4)
GUARD_SLOT(5)
GUARD_SLOT(6)
GUARD_SLOT(7)
extern const char __emu_guard_regions[] __attribute__((weak));
extern const char __emu_guard_mair0[] __attribute__((weak));

/* A linker symbol's value; the barrier stops the compiler from assuming that
 * the address of an object is never 0. */
static uint32_t LinkerValue(const char* symbol) {
  uintptr_t value = (uintptr_t)symbol;
  __asm__("" : "+r"(value));
  return (uint32_t)value;
}

void EmulationGuardInit(void) {
  const uint32_t word = g_emulation_guard;
  /* Consumed: RAM keeps its contents over a reset, and the guard is for the
   * boot a runner asked for it (QEMU's loader writes it again at each reset). */
  g_emulation_guard = 0u;
  if (word != EMULATION_GUARD_MAGIC) {
    return; /* a real chip, or a runner without the guard */
  }
  const char* const slots[MPU_SLOTS][2] = {
      {__emu_guard_rbar0, __emu_guard_attr0}, {__emu_guard_rbar1, __emu_guard_attr1},
      {__emu_guard_rbar2, __emu_guard_attr2}, {__emu_guard_rbar3, __emu_guard_attr3},
      {__emu_guard_rbar4, __emu_guard_attr4}, {__emu_guard_rbar5, __emu_guard_attr5},
      {__emu_guard_rbar6, __emu_guard_attr6}, {__emu_guard_rbar7, __emu_guard_attr7},
  };
  /* No table, or an MPU with fewer regions than the table assumes: leave it off. */
  if (LinkerValue(__emu_guard_regions) == 0u || ((MPU_TYPE >> 8) & 0xFFu) < MPU_SLOTS) {
    return;
  }
  MPU_CTRL = 0u;
  __asm__ volatile("dsb\nisb" ::: "memory");
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8M_BASE__)
  MPU_MAIR0 = LinkerValue(__emu_guard_mair0);
#endif
  for (uint32_t slot = 0; slot < MPU_SLOTS; ++slot) {
    MPU_RNR = slot;
    MPU_RBAR = LinkerValue(slots[slot][0]);
    MPU_RASR_RLAR = LinkerValue(slots[slot][1]);
  }
  MPU_CTRL = MPU_CTRL_ENABLE;
  __asm__ volatile("dsb\nisb" ::: "memory");
}
