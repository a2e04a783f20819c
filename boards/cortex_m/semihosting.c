/* ARM semihosting calls: BKPT 0xAB with the operation in r0 and its argument
 * in r1. A debugger or emulator (QEMU -semihosting, pyOCD) services them.
 * Without one the BKPT escalates to HardFault; the fault handler recognises
 * that case, marks semihosting absent and resumes after the BKPT, so the
 * same firmware also runs stand-alone on a board. */
#include <stdint.h>

#include "boards/cortex_m/cortex_m.h"

#define SYS_WRITE0 0x04u
#define SYS_ERRNO 0x13u
#define SYS_EXIT 0x18u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

/* Set by the HardFault handler when a semihosting BKPT found no host. */
volatile uint32_t g_semihosting_absent;

/* The exit status where an emulator does not report semihosting exits (Renode up to 1.16.1 answers
 * SYS_EXIT with 0 and lets the program go on): {MICRO_EXIT_MAGIC, status}, written just before the
 * core halts; the harness clears it before a run and reads it from memory
 * (harness/runners/renode.py, ExitWatch). */
#define MICRO_EXIT_MAGIC 0x45584954u /* "EXIT" */
volatile uint32_t g_micro_exit[2] __attribute__((used));

static uint32_t SemihostingCall(uint32_t op, const void* arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

/* One harmless call at start-up tells whether a host listens. */
void SemihostingProbe(void) {
  if (!g_semihosting_absent) {
    (void)SemihostingCall(SYS_ERRNO, 0);
  }
}

void SemihostingWrite0(const char* s) {
  if (!g_semihosting_absent) {
    (void)SemihostingCall(SYS_WRITE0, s);
  }
}

void SemihostingExit(int status) {
  g_micro_exit[1] = (uint32_t)status;
  g_micro_exit[0] = MICRO_EXIT_MAGIC; /* after the status: a reader seeing the magic sees the status */
  if (!g_semihosting_absent) {
    /* SYS_EXIT_EXTENDED carries any status; plain SYS_EXIT (with
     * ADP_Stopped_ApplicationExit) is the fallback for hosts that lack it
     * and can only report success. */
    uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    (void)SemihostingCall(SYS_EXIT_EXTENDED, block);
    if (status == 0) {
      (void)SemihostingCall(SYS_EXIT, (const void*)ADP_STOPPED_APPLICATION_EXIT);
    }
  }
  CortexMHalt();
}
