// micro_runtime platform hooks (micro_runtime/platform.h) for every
// Cortex-M board: DebugLog through the configured transports, DebugRead from
// the log transport's input side, MicroExit
// through semihosting (halt when no host listens), SysTick/DWT ticks.
#include "micro_runtime/platform.h"

#include "boards/cortex_m/cortex_m.h"

extern "C" uint32_t CortexMTicks(void);
extern "C" uint32_t CortexMTicksPerSecond(void);

extern "C" void DebugLog(const char* s) { CortexMLogWrite(s); }

extern "C" int DebugRead(void) { return CortexMLogRead(); }

// The reset handler already ran BoardInit before main; nothing is left to do
// here, and calling it again must be harmless.
extern "C" void MicroPlatformInit(void) {}

extern "C" void MicroExit(int status) { SemihostingExit(status); }

// The run token block (harness/run_token.py): in .noinit, so start-up never
// zeroes it; the emulator or debugger that loads the ELF writes
// {magic, key0, key1, check} before the core starts (QEMU's -device loader,
// Renode's sysbus writes, pyOCD and GDB memory writes). On a board nobody
// wrote it holds whatever RAM held, which the magic and check words reject.
// Read once, then cleared: a reset without a new token gets none.
#define MICRO_RUN_TOKEN_MAGIC 0x4D54304Bu  // "MT0K"; harness/run_token.py: TOKEN_MAGIC
extern "C" {
volatile uint32_t g_micro_run_token[4] __attribute__((section(".noinit.micro_run_token"), used));
}

// A token that came another way (the UART start handshake, boards/cortex_m/
// handshake.cc): stored as a debugger would have, unless one already was.
// Returns 1 when the block now holds this token.
extern "C" int MicroRunTokenOffer(const uint32_t key[2]) {
  if (g_micro_run_token[0] == MICRO_RUN_TOKEN_MAGIC) {
    return g_micro_run_token[1] == key[0] && g_micro_run_token[2] == key[1] ? 1 : 0;
  }
  g_micro_run_token[1] = key[0];
  g_micro_run_token[2] = key[1];
  g_micro_run_token[3] = ~(MICRO_RUN_TOKEN_MAGIC ^ key[0] ^ key[1]);
  g_micro_run_token[0] = MICRO_RUN_TOKEN_MAGIC;
  return 1;
}

extern "C" int MicroRunToken(uint32_t key[2]) {
  const uint32_t magic = g_micro_run_token[0];
  const uint32_t k0 = g_micro_run_token[1];
  const uint32_t k1 = g_micro_run_token[2];
  const uint32_t check = g_micro_run_token[3];
  g_micro_run_token[0] = 0;
  if (magic != MICRO_RUN_TOKEN_MAGIC || check != ~(magic ^ k0 ^ k1)) return 0;
  key[0] = k0;
  key[1] = k1;
  return 1;
}

extern "C" uint32_t MicroTicks(void) { return CortexMTicks(); }

extern "C" uint32_t MicroTicksPerSecond(void) { return CortexMTicksPerSecond(); }
