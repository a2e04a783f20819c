// MCU boards only (on the host the case does nothing): the second case resets the chip (SCB AIRCR
// SYSRESETREQ) once; a marker in .noinit RAM (kept across the reset) makes the restarted firmware
// run through. The restarted firmware prints its records from sequence 0 again (the emulator writes
// the same run token at the reset): a repeated record, so the run must fail, and the case that was
// running when the chip reset must not pass.
#include "micro_runtime/micro_test.h"

#if defined(__arm__)
namespace {
constexpr uint32_t kResetDone = 0x52534554u;  // "RSET"
volatile uint32_t g_reset_marker __attribute__((section(".noinit.fault_matrix_reset")));
volatile int g_spin = 1;
}  // namespace
#endif

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Before) {}

TF_LITE_MICRO_TEST(Resets) {
#if defined(__arm__)
  if (g_reset_marker != kResetDone) {
    g_reset_marker = kResetDone;
    *reinterpret_cast<volatile uint32_t*>(0xE000ED0Cu) = 0x05FA0004u;  // AIRCR: VECTKEY | SYSRESETREQ
    __asm__ volatile("dsb" ::: "memory");
    while (g_spin) {
    }
  }
  g_reset_marker = 0;
#endif
}

TF_LITE_MICRO_TEST(After) {}

TF_LITE_MICRO_TESTS_END
