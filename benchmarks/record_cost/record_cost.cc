// What one authenticated micro_test record costs on the target (benchmarks/record_cost_bench.py).
// Between the markers (counted by the QEMU instruction-counting plugin, benchmarks/insn_counter/):
//   0. nothing (the markers' own cost, subtracted);
//   1. an authenticated record as micro_test.h prints it (format, authenticator, DebugLog);
//   2. the same text as a plain line, the way records were printed before (MicroPrintf);
//   3. the authenticator alone over that text.
// Not a test binary: it prints records of its own to be measured, and is never judged.
#include "micro_runtime/micro_log.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/platform.h"

namespace micro_test {
State state = {0, 0, false, 0, {0, 0}, false};
}

extern "C" __attribute__((noinline, used)) void record_bench_begin(void) { __asm__ volatile("" ::: "memory"); }
extern "C" __attribute__((noinline, used)) void record_bench_end(void) { __asm__ volatile("" ::: "memory"); }

volatile uint32_t g_sink;

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  MicroPlatformInit();
  micro_test::Record("START micro_test 2");  // takes the key: not part of what is measured
  record_bench_begin();
  record_bench_end();
  record_bench_begin();
  micro_test::Record("END %s %s", "ConvInt8PerChannelSame", "PASSED");
  record_bench_end();
  record_bench_begin();
  MicroPrintf("~~~MT END %s %s", "ConvInt8PerChannelSame", "PASSED");
  record_bench_end();
  record_bench_begin();
  g_sink = micro_test::RecordMac(micro_test::state.key, 7, "END ConvInt8PerChannelSame PASSED");
  record_bench_end();
  MicroExit(0);
}
