/* QEMU TCG plugin: counts the guest instructions executed between two marker
 * addresses: per micro test case for the harness (harness/runners/insn_count.py:
 * micro_test_case_start/_stop) and around Invoke() for the on-target benchmark
 * (benchmarks/target_bench.py: model_runner_invoke_begin/_end).
 *
 *   qemu-system-arm ... -plugin insn_counter.so,begin=0xADDR,end=0xADDR,out=FILE[,skip=0xLO-0xHI]...
 *
 * Every executed translation block adds its number of instructions to a
 * counter (an inline add QEMU compiles into the translated code, after the
 * block's interrupt check, so a block left for an interrupt before it runs
 * adds nothing). A block is left part-way only by a synchronous exception (a
 * fault: its case never ends, so it has no count) or, under -icount, by QEMU's
 * I/O recompilation: then pass per_insn=1, one add per instruction, exact in
 * every case and a little slower. Each time the
 * instruction at `begin` executes, the counter is noted; each time the one at
 * `end` executes, one line "<instructions since begin>\n" is appended to FILE
 * and flushed at once (the firmware may end QEMU with a semihosting exit).
 * Instructions in a `skip` range [LO, HI) (up to 16: the exception handlers)
 * are not counted, so an interrupt whose timing follows the host's clock does
 * not change a count. The count includes the few instructions of the marker
 * calls themselves (the benchmark subtracts an empty begin/end pair).
 * Thumb code: give the functions' addresses with bit 0 cleared.
 *
 * With core=m3|m4|m33 the plugin also estimates cycles (cortex_m_timing.h): each line is then
 * "<instructions> <estimated cycles>". The memory system: ws=N flash wait states, flash=0xLO-0xHI the flash
 * range they apply to, line=BYTES per flash read, prefetch=1, icache=LINES, dcache=LINES (ART-style caches);
 * without ws every memory is zero-wait and only the core's timing counts. Blocks whose first instruction is
 * in a skip range add no cycles either.
 *
 * With stack=0xTOP (the initial stack pointer) each line also gets "stack=<bytes>": the deepest the stack went
 * during the case, TOP minus the lowest address a store through SP wrote (PUSH, STR/STRD/STM/VSTR/VPUSH with
 * SP as base). The processor's own exception stacking and the skipped handlers are not seen, so an interrupt
 * does not change the figure. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cortex_m_timing.c"
#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_API_VERSION;

static uint64_t g_executed;
static uint64_t g_at_begin;
static uint64_t g_begin_addr = UINT64_MAX;
static uint64_t g_end_addr = UINT64_MAX;
static FILE* g_out;
#define MAX_SKIPS 16
static uint64_t g_skip_low[MAX_SKIPS];
static uint64_t g_skip_high[MAX_SKIPS];
static int g_skips;
/* 1: one add per instruction (exact even when a block is left early, e.g. QEMU's
 * I/O recompilation under -icount); 0: one add per block, cheaper. */
static int g_per_insn;
/* Cycle estimate: on when a core is given. */
static int g_timing;
static struct ctm_model g_model;
static uint64_t g_cycles_at_begin;
/* Stack peak: the lowest address an SP-based store wrote since the case began (UINT64_MAX: none). */
static uint64_t g_stack_top;
static uint64_t g_stack_low = UINT64_MAX;

static int skipped(uint64_t vaddr) {
  for (int i = 0; i < g_skips; ++i) {
    if (vaddr >= g_skip_low[i] && vaddr < g_skip_high[i]) {
      return 1;
    }
  }
  return 0;
}

static void on_begin(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  g_at_begin = g_executed;
  g_cycles_at_begin = g_model.cycles;
  g_stack_low = UINT64_MAX;
}

static void on_end(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  fprintf(g_out, "%" PRIu64, g_executed - g_at_begin);
  if (g_timing) {
    fprintf(g_out, " cycles=%" PRIu64, g_model.cycles - g_cycles_at_begin);
  }
  if (g_stack_top != 0) {
    fprintf(g_out, " stack=%" PRIu64, g_stack_low < g_stack_top ? g_stack_top - g_stack_low : 0);
  }
  fputc('\n', g_out);
  fflush(g_out);
}

static void on_store(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  if (qemu_plugin_mem_is_store(info) && vaddr < g_stack_low) {
    g_stack_low = vaddr;
  }
}

static void on_block(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  ctm_block_run(&g_model, (const struct ctm_block*)userdata);
}

static void on_block_done(unsigned int vcpu_index, void* userdata) {
  (void)vcpu_index;
  ctm_block_done(&g_model, (const struct ctm_block*)userdata);
}

static void on_load(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void* userdata) {
  (void)vcpu_index;
  (void)userdata;
  if (!qemu_plugin_mem_is_store(info)) {
    ctm_load(&g_model, (uint32_t)vaddr);
  }
}

/* The stack peak: of each run of a block's instructions over which SP moves by amounts known from their
 * encodings, only the store through SP with the lowest address (SP's change so far + the store's own lowest
 * offset) is watched: the deepest the stack goes there, one callback per run instead of one per push. A
 * change of SP by a run-time amount (MOV SP, Rm) starts a new run. Exception handlers are not watched. */
static void watch_stack(struct qemu_plugin_tb* tb, size_t n) {
  struct qemu_plugin_insn* deepest = NULL;
  int32_t deepest_at = 0;
  int32_t delta = 0;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    uint8_t bytes[4] = {0, 0, 0, 0};
    const size_t size = qemu_plugin_insn_size(insn);
    memcpy(bytes, qemu_plugin_insn_data(insn), size < 4 ? size : 4);
    if (skipped(qemu_plugin_insn_vaddr(insn))) {
      continue;
    }
    struct ctm_sp effect;
    ctm_sp_effect(bytes, &effect);
    if (effect.stores && (deepest == NULL || delta + effect.lowest < deepest_at)) {
      deepest = insn;
      deepest_at = delta + effect.lowest;
    }
    if (!effect.known) { /* SP by a run-time amount: what follows is another run */
      if (deepest != NULL) {
        qemu_plugin_register_vcpu_mem_cb(deepest, on_store, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
      }
      deepest = NULL;
      delta = 0;
      continue;
    }
    delta += effect.delta;
  }
  if (deepest != NULL) {
    qemu_plugin_register_vcpu_mem_cb(deepest, on_store, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
  }
}

/* The block's instructions handed to the timing model once, at translation. */
static void time_block(struct qemu_plugin_tb* tb, size_t n) {
  uint8_t bytes[4 * 512];
  size_t length = 0;
  uint64_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    /* The instruction's own bytes: QEMU's data for an instruction can carry a halfword more than its
     * encoding (the Thumb translator peeks at the next halfword), so the length comes from the encoding. */
    const uint8_t* data = qemu_plugin_insn_data(insn);
    const size_t available = qemu_plugin_insn_size(insn);
    const unsigned first = (unsigned)data[0] | ((unsigned)data[1] << 8);
    const size_t size = (available >= 4 && (first >> 11) >= 0x1Du) ? 4 : 2;
    if (i == 0) {
      start = qemu_plugin_insn_vaddr(insn);
    }
    if (length + size > sizeof(bytes) || qemu_plugin_insn_vaddr(insn) != start + length) {
      break;
    }
    memcpy(bytes + length, data, size);
    length += size;
    if (g_model.config.wait_states != 0) {
      qemu_plugin_register_vcpu_mem_cb(insn, on_load, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
  }
  if (n == 0 || skipped(start)) {
    return;
  }
  struct ctm_block* block = ctm_block_new(&g_model, (uint32_t)start, bytes, length);
  if (block == NULL) {
    return;
  }
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, block);
  if (g_model.split) { /* each instruction adds its own cycles as it runs; the block is done at its last */
    if (block->insns != n) { /* the decode did not meet QEMU's instructions: no per-instruction adds */
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
      if (block->insn_cycles[i] != 0) {
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_model.cycles,
                                                   block->insn_cycles[i]);
      }
    }
    qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, n - 1), on_block_done,
                                           QEMU_PLUGIN_CB_NO_REGS, block);
  }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  uint64_t counted = 0;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
    /* The markers' callbacks run after the block's add (per block) or before
     * the instruction's own add (per instruction): either way the same fixed
     * offset is in every count, and both give the same numbers (a marker is
     * the first instruction of its block: a function's entry). */
    if (vaddr == g_begin_addr) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
    } else if (vaddr == g_end_addr) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
    if (skipped(vaddr)) {
      continue;
    }
    if (g_per_insn) {
      qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_executed, 1);
    } else {
      ++counted;
    }
  }
  if (!g_per_insn && counted != 0) {
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &g_executed, counted);
  }
  if (g_timing) {
    time_block(tb, n);
  }
  if (g_stack_top != 0) {
    watch_stack(tb, n);
  }
}

static void on_exit_cb(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  fprintf(g_out, "total %" PRIu64, g_executed);
  if (g_timing) {
    fprintf(g_out, " cycles=%" PRIu64, g_model.cycles);
  }
  fputc('\n', g_out);
  fflush(g_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  (void)info;
  const char* out_path = NULL;
  struct ctm_config timing = {.core = CTM_M4, .line_bytes = 16};
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "begin=", 6) == 0) {
      g_begin_addr = strtoull(argv[i] + 6, NULL, 0);
    } else if (strncmp(argv[i], "end=", 4) == 0) {
      g_end_addr = strtoull(argv[i] + 4, NULL, 0);
    } else if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else if (strcmp(argv[i], "per_insn=1") == 0) {
      g_per_insn = 1;
    } else if (strncmp(argv[i], "skip=", 5) == 0 && g_skips < MAX_SKIPS) {
      char* rest = NULL;
      g_skip_low[g_skips] = strtoull(argv[i] + 5, &rest, 0);
      if (rest == NULL || *rest != '-') {
        fprintf(stderr, "insn_counter: skip=LOW-HIGH, not '%s'\n", argv[i]);
        return -1;
      }
      g_skip_high[g_skips] = strtoull(rest + 1, NULL, 0);
      ++g_skips;
    } else if (strncmp(argv[i], "core=", 5) == 0) {
      const char* core = argv[i] + 5;
      g_timing = 1;
      if (strcmp(core, "m3") == 0) {
        timing.core = CTM_M3;
      } else if (strcmp(core, "m4") == 0) {
        timing.core = CTM_M4;
      } else if (strcmp(core, "m33") == 0) {
        timing.core = CTM_M33;
      } else {
        fprintf(stderr, "insn_counter: core=m3|m4|m33, not '%s'\n", core);
        return -1;
      }
    } else if (strncmp(argv[i], "stack=", 6) == 0) {
      g_stack_top = strtoull(argv[i] + 6, NULL, 0);
    } else if (strncmp(argv[i], "ws=", 3) == 0) {
      timing.wait_states = (uint32_t)strtoul(argv[i] + 3, NULL, 0);
    } else if (strncmp(argv[i], "line=", 5) == 0) {
      timing.line_bytes = (uint32_t)strtoul(argv[i] + 5, NULL, 0);
    } else if (strcmp(argv[i], "prefetch=1") == 0) {
      timing.prefetch = 1;
    } else if (strncmp(argv[i], "icache=", 7) == 0) {
      timing.icache_lines = (uint32_t)strtoul(argv[i] + 7, NULL, 0);
    } else if (strncmp(argv[i], "dcache=", 7) == 0) {
      timing.dcache_lines = (uint32_t)strtoul(argv[i] + 7, NULL, 0);
    } else if (strncmp(argv[i], "flash=", 6) == 0) {
      char* rest = NULL;
      timing.flash_low = (uint32_t)strtoul(argv[i] + 6, &rest, 0);
      if (rest == NULL || *rest != '-') {
        fprintf(stderr, "insn_counter: flash=LOW-HIGH, not '%s'\n", argv[i]);
        return -1;
      }
      timing.flash_high = (uint32_t)strtoul(rest + 1, NULL, 0);
    } else {
      fprintf(stderr,
              "insn_counter: unknown argument '%s' (begin=, end=, out=, skip=, per_insn=1, core=, ws=, line=, "
              "prefetch=1, icache=, dcache=, flash=, stack=)\n",
              argv[i]);
      return -1;
    }
  }
  if (g_begin_addr == UINT64_MAX || g_end_addr == UINT64_MAX || out_path == NULL) {
    fprintf(stderr, "insn_counter: needs begin=ADDR,end=ADDR,out=FILE\n");
    return -1;
  }
  if (!g_timing) {
    g_model.config.core = CTM_M4; /* the decoder (stack watch) needs only a core to decode for */
  }
  if (g_timing) {
    const char* why = NULL;
    if (ctm_init(&g_model, &timing, &why) != 0) {
      fprintf(stderr, "insn_counter: %s\n", why);
      return -1;
    }
    g_model.split = g_per_insn; /* under -icount a block may be cut short: cycles per instruction */
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
