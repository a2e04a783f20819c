/* Shared Cortex-M board support: the pieces a board's own files plug into.
 * Plain C so startup, fault and libc code need no C++ runtime. */
#ifndef BOARDS_CORTEX_M_CORTEX_M_H_
#define BOARDS_CORTEX_M_CORTEX_M_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CM_REG(addr) (*(volatile uint32_t*)(addr))

/* System control block registers used by startup, ticks and the fault handler. */
#define CM_SCB_ICSR CM_REG(0xE000ED04u)
#define CM_SCB_VTOR CM_REG(0xE000ED08u)
#define CM_SCB_CCR CM_REG(0xE000ED14u)
#define CM_SCB_SHCSR CM_REG(0xE000ED24u)
#define CM_SCB_CFSR CM_REG(0xE000ED28u)
#define CM_SCB_HFSR CM_REG(0xE000ED2Cu)
#define CM_SCB_MMFAR CM_REG(0xE000ED34u)
#define CM_HFSR_FORCED (1u << 30)   /* a configurable fault escalated (or QEMU's BKPT without semihosting) */
#define CM_HFSR_DEBUGEVT (1u << 31) /* a debug event (BKPT) with no debugger to halt for it */
#define CM_SCB_BFAR CM_REG(0xE000ED38u)
#define CM_SCB_CPACR CM_REG(0xE000ED88u)
#define CM_SYST_CSR CM_REG(0xE000E010u)
#define CM_SYST_RVR CM_REG(0xE000E014u)
#define CM_SYST_CVR CM_REG(0xE000E018u)

/* Status MicroExit reports for a HardFault (see docs/boards.md). */
#define CM_FAULT_EXIT_STATUS 3

/* Hooks each board provides (boards/<board>/board.c). */
/* Clocks, pins and the log UART; runs before .data/.bss are set up is NOT
 * allowed: it is called after them, before C++ constructors. */
void BoardInit(void);
/* Writes one byte to the board's log UART, polled (only called when the
 * board's [log] transports contain "uart"). */
void BoardUartPutc(char c);
/* One received byte of the log UART (0-255), or -1 when none is waiting. */
int BoardUartGetc(void);

/* Hands a run token that came over the UART handshake to MicroRunToken
 * (boards/cortex_m/platform.cc); 1 when the token block now holds it. */
int MicroRunTokenOffer(const uint32_t key[2]);

/* Semihosting (boards/cortex_m/semihosting.c). */
void SemihostingWrite0(const char* s);
void SemihostingExit(int status) __attribute__((noreturn));

/* Where DebugLog goes; the transport set is fixed at build time by
 * BOARD_LOG_SEMIHOSTING / _IF_DEBUGGER / UART / RTT (from [log] transports). */
void CortexMLogWrite(const char* s);
/* DebugRead: a byte from the log UART when the board logs through it; -1
 * when none is waiting or the board has no UART log. */
int CortexMLogRead(void);

/* Debug Halting Control and Status Register: C_DEBUGEN (bit 0) is set while
 * a debugger is connected to the core (silicon; QEMU's GDB stub does not set it). */
#define CM_DHCSR CM_REG(0xE000EDF0u)
static inline int CortexMDebuggerAttached(void) { return (CM_DHCSR & 1u) != 0; }

/* SysTick as a 32-bit cycle counter (boards/cortex_m/systick.c). */
void CortexMSysTickStart(void);
uint32_t CortexMSysTickCycles(void);

/* Stops forever with interrupts off: the end when nobody can be told. */
void CortexMHalt(void) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* BOARDS_CORTEX_M_CORTEX_M_H_ */
