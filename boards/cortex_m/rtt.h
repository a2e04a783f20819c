// A minimal SEGGER-RTT-compatible up channel: a control block in RAM that a
// debug probe (pyOCD, J-Link, OpenOCD) finds by its ID and drains while the
// core runs. Layout follows the published RTT control block format.
#ifndef BOARDS_CORTEX_M_RTT_H_
#define BOARDS_CORTEX_M_RTT_H_

#include <stddef.h>
#include <stdint.h>

#ifndef MICRO_RTT_BUFFER_SIZE
#define MICRO_RTT_BUFFER_SIZE 1024
#endif

#ifdef __cplusplus
extern "C" {
#endif

// typedef'd so the C board code (log.c) can use the header too.
typedef struct MicroRttBuffer {
  const char* name;
  char* buffer;
  uint32_t size;
  volatile uint32_t write_offset;  // advanced by the target
  volatile uint32_t read_offset;   // advanced by the host
  uint32_t flags;
} MicroRttBuffer;

typedef struct MicroRttControlBlock {
  char id[16];  // "SEGGER RTT", written last at init so a half-built block is never found
  int32_t max_up_buffers;
  int32_t max_down_buffers;
  MicroRttBuffer up[1];
  MicroRttBuffer down[1];
} MicroRttControlBlock;

// The symbol name the probes (and the harness) look for.
extern MicroRttControlBlock _SEGGER_RTT;

void MicroRttInit(void);
// Writes `size` bytes to up channel 0. With a debugger attached, waits
// (bounded) for the host to make room; without one, drops what does not fit.
// Returns the number of bytes stored.
size_t MicroRttWrite(const char* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif  // BOARDS_CORTEX_M_RTT_H_
