// Start handshake over the log UART, debugger detection and polled UART I/O
// for STM32F1-style USARTs (SR at +0x00: RXNE bit 5, TXE bit 7; DR at +0x04;
// CR1 at +0x0C: UE bit 13, TE bit 3, RE bit 2).
//
// Why a handshake: after a reset, a USB serial adapter or the board's own USB
// CDC port may re-enumerate, and whatever the firmware prints in the
// meantime is lost. The host keeps sending a byte until it sees the start
// marker; the firmware waits for that byte (bounded) before running tests.
#include "boards/cortex_m/handshake.h"

#include "micro_runtime/platform.h"

// The log UART: the board's (board_config.h from [log] uart_base) when built
// by the repo's Make, else USART2 (PA2 = TX, PA3 = RX on the bluepill).
#if __has_include("board_config.h")
#include "board_config.h"
#endif
#ifndef MICRO_UART_BASE
#ifdef BOARD_UART_BASE
#define MICRO_UART_BASE BOARD_UART_BASE
#else
#define MICRO_UART_BASE 0x40004400u
#endif
#endif
#ifndef MICRO_START_HANDSHAKE
#define MICRO_START_HANDSHAKE 0
#endif
#ifndef MICRO_START_HANDSHAKE_MS
#define MICRO_START_HANDSHAKE_MS 2000
#endif

namespace {

constexpr uint32_t kSr = 0x00;
constexpr uint32_t kDr = 0x04;
constexpr uint32_t kCr1 = 0x0C;
constexpr uint32_t kRxne = 1u << 5;
constexpr uint32_t kTxe = 1u << 7;
constexpr uint32_t kCr1Enable = (1u << 13) | (1u << 3) | (1u << 2);  // UE | TE | RE
// A full byte at 9600 baud is ~1 ms; this many status polls is far more than
// that on any clock, and bounds the wait if the UART is not clocked at all.
constexpr uint32_t kTxSpinLimit = 100000;
constexpr uint32_t kDhcsr = 0xE000EDF0u;
constexpr uint32_t kCDebugEn = 1u << 0;

volatile uint32_t& Reg(uint32_t offset) { return *reinterpret_cast<volatile uint32_t*>(MICRO_UART_BASE + offset); }

}  // namespace

extern "C" int MicroDebuggerAttached(void) {
  return (*reinterpret_cast<volatile uint32_t*>(kDhcsr) & kCDebugEn) != 0 ? 1 : 0;
}

extern "C" void MicroUartWrite(const char* s) {
  for (; *s != '\0'; ++s) {
    for (uint32_t spin = 0; spin < kTxSpinLimit && (Reg(kSr) & kTxe) == 0; ++spin) {
    }
    Reg(kDr) = static_cast<uint8_t>(*s);
  }
}

extern "C" int MicroUartTryRead(void) {
  if ((Reg(kSr) & kRxne) == 0) return -1;
  return static_cast<int>(Reg(kDr) & 0xFFu);
}

extern "C" int MicroStartHandshake(void) {
#if MICRO_START_HANDSHAKE
  return MicroStartHandshakeNow();
#else
  return 0;
#endif
}

extern "C" int MicroStartHandshakeNow(void) {
  // Once per boot: MicroPlatformInit may be called more than once.
  static bool done = false;
  if (done) return 0;
  done = true;
  // The board's init enabled TX; reception must be on too (harmless if it is).
  Reg(kCr1) = Reg(kCr1) | kCr1Enable;
  const uint32_t start = MicroTicks();
  const uint32_t limit = MicroTicksPerSecond() / 1000u * MICRO_START_HANDSHAKE_MS;
  int got = 0;
  // Bounded by the tick counter; if the counter does not move at all (not
  // started, or an emulator without it), by the number of polls.
  for (uint32_t polls = 0;; ++polls) {
    if (MicroUartTryRead() >= 0) {
      got = 1;
      break;
    }
    const uint32_t now = MicroTicks();
    if (now - start >= limit) break;
    if (polls >= 4000000u && now == start) break;
  }
  // Drop the extra pokes that arrived while we were busy.
  for (int i = 0; i < 64 && MicroUartTryRead() >= 0; ++i) {
  }
  DebugLog(MICRO_START_MARKER "\n");
  return got;
}
