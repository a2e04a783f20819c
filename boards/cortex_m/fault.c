/* Fault reporter shared by every fault vector: prints exactly one line
 *   *** HardFault: PC=0x........ LR=0x........ xPSR=0x........ CFSR=0x........ HFSR=0x........ MMFAR=0x........ BFAR=0x........
 * (the harness parses it, see harness/crash.py), then exits with status 3
 * through semihosting, or halts. It formats into a static buffer with a
 * hand-rolled hex writer: the fault may be a stack overflow, so it must not
 * need much stack (no MicroPrintf). */
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

extern volatile uint32_t g_semihosting_absent;
void CortexMFaultReport(uint32_t* frame, uint32_t exc_return) __attribute__((used));

/* Fault stack: the report runs on its own small stack, so a fault caused
 * by a stack overflow (MSPLIM on ARMv8-M, or a stacking error) can still be
 * reported instead of locking the core up. */
#define FAULT_STACK_WORDS 128
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
uint32_t g_fault_stack[FAULT_STACK_WORDS] __attribute__((aligned(8), used)); /* used: only the asm refers to it */

/* Picks the stack the exception frame was pushed on (EXC_RETURN bit 2:
 * 0 = MSP, 1 = PSP), switches to the fault stack and calls the reporter with
 * (frame, EXC_RETURN). If the reporter returns (a semihosting BKPT without
 * a debugger was skipped), the original stack and limit are restored and
 * the exception returns normally. */
__attribute__((naked)) void HardFault_Handler(void) {
  __asm__ volatile(
      "tst lr, #4\n"
      "ite eq\n"
      "mrseq r0, msp\n"
      "mrsne r0, psp\n"
      "mov r1, lr\n"
      "mov r2, sp\n"
#if defined(__ARM_ARCH_8M_MAIN__)
      "movs r3, #0\n"
      "msr msplim, r3\n"
#endif
      "ldr r3, =g_fault_stack + 4 * " STRINGIFY(FAULT_STACK_WORDS) "\n"
      "mov sp, r3\n"
      "push {r1, r2}\n"
      "bl CortexMFaultReport\n"
      "pop {r1, r2}\n"
      "mov sp, r2\n"
#if defined(__ARM_ARCH_8M_MAIN__)
      "ldr r3, =_sstack\n"
      "msr msplim, r3\n"
#endif
      "bx r1\n"
      ".ltorg\n"); /* literal pool right here, in reach of the ldr above */
}

/* The frame is only read where RAM is: after a stacking error it may point
 * below it, and a second fault inside this handler would lock the core. */
extern uint32_t _sram, _estack;
/* Likewise the instruction at PC is only read inside flash (a wild PC may
 * point at memory whose read faults). */
extern const uint16_t _sflash[], _eflash[];

static char g_fault_line[160];

static char* PutString(char* out, const char* s) {
  while (*s) {
    *out++ = *s++;
  }
  return out;
}

static char* PutHex(char* out, const char* label, uint32_t value) {
  out = PutString(out, label);
  *out++ = '0';
  *out++ = 'x';
  for (int shift = 28; shift >= 0; shift -= 4) {
    *out++ = "0123456789abcdef"[(value >> shift) & 0xFu];
  }
  return out;
}

void CortexMFaultReport(uint32_t* frame, uint32_t exc_return) {
  (void)exc_return;
  uint32_t hfsr = CM_SCB_HFSR;
  const int frame_ok = frame >= &_sram && frame + 8 <= &_estack;
  uint32_t pc = frame_ok ? frame[6] : 0u;
  uint32_t cfsr = CM_SCB_CFSR;
  /* A semihosting BKPT with nobody to service it escalates to HardFault:
   * silicon sets HFSR DEBUGEVT; QEMU without -semihosting reports FORCED
   * with no configurable fault recorded (CFSR 0). If that is the cause and
   * the stacked PC is a BKPT 0xAB, skip the 2-byte instruction, return -1 in
   * r0 and stop using semihosting, so the firmware keeps running on a
   * stand-alone board. Any recorded fault (e.g. an imprecise bus error that
   * happens to be taken at a BKPT) is reported, never skipped. */
  const int debug_escalation =
      (hfsr & CM_HFSR_DEBUGEVT) != 0u || ((hfsr & CM_HFSR_FORCED) != 0u && cfsr == 0u);
  const int pc_in_flash = pc >= (uint32_t)_sflash && pc + 2 <= (uint32_t)_eflash && (pc & 1u) == 0;
  if (debug_escalation && frame_ok && pc_in_flash && *(const volatile uint16_t*)pc == 0xBEABu) {
    g_semihosting_absent = 1;
    frame[0] = 0xFFFFFFFFu;
    frame[6] = pc + 2;
    CM_SCB_HFSR = hfsr; /* write-one-to-clear what was set */
    return;
  }
  char* out = g_fault_line;
  out = PutHex(out, "*** HardFault: PC=", pc);
  out = PutHex(out, " LR=", frame_ok ? frame[5] : 0u);
  out = PutHex(out, " xPSR=", frame_ok ? frame[7] : 0u);
  out = PutHex(out, " CFSR=", cfsr);
  out = PutHex(out, " HFSR=", hfsr);
  out = PutHex(out, " MMFAR=", CM_SCB_MMFAR);
  out = PutHex(out, " BFAR=", CM_SCB_BFAR);
  *out++ = '\n';
  *out = '\0';
  CortexMLogWrite(g_fault_line);
  SemihostingExit(CM_FAULT_EXIT_STATUS);
}
