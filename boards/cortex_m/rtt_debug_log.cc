// DebugLog port over RTT up channel 0: for boards whose log transport is
// "rtt" (board.toml [log] transports). Fast, and needs no UART wiring.
#include "boards/cortex_m/rtt.h"
#include "micro_runtime/platform.h"

extern "C" void DebugLog(const char* s) {
  size_t length = 0;
  while (s[length] != '\0') ++length;
  MicroRttWrite(s, length);
}
