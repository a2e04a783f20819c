// RTT up channel 0 ("Terminal"); see rtt.h.
#include "boards/cortex_m/rtt.h"

#include "boards/cortex_m/handshake.h"

namespace {

char g_up_storage[MICRO_RTT_BUFFER_SIZE];
char g_down_storage[16];
// The host reads in ~10-50 ms polls; this many free-space checks covers several
// polls even on a fast core, yet a detached host cannot hang the firmware.
#ifndef MICRO_RTT_WAIT_SPINS
#define MICRO_RTT_WAIT_SPINS 2000000u
#endif
// MICRO_RTT_BLOCK=1: wait for room even when DHCSR says no debugger (cores or
// emulators that do not report C_DEBUGEN, e.g. QEMU behind its GDB stub).
#ifndef MICRO_RTT_BLOCK
#define MICRO_RTT_BLOCK 0
#endif
constexpr uint32_t kWaitSpinLimit = MICRO_RTT_WAIT_SPINS;

}  // namespace

extern "C" {
MicroRttControlBlock _SEGGER_RTT;
}

extern "C" void MicroRttInit(void) {
  MicroRttControlBlock& cb = _SEGGER_RTT;
  cb.max_up_buffers = 1;
  cb.max_down_buffers = 1;
  cb.up[0].name = "Terminal";
  cb.up[0].buffer = g_up_storage;
  cb.up[0].size = sizeof(g_up_storage);
  cb.up[0].write_offset = 0;
  cb.up[0].read_offset = 0;
  cb.up[0].flags = 0;
  cb.down[0].name = "Terminal";
  cb.down[0].buffer = g_down_storage;
  cb.down[0].size = sizeof(g_down_storage);
  cb.down[0].write_offset = 0;
  cb.down[0].read_offset = 0;
  cb.down[0].flags = 0;
  // The ID goes in last (back to front), after a barrier, so a probe scanning
  // RAM never sees a valid ID in front of an unfinished block.
  __asm__ volatile("dmb" ::: "memory");
  static const char kId[] = "SEGGER RTT";
  for (int i = 15; i >= 0; --i) {
    cb.id[i] = i < static_cast<int>(sizeof(kId)) ? kId[i] : '\0';
  }
  __asm__ volatile("dmb" ::: "memory");
}

extern "C" size_t MicroRttWrite(const char* data, size_t size) {
  MicroRttBuffer& up = _SEGGER_RTT.up[0];
  if (up.buffer == nullptr) MicroRttInit();
  size_t stored = 0;
  uint32_t spins = 0;
  while (stored < size) {
    const uint32_t write = up.write_offset;
    const uint32_t read = up.read_offset;
    // One slot stays empty so that write == read means "empty".
    const uint32_t free_bytes = read > write ? read - write - 1 : up.size - (write - read) - 1;
    if (free_bytes == 0) {
      if ((!MICRO_RTT_BLOCK && !MicroDebuggerAttached()) || ++spins >= kWaitSpinLimit) break;
      continue;
    }
    spins = 0;
    const uint32_t to_end = up.size - write;
    uint32_t chunk = free_bytes < to_end ? free_bytes : to_end;
    if (chunk > size - stored) chunk = static_cast<uint32_t>(size - stored);
    for (uint32_t i = 0; i < chunk; ++i) up.buffer[write + i] = data[stored + i];
    __asm__ volatile("dmb" ::: "memory");  // data before the offset that publishes it
    up.write_offset = (write + chunk) % up.size;
    stored += chunk;
  }
  return stored;
}
