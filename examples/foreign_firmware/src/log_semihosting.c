/* log.h over ARM semihosting (bkpt 0xAB; r0 = operation, r1 = its argument).
 *
 * Needs a debugger or an emulator that serves semihosting: without one the bkpt
 * instruction faults.
 */
#include <stdint.h>

#include "log.h"

#define SYS_WRITE0 0x04u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihosting_call(uint32_t operation, const void *argument)
{
    register uint32_t r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void log_write(const char *text)
{
    (void)semihosting_call(SYS_WRITE0, text);
}

void log_exit(int status)
{
    const uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    (void)semihosting_call(SYS_EXIT_EXTENDED, block);
    for (;;) { /* the host did not end the session */
        __asm__ volatile("wfi");
    }
}
