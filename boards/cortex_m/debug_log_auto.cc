// DebugLog port for boards that run both under a debugger and stand-alone:
// semihosting (SYS_WRITE0) while a debugger is attached (DHCSR.C_DEBUGEN),
// the log UART otherwise. A BKPT with no debugger would fault, so the check
// is made on every call: a probe may attach or detach at any time.
#include "boards/cortex_m/handshake.h"
#include "micro_runtime/platform.h"

namespace {

constexpr int kSysWrite0 = 0x04;

void SemihostWrite0(const char* s) {
  register int r0 __asm__("r0") = kSysWrite0;
  register const char* r1 __asm__("r1") = s;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
}

}  // namespace

extern "C" void DebugLog(const char* s) {
  if (MicroDebuggerAttached()) {
    SemihostWrite0(s);
  } else {
    MicroUartWrite(s);
  }
}
