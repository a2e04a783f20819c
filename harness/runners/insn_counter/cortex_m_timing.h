/* Estimated cycles of Thumb-2 code on a Cortex-M3, M4 or M33 with the board's memory system.
 *
 * An estimate, not a measurement: the per-instruction cycles of the Cortex-M3/M4 Technical Reference
 * Manuals' instruction set summaries (ARM DDI 0337 table 3-1, DDI 0439 table 3-1, and the M4 FPU table),
 * their load/store pipelining rules, a branch refill charged when a branch is taken, and a small model of
 * the flash interface the board file declares (wait states, sequential prefetch, an ART-style instruction
 * and data cache). Every assumption is listed in docs/measurement.md, and cortex_m_timing_test.py checks
 * the model on sequences whose cycle counts the manuals state.
 *
 * No QEMU here: the plugin (insn_counter.c) decodes each translated block once (ctm_block_new) and tells
 * the model each time a block executes (ctm_block_run) and each load it makes (ctm_load); the unit tests
 * drive the same functions with hand-made traces. */
#ifndef HARNESS_RUNNERS_INSN_COUNTER_CORTEX_M_TIMING_H_
#define HARNESS_RUNNERS_INSN_COUNTER_CORTEX_M_TIMING_H_

#include <stddef.h>
#include <stdint.h>

enum ctm_core { CTM_M3 = 3, CTM_M4 = 4, CTM_M33 = 33 };

/* What a block's last instruction does to the flow: nothing, maybe branch, always branch. */
enum ctm_transfer { CTM_FLOW_ON = 0, CTM_FLOW_COND = 1, CTM_FLOW_ALWAYS = 2 };

#define CTM_MAX_CACHE_LINES 256
#define CTM_SP_BIT (1u << 13) /* struct ctm_insn address/writes: the register bit of SP */

struct ctm_config {
  enum ctm_core core;
  uint32_t wait_states;   /* flash wait states at the estimate's clock; 0: every memory is zero-wait */
  uint32_t line_bytes;    /* bytes one flash read delivers (power of two) */
  int prefetch;           /* the next sequential line is read while the current one executes */
  uint32_t icache_lines;  /* instruction cache lines (ART), 0: none */
  uint32_t dcache_lines;  /* data cache lines for loads from flash, 0: none */
  uint32_t flash_low;     /* [flash_low, flash_high): the memory the wait states apply to */
  uint32_t flash_high;
};

struct ctm_segment {
  uint32_t line;    /* flash line number (address / line_bytes) */
  uint32_t cycles;  /* core cycles of the block's instructions that start in this line */
};

struct ctm_block {
  uint32_t start;          /* address of the first instruction */
  uint32_t end;            /* address after the last one: the fall-through */
  uint32_t cycles;         /* core cycles of all instructions, branch refills not included */
  uint32_t insns;
  uint8_t transfer;        /* enum ctm_transfer of the last instruction */
  uint8_t first_wide;      /* the first instruction is 32-bit (a misaligned one costs a refill cycle) */
  uint16_t segments;       /* entries in segment[], 0 when the block is not in flash or flash has no waits */
  uint8_t* insn_cycles;    /* per instruction, in order: its share of `cycles` (for split mode) */
  struct ctm_segment segment[];
};

struct ctm_cache {
  uint32_t lines;
  uint32_t tag[CTM_MAX_CACHE_LINES];
  uint64_t used[CTM_MAX_CACHE_LINES]; /* 0: empty; else the access stamp (LRU) */
  uint64_t stamp;
};

struct ctm_model {
  struct ctm_config config;
  /* Split mode (QEMU under -icount, whose I/O recompilation can cut a block short): the caller adds each
   * instruction's insn_cycles as it executes and calls ctm_block_done when a block's last instruction ran;
   * ctm_block_run then adds only the refill and the memory waits, and charges a refill only after a block
   * that completed. */
  int split;
  uint64_t cycles;                /* estimated cycles so far */
  const struct ctm_block* prev;   /* the block that ran last (NULL at start) */
  uint32_t fetch_line;            /* line in the fetch buffer, UINT32_MAX: none */
  uint64_t prefetch_ready;        /* cycle at which fetch_line + 1 has arrived */
  struct ctm_cache icache;
  struct ctm_cache dcache;
};

/* Cycles of one decoded instruction class, for tests and the block builder. */
struct ctm_insn {
  uint8_t size;        /* 2 or 4 */
  uint8_t kind;        /* enum in cortex_m_timing.c */
  uint8_t cycles;      /* base cycles on the configured core, zero-wait memory, no pipelining */
  uint8_t transfer;    /* enum ctm_transfer */
  uint8_t writeback;   /* load/store with base update */
  uint8_t load_dest;   /* single load: register loaded (16: none) */
  uint8_t store;       /* writes memory (STR*, STRD, STM, PUSH, VSTR, VSTM, VPUSH) */
  uint16_t writes;     /* registers a data-processing instruction writes (bit per register) */
  uint16_t address;    /* registers a load/store's address is computed from */
};

/* What an instruction does to SP and the stack, for the stack peak (insn_counter.c): `delta` is the change of
 * SP it makes when `known`; `stores` says it writes through SP, its lowest address being SP (before the
 * instruction) + `lowest`. */
struct ctm_sp {
  int known;    /* 1: SP changes by `delta` (often 0); 0: SP changes by an amount only known at run time */
  int32_t delta;
  int stores;
  int32_t lowest;
};

/* The SP effect of the instruction at p (at least 4 readable bytes if it is 32-bit). Returns its size. */
unsigned ctm_sp_effect(const uint8_t* p, struct ctm_sp* out);

/* 0 on success, else the configuration is refused (message in *why). */
int ctm_init(struct ctm_model* model, const struct ctm_config* config, const char** why);

/* Decodes the instruction at p (at least 2 bytes, 4 if it is 32-bit). Returns its size. */
unsigned ctm_decode(const struct ctm_model* model, const uint8_t* p, struct ctm_insn* out);

/* A block of `n_bytes` of contiguous instructions at `address`; static costs computed once. Free with free(). */
struct ctm_block* ctm_block_new(const struct ctm_model* model, uint32_t address, const uint8_t* bytes,
                                size_t n_bytes);

/* The block starts executing: its cycles, the refill of a branch taken into it, instruction fetch waits. */
void ctm_block_run(struct ctm_model* model, const struct ctm_block* block);

/* Split mode: the block's last instruction executed (the block completed). */
void ctm_block_done(struct ctm_model* model, const struct ctm_block* block);

/* A data load from `address` (only flash loads can wait). */
void ctm_load(struct ctm_model* model, uint32_t address);

#endif /* HARNESS_RUNNERS_INSN_COUNTER_CORTEX_M_TIMING_H_ */
