// Minimal STM32F1 (bluepill / QEMU stm32vldiscovery) platform for the HIL
// tests, so they exercise the firmware side of the HIL helpers
// (boards/cortex_m/handshake.cc, debug_log_auto.cc, rtt*.cc) without
// depending on a full board port. Log transport chosen at build time:
//   HIL_LOG_SEMIHOST  semihosting SYS_WRITE0 (needs a debugger / semihost server)
//   HIL_LOG_UART      USART2 (0x40004400)
//   otherwise         the DebugLog of the linked port (debug_log_auto / rtt_debug_log)
#include <stdint.h>

#include "boards/cortex_m/handshake.h"
#include "micro_runtime/platform.h"

extern "C" int main(int argc, char** argv);
extern "C" void Reset_Handler(void);
extern "C" void HardFault_Handler(void);
extern "C" void SysTick_Handler(void);
extern "C" void Default_Handler(void);

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;

namespace {

volatile uint32_t g_ms = 0;
volatile uint32_t& Reg(uint32_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

[[maybe_unused]] int Semihost(int op, const void* arg) {
  register int r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void Hex8(char* out, uint32_t v) {
  for (int i = 7; i >= 0; --i, v >>= 4) out[i] = "0123456789abcdef"[v & 0xFu];
}

}  // namespace

__attribute__((section(".isr_vector"), used)) void (*const g_pfnVectors[])(void) = {
    reinterpret_cast<void (*)(void)>(&_estack), Reset_Handler, Default_Handler, HardFault_Handler,
    HardFault_Handler, HardFault_Handler, HardFault_Handler, nullptr, nullptr, nullptr, nullptr,
    Default_Handler, Default_Handler, nullptr, Default_Handler, SysTick_Handler,
};

extern "C" void Reset_Handler(void) {
  for (uint32_t *src = &_sidata, *dst = &_sdata; dst < &_edata;) *dst++ = *src++;
  for (uint32_t* dst = &_sbss; dst < &_ebss;) *dst++ = 0;
  main(0, nullptr);
  for (;;) {
  }
}

extern "C" void Default_Handler(void) {
  for (;;) {
  }
}

extern "C" void SysTick_Handler(void) { g_ms = g_ms + 1; }

extern "C" void HardFault_Handler(void) {
  // One line in the harness's HardFault format; registers from the stacked frame.
  const uint32_t* frame;
  __asm__ volatile("mrs %0, msp" : "=r"(frame));
  char line[] =
      "*** HardFault: PC=0x________ LR=0x________ xPSR=0x________ CFSR=0x________ HFSR=0x________ "
      "MMFAR=0x________ BFAR=0x________\n";
  const uint32_t values[] = {frame[6], frame[5], frame[7], Reg(0xE000ED28), Reg(0xE000ED2C), Reg(0xE000ED34),
                             Reg(0xE000ED38)};
  char* p = line;
  for (uint32_t value : values) {
    while (!(p[0] == '0' && p[1] == 'x')) ++p;
    Hex8(p + 2, value);
    p += 10;
  }
  DebugLog(line);
  MicroExit(3);
}

#if defined(HIL_LOG_SEMIHOST) || defined(HIL_LOG_UART)
extern "C" void DebugLog(const char* s) {
#ifdef HIL_LOG_SEMIHOST
  Semihost(0x04, s);  // SYS_WRITE0
#else
  MicroUartWrite(s);
#endif
}
#endif

extern "C" void MicroPlatformInit(void) {
  Reg(0x4002101C) = Reg(0x4002101C) | (1u << 17);           // RCC_APB1ENR: USART2 clock
  Reg(0x40021018) = Reg(0x40021018) | (1u << 2);            // RCC_APB2ENR: GPIOA clock
  Reg(0x40010800) = (Reg(0x40010800) & ~0xF00u) | 0xB00u;  // PA2: alternate push-pull output
  Reg(0x40004408) = 8000000u / 115200u;                     // BRR for the 8 MHz reset clock
  Reg(0x4000440C) = (1u << 13) | (1u << 3) | (1u << 2);     // UE | TE | RE
  Reg(0xE000E014) = 8000u - 1u;                             // SysTick: 1 ms at 8 MHz
  Reg(0xE000E018) = 0;
  Reg(0xE000E010) = 7;  // enable, interrupt, processor clock
  MicroStartHandshake();
}

extern "C" void MicroExit(int status) {
#ifndef HIL_LOG_UART
  // Semihosting exit only where a BKPT is serviced: always in the semihosting
  // builds, else only with a debugger attached (a BKPT would fault otherwise).
#if defined(HIL_LOG_SEMIHOST) || defined(HIL_EXIT_SEMIHOST)
  const bool semihosting = true;
#else
  const bool semihosting = MicroDebuggerAttached() != 0;
#endif
  if (semihosting) {
    const uint32_t block[2] = {0x20026u, static_cast<uint32_t>(status)};  // ADP_Stopped_ApplicationExit
    Semihost(0x20, block);  // SYS_EXIT_EXTENDED
  }
#endif
  (void)status;
  for (;;) {
    __asm__ volatile("wfi");
  }
}

// The run token block, as a board port has it (boards/cortex_m/platform.cc; harness/run_token.py): in
// .noinit (hil.ld), so Reset_Handler never zeroes it; a runner that loads the ELF through a debugger or an
// emulator may write {magic, key0, key1, check} there before the core starts. Nobody wrote it: no token,
// and micro_test.h signs its records with key 0 (the harness reads them as unauthenticated).
extern "C" {
volatile uint32_t g_micro_run_token[4] __attribute__((section(".noinit.micro_run_token"), used));
}

extern "C" int MicroRunToken(uint32_t key[2]) {
  const uint32_t magic = g_micro_run_token[0];
  const uint32_t key0 = g_micro_run_token[1];
  const uint32_t key1 = g_micro_run_token[2];
  const uint32_t check = g_micro_run_token[3];
  g_micro_run_token[0] = 0;  // read once: a reset without a new token gets none
  if (magic != 0x4D54304Bu || check != ~(magic ^ key0 ^ key1)) return 0;  // harness/run_token.py: TOKEN_MAGIC
  key[0] = key0;
  key[1] = key1;
  return 1;
}

extern "C" uint32_t MicroTicks(void) { return g_ms; }
extern "C" uint32_t MicroTicksPerSecond(void) { return 1000u; }
