/* QEMU TCG plugin: counts the guest instructions executed between two marker
 * addresses, for the on-target benchmark (benchmarks/target_bench.py).
 *
 *   qemu-system-arm ... -plugin insn_counter.so,begin=0xADDR,end=0xADDR,out=FILE
 *
 * Every executed guest instruction adds 1 to a counter (an inline add QEMU
 * compiles into the translated code, so the count is exact per instruction,
 * also when an exception leaves a translation block early). Each time the
 * instruction at `begin` executes, the counter is noted; each time the one at
 * `end` executes, one line "<instructions since begin>\n" is appended to FILE
 * and flushed at once (the firmware may end QEMU with a semihosting exit).
 * The firmware puts begin/end around Invoke() (micro_runtime/model_runner/
 * model_runner.cc: model_runner_invoke_begin/_end). The count includes the
 * few instructions of the marker calls themselves; the firmware runs one
 * empty begin/end pair first, whose count the benchmark subtracts.
 * Thumb code: give the functions' addresses with bit 0 cleared. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_API_VERSION;

static uint64_t g_executed;
static uint64_t g_at_begin;
static uint64_t g_begin_addr = UINT64_MAX;
static uint64_t g_end_addr = UINT64_MAX;
static FILE* g_out;

static void on_begin(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  g_at_begin = g_executed;
}

static void on_end(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  fprintf(g_out, "%" PRIu64 "\n", g_executed - g_at_begin);
  fflush(g_out);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
    /* The markers' callbacks run before the instruction's own add, so the
     * same fixed offset is in every count (removed by the calibration). */
    if (vaddr == g_begin_addr) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
    } else if (vaddr == g_end_addr) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_executed, 1);
  }
}

static void on_exit_cb(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  fprintf(g_out, "total %" PRIu64 "\n", g_executed);
  fflush(g_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  (void)info;
  const char* out_path = NULL;
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "begin=", 6) == 0) {
      g_begin_addr = strtoull(argv[i] + 6, NULL, 0);
    } else if (strncmp(argv[i], "end=", 4) == 0) {
      g_end_addr = strtoull(argv[i] + 4, NULL, 0);
    } else if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "insn_counter: unknown argument '%s' (begin=, end=, out=)\n", argv[i]);
      return -1;
    }
  }
  if (g_begin_addr == UINT64_MAX || g_end_addr == UINT64_MAX || out_path == NULL) {
    fprintf(stderr, "insn_counter: needs begin=ADDR,end=ADDR,out=FILE\n");
    return -1;
  }
  g_out = fopen(out_path, "w");
  if (g_out == NULL) {
    fprintf(stderr, "insn_counter: cannot write %s\n", out_path);
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
  return 0;
}
