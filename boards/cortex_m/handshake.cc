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

// boards/cortex_m/platform.cc; weak, so a board with a platform port of its own still links (and
// simply takes no token over the UART).
extern "C" int MicroRunTokenOffer(const uint32_t key[2]) __attribute__((weak));

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

// The run token over the UART (harness/run_token.py): the host's pokes are
// lines "MTK<16 hex digits>\n". Reads the first whole one within a bounded
// window and puts it where MicroRunToken finds it (the token block of
// boards/cortex_m/platform.cc), unless a debugger already wrote one there.
constexpr int kTokenLine = 19;  // "MTK" + 16 hex digits

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool TakeRunToken() {
  char line[kTokenLine];
  int have = 0;
  const uint32_t start = MicroTicks();
  const uint32_t limit = MicroTicksPerSecond() / 1000u * MICRO_START_HANDSHAKE_MS;
  for (uint32_t polls = 0; polls < 4000000u; ++polls) {
    const int c = MicroUartTryRead();
    if (c < 0) {
      if (MicroTicks() - start >= limit) return false;
      continue;
    }
    if (c == 'M') have = 0;  // a line starts (an earlier poke may have been cut)
    if (have < kTokenLine) line[have++] = static_cast<char>(c);
    if (have < kTokenLine || line[0] != 'M' || line[1] != 'T' || line[2] != 'K') continue;
    uint32_t key[2] = {0, 0};
    bool hex = true;
    for (int i = 0; i < 16 && hex; ++i) {
      const int digit = HexDigit(line[3 + i]);
      hex = digit >= 0;
      key[i / 8] = (key[i / 8] << 4) | static_cast<uint32_t>(digit & 15);
    }
    if (!hex) {
      have = 0;
      continue;
    }
    return MicroRunTokenOffer != nullptr && MicroRunTokenOffer(key) != 0;
  }
  return false;
}

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
  const bool token = got != 0 && TakeRunToken();
  // Drop the extra pokes that arrived while we were busy.
  for (int i = 0; i < 64 && MicroUartTryRead() >= 0; ++i) {
  }
  DebugLog(token ? MICRO_START_MARKER " token\n" : MICRO_START_MARKER "\n");
  return got;
}
