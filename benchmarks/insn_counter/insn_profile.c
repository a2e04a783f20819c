/* QEMU TCG plugin: executed-instruction count per guest address, for finding
 * where a model's time goes (benchmarks/profile_target.py).
 *
 *   qemu-system-arm ... -plugin insn_profile.so,out=FILE
 *
 * Every executed guest instruction adds 1 to its own counter (an inline add
 * in the translated code); at exit FILE gets one line "<hex address> <count>"
 * per executed address. The whole run is counted (setup too); the caller maps
 * addresses to functions with the ELF's symbol table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_API_VERSION;

/* Open-addressing table keyed by address; firmware is well under a million
 * instructions, so it never fills. */
#define SLOTS (1u << 20)

struct slot {
  uint64_t addr;
  uint64_t count;
  int used;
};

static struct slot* g_slots;
static FILE* g_out;

static struct slot* lookup(uint64_t addr) {
  uint64_t h = (addr >> 1) * 0x9E3779B97F4A7C15ull;
  for (uint32_t i = (uint32_t)(h >> 44) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
    if (!g_slots[i].used) {
      g_slots[i].used = 1;
      g_slots[i].addr = addr;
      return &g_slots[i];
    }
    if (g_slots[i].addr == addr) return &g_slots[i];
  }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    struct slot* s = lookup(qemu_plugin_insn_vaddr(insn));
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &s->count, 1);
  }
}

static void on_exit_cb(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  for (uint32_t i = 0; i < SLOTS; ++i) {
    if (g_slots[i].used && g_slots[i].count != 0) {
      fprintf(g_out, "%" PRIx64 " %" PRIu64 "\n", g_slots[i].addr, g_slots[i].count);
    }
  }
  fclose(g_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  (void)info;
  const char* out_path = NULL;
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "insn_profile: unknown argument '%s' (out=)\n", argv[i]);
      return -1;
    }
  }
  g_slots = calloc(SLOTS, sizeof(struct slot));
  g_out = out_path != NULL ? fopen(out_path, "w") : NULL;
  if (g_slots == NULL || g_out == NULL) {
    fprintf(stderr, "insn_profile: needs out=FILE (writable)\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
  return 0;
}
