/* Estimated cycles of Thumb-2 code on Cortex-M3/M4/M33 (see cortex_m_timing.h and docs/measurement.md).
 *
 * Sources of the figures (facts, restated here in our own tables):
 *  - Cortex-M3 TRM (ARM DDI 0337) and Cortex-M4 TRM (ARM DDI 0439), "Processor instruction set summary",
 *    table 3-1: data processing 1; MUL 1; MLA/MLS 2 on M3, 1 on M4; long multiplies 3-5 / 4-7 on M3, 1 on
 *    M4; SDIV/UDIV 2-12; LDR 2; STR 2; LDRD/STRD 1+N; LDM/STM/PUSH/POP 1+N; branches 1+P taken, 1 not taken;
 *    LDR PC and POP {..,PC} add P; TBB/TBH 2+P; ISB 1+P; P = pipeline refill, 1-3 cycles.
 *  - "Load/store timings" in both TRMs: STR Rx,[Ry,#imm] is always one cycle (write buffer); a load or store
 *    right after an LDR whose result it does not use for its address is pipelined (one cycle less); nothing
 *    pipelines after a store; base-updating loads and LDRD/STRD do not pipeline with neighbours; a
 *    load/store whose address depends on the previous data-processing result stalls one cycle.
 *  - Cortex-M4 TRM, FPU instruction set table: VADD/VSUB/VMUL/VABS/VNEG/VCMP/VCVT/VMOV 1, VMLA/VMLS/
 *    VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS 3, VDIV/VSQRT 14, VLDR/VSTR 2, VLDM/VSTM/VPUSH/VPOP 1+N,
 *    VMOV of two core registers 2.
 * Choices where the manuals give a range (docs/measurement.md): P = 2, plus 1 when the branch target is a
 * 32-bit instruction at an address that is 2 mod 4 (it needs two fetches); divide 12 cycles (11 on M33),
 * M3 long multiplies their upper bound (5, 7): an estimate that errs long, as a budget should; an IT
 * instruction after a 16-bit instruction is folded (0 cycles), else 1; a conditional instruction in an IT
 * block costs as if it executed. The Cortex-M33 TRM has no such table: the M4's figures are used.
 */
#include "cortex_m_timing.h"

#include <stdlib.h>
#include <string.h>

enum kind {
  K_ALU,       /* data processing, moves, extends, saturation, bit fields, hints */
  K_MUL,       /* multiplies and multiply-accumulates (incl. DSP) */
  K_DIV,
  K_LOAD,      /* single load (LDR/LDRB/LDRH/LDRSB/LDRSH/LDREX, literal included) */
  K_STORE,     /* single store */
  K_DUAL,      /* LDRD/STRD */
  K_MULTI,     /* LDM/STM/PUSH/POP */
  K_BRANCH,    /* B, BL, B<c>, CBZ/CBNZ, BX, BLX, MOV/ADD to PC */
  K_LOAD_PC,   /* LDR PC, POP/LDM with PC */
  K_TABLE,     /* TBB/TBH */
  K_IT,
  K_FP,        /* FPU data processing and register moves */
  K_FP_MEM,    /* VLDR/VSTR/VLDM/VSTM/VPUSH/VPOP */
  K_OTHER,     /* barriers, system, exceptions (SVC/BKPT/UDF) */
};

#define NO_REG 16
#define PC_BIT (1u << 15)
#define SP_BIT CTM_SP_BIT
#define LR_BIT (1u << 14)
#define REFILL 2 /* P: pipeline refill of a taken branch */

static unsigned popcount16(unsigned v) {
  unsigned n = 0;
  for (v &= 0xFFFFu; v != 0; v &= v - 1) {
    ++n;
  }
  return n;
}

static uint16_t reg(unsigned r) { return (uint16_t)(1u << (r & 15u)); }

static void set(struct ctm_insn* out, enum kind kind, unsigned cycles) {
  out->kind = (uint8_t)kind;
  out->cycles = (uint8_t)cycles;
}

static void alu(struct ctm_insn* out, unsigned rd) {
  set(out, K_ALU, 1);
  out->writes = rd < 15 ? reg(rd) : 0; /* 15: a compare/test, or PC (handled by the caller) */
}

static void single_load(struct ctm_insn* out, unsigned rt, uint16_t address, int writeback) {
  if (rt == 15) {
    set(out, K_LOAD_PC, 2);
    out->transfer = CTM_FLOW_ALWAYS;
  } else {
    set(out, K_LOAD, 2);
    out->load_dest = (uint8_t)rt;
  }
  out->address = address;
  out->writeback = (uint8_t)writeback;
}

static void single_store(struct ctm_insn* out, uint16_t address, int immediate, int writeback) {
  set(out, K_STORE, immediate ? 1 : 2); /* STR Rx,[Ry,#imm] is always one cycle */
  out->store = 1;
  out->address = address;
  out->writeback = (uint8_t)writeback;
}

static void multiple(struct ctm_insn* out, int load, unsigned rn, unsigned list, int writeback) {
  const unsigned n = popcount16(list);
  set(out, load && (list & PC_BIT) ? K_LOAD_PC : K_MULTI, 1 + n);
  if (load && (list & PC_BIT)) {
    out->transfer = CTM_FLOW_ALWAYS;
  }
  out->address = reg(rn);
  out->writeback = (uint8_t)writeback;
  out->store = (uint8_t)!load;
}

static void decode16(const struct ctm_model* model, unsigned hw, struct ctm_insn* out) {
  (void)model;
  if ((hw & 0xE000u) == 0x2000u) { /* MOV/CMP/ADD/SUB imm8 */
    alu(out, ((hw >> 11) & 3u) == 1u ? 15u : (hw >> 8) & 7u);
  } else if ((hw & 0xE000u) == 0x0000u) { /* shifts by immediate, ADD/SUB register or imm3 */
    alu(out, hw & 7u);
  } else if ((hw & 0xFC00u) == 0x4000u) { /* data processing register */
    const unsigned opc = (hw >> 6) & 0xFu;
    if (opc == 0xDu) {
      set(out, K_MUL, 1);
      out->writes = reg(hw & 7u);
    } else {
      alu(out, (opc == 0x8u || opc == 0xAu || opc == 0xBu) ? 15u : hw & 7u);
    }
  } else if ((hw & 0xFC00u) == 0x4400u) { /* special data processing, BX/BLX */
    const unsigned opc = (hw >> 8) & 3u;
    const unsigned rd = ((hw >> 4) & 8u) | (hw & 7u);
    if (opc == 3u) {
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_ALWAYS;
      out->writes = (hw & 0x80u) ? LR_BIT : 0;
    } else if (opc == 1u) {
      alu(out, 15u);
    } else if (rd == 15u) {
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_ALWAYS;
    } else {
      alu(out, rd);
    }
  } else if ((hw & 0xF800u) == 0x4800u) { /* LDR literal */
    single_load(out, (hw >> 8) & 7u, PC_BIT, 0);
  } else if ((hw & 0xF000u) == 0x5000u) { /* load/store register offset */
    const uint16_t address = (uint16_t)(reg((hw >> 3) & 7u) | reg((hw >> 6) & 7u));
    if (((hw >> 9) & 7u) < 3u) {
      single_store(out, address, 0, 0);
    } else {
      single_load(out, hw & 7u, address, 0);
    }
  } else if ((hw & 0xE000u) == 0x6000u || (hw & 0xF000u) == 0x8000u) { /* word/byte/halfword imm5 */
    if (hw & 0x0800u) {
      single_load(out, hw & 7u, reg((hw >> 3) & 7u), 0);
    } else {
      single_store(out, reg((hw >> 3) & 7u), 1, 0);
    }
  } else if ((hw & 0xF000u) == 0x9000u) { /* SP-relative */
    if (hw & 0x0800u) {
      single_load(out, (hw >> 8) & 7u, SP_BIT, 0);
    } else {
      single_store(out, SP_BIT, 1, 0);
    }
  } else if ((hw & 0xF000u) == 0xA000u) { /* ADR, ADD Rd, SP, #imm */
    alu(out, (hw >> 8) & 7u);
  } else if ((hw & 0xF000u) == 0xB000u) { /* miscellaneous */
    if ((hw & 0xFF00u) == 0xB000u) {
      alu(out, 13u);
    } else if ((hw & 0xF500u) == 0xB100u) {
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_COND;
    } else if ((hw & 0xFF00u) == 0xB200u || (hw & 0xFF00u) == 0xBA00u) { /* extends, REV */
      alu(out, hw & 7u);
    } else if ((hw & 0xFE00u) == 0xB400u) { /* PUSH */
      multiple(out, 0, 13u, (hw & 0xFFu) | ((hw & 0x100u) ? LR_BIT : 0), 1);
    } else if ((hw & 0xFE00u) == 0xBC00u) { /* POP */
      multiple(out, 1, 13u, (hw & 0xFFu) | ((hw & 0x100u) ? PC_BIT : 0), 1);
    } else if ((hw & 0xFF00u) == 0xBF00u && (hw & 0xFu) != 0) {
      set(out, K_IT, 1);
    } else if ((hw & 0xFF00u) == 0xBE00u) { /* BKPT (semihosting) */
      set(out, K_OTHER, 1);
    } else { /* hints, CPS */
      alu(out, 15u);
    }
  } else if ((hw & 0xF000u) == 0xC000u) { /* LDM/STM */
    const unsigned rn = (hw >> 8) & 7u;
    const int load = (hw & 0x0800u) != 0;
    /* LDM writes back unless the base is in the list */
    multiple(out, load, rn, hw & 0xFFu, load ? !(hw & reg(rn)) : 1);
  } else if ((hw & 0xF000u) == 0xD000u) {
    if (((hw >> 8) & 0xEu) == 0xEu) { /* UDF, SVC */
      set(out, K_OTHER, 1);
    } else {
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_COND;
    }
  } else { /* 0xE000: B */
    set(out, K_BRANCH, 1);
    out->transfer = CTM_FLOW_ALWAYS;
  }
}

static void decode_fp(const struct ctm_model* model, unsigned hw1, unsigned hw2, struct ctm_insn* out) {
  (void)model;
  const unsigned coproc = (hw2 >> 8) & 0xFu;
  if (coproc != 10u && coproc != 11u) {
    set(out, K_OTHER, 1);
    return;
  }
  const unsigned rn = hw1 & 0xFu;
  if ((hw1 & 0xEE00u) == 0xEC00u) { /* extension register load/store, 64-bit transfers */
    if ((hw1 & 0xFFE0u) == 0xEC40u) { /* VMOV two core registers <-> FP */
      set(out, K_FP, 2);
      if (hw1 & 0x10u) {
        out->writes = (uint16_t)(reg(hw2 >> 12) | reg(rn));
      }
    } else if ((hw1 & 0xFF20u) == 0xED00u) { /* VLDR/VSTR */
      set(out, K_FP_MEM, 2);
      out->address = reg(rn);
      out->store = (uint8_t)!(hw1 & 0x10u);
    } else { /* VLDM/VSTM/VPUSH/VPOP: 1 + N words */
      set(out, K_FP_MEM, 1 + (hw2 & 0xFFu));
      out->address = reg(rn);
      out->store = (uint8_t)!(hw1 & 0x10u);
      out->writeback = (uint8_t)((hw1 >> 5) & 1u);
    }
    return;
  }
  if (hw2 & 0x10u) { /* VMOV core <-> single, VMRS, VMSR */
    set(out, K_FP, 1);
    if ((hw1 & 0x10u) && (hw2 >> 12) != 15u) {
      out->writes = reg(hw2 >> 12);
    }
    return;
  }
  if ((hw1 & 0xFF00u) == 0xFE00u) { /* FPv5 unconditional: VSEL, VMAXNM, VRINT, VCVT{A,N,P,M} */
    set(out, K_FP, 1);
    return;
  }
  const unsigned opc = ((hw1 >> 5) & 4u) | ((hw1 >> 4) & 3u); /* opc1 bits 23, 21:20 */
  switch (opc) {
    case 0: /* VMLA/VMLS */
    case 1: /* VNMLA/VNMLS */
    case 5: /* VFNMA/VFNMS */
    case 6: /* VFMA/VFMS */
      set(out, K_FP, 3);
      break;
    case 4: /* VDIV */
      set(out, K_FP, 14);
      break;
    case 7: /* VSQRT is opc2 0001 with bits 7:6 = 11; the rest (VMOV imm, VABS, VNEG, VCMP, VCVT) 1 */
      set(out, K_FP, ((hw1 & 0xFu) == 1u && (hw2 & 0xC0u) == 0xC0u) ? 14 : 1);
      break;
    default: /* VMUL/VNMUL, VADD/VSUB */
      set(out, K_FP, 1);
      break;
  }
}

static void decode32(const struct ctm_model* model, unsigned hw1, unsigned hw2, struct ctm_insn* out) {
  const enum ctm_core core = model->config.core;
  const unsigned op1 = (hw1 >> 11) & 3u;
  const unsigned op2 = (hw1 >> 4) & 0x7Fu;
  const unsigned rn = hw1 & 0xFu;
  if (op1 == 1u) {
    if ((op2 & 0x64u) == 0x00u) { /* LDM/STM (T2 forms; PUSH/POP.W) */
      multiple(out, (hw1 >> 4) & 1u, rn, hw2, (hw1 >> 5) & 1u);
    } else if ((op2 & 0x64u) == 0x04u) { /* dual, exclusive, table branch */
      if ((hw1 & 0xFFF0u) == 0xE8D0u && (hw2 & 0xFFE0u) == 0xF000u) {
        set(out, K_TABLE, 2);
        out->transfer = CTM_FLOW_ALWAYS;
        out->address = (uint16_t)(reg(rn) | reg(hw2 & 0xFu));
      } else if ((hw1 & 0xFFE0u) == 0xE840u || (hw1 & 0xFFE0u) == 0xE8C0u) { /* (LD|ST)REX[BH], LDA/STL */
        if (hw1 & 0x10u) {
          single_load(out, hw2 >> 12, reg(rn), 0);
        } else {
          single_store(out, reg(rn), 0, 0);
          out->cycles = 2;
        }
      } else { /* LDRD/STRD: 1 + N, never pipelined */
        set(out, K_DUAL, 3);
        out->address = reg(rn);
        out->store = (uint8_t)!(hw1 & 0x10u);
        out->writeback = (uint8_t)((hw1 >> 5) & 1u);
      }
    } else if ((op2 & 0x60u) == 0x20u) { /* data processing, shifted register */
      alu(out, (hw2 >> 8) & 0xFu);
    } else { /* coprocessor: the FPU */
      decode_fp(model, hw1, hw2, out);
    }
    return;
  }
  if (op1 == 2u) {
    if ((hw2 & 0x8000u) == 0) { /* data processing, (modified) immediate */
      alu(out, (hw2 >> 8) & 0xFu);
      return;
    }
    const unsigned o = (hw2 >> 12) & 7u;
    if ((o & 5u) == 0u) {
      if (((hw1 >> 7) & 7u) != 7u) { /* B<c>.W */
        set(out, K_BRANCH, 1);
        out->transfer = CTM_FLOW_COND;
      } else if ((hw1 & 0xFFF0u) == 0xF7F0u) { /* UDF */
        set(out, K_OTHER, 1);
      } else if ((hw1 & 0xFFF0u) == 0xF3B0u && ((hw2 >> 4) & 0xFu) == 6u) { /* ISB: 1 + P */
        set(out, K_OTHER, 1 + REFILL);
      } else if ((hw1 & 0xFFF0u) == 0xF3E0u) { /* MRS */
        alu(out, (hw2 >> 8) & 0xFu);
      } else { /* MSR, hints, DSB/DMB (B = 0 without outstanding transfers) */
        set(out, K_OTHER, 1);
      }
    } else if ((o & 5u) == 1u) { /* B.W */
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_ALWAYS;
    } else if ((o & 5u) == 5u) { /* BL */
      set(out, K_BRANCH, 1);
      out->transfer = CTM_FLOW_ALWAYS;
      out->writes = LR_BIT;
    } else {
      set(out, K_OTHER, 1);
    }
    return;
  }
  /* op1 == 3 */
  if ((op2 & 0x71u) == 0x00u) { /* store single */
    if (hw1 & 0x80u) { /* imm12 */
      single_store(out, reg(rn), 1, 0);
    } else if (hw2 & 0x800u) { /* imm8, P U W */
      const unsigned puw = (hw2 >> 8) & 7u;
      single_store(out, reg(rn), 1, (puw & 1u) || !(puw & 4u));
    } else { /* register offset */
      single_store(out, (uint16_t)(reg(rn) | reg(hw2 & 0xFu)), 0, 0);
    }
    return;
  }
  if ((op2 & 0x67u) == 0x01u || (op2 & 0x67u) == 0x03u || (op2 & 0x67u) == 0x05u) { /* loads */
    const unsigned rt = hw2 >> 12;
    const int word = (op2 & 0x67u) == 0x05u;
    if (rt == 15u && !word) { /* PLD, PLI */
      alu(out, 15u);
      return;
    }
    if (rn == 15u || (hw1 & 0x80u)) { /* literal, imm12 */
      single_load(out, rt, rn == 15u ? PC_BIT : reg(rn), 0);
    } else if (hw2 & 0x800u) { /* imm8, P U W */
      const unsigned puw = (hw2 >> 8) & 7u;
      single_load(out, rt, reg(rn), (puw & 1u) || !(puw & 4u));
    } else { /* register offset */
      single_load(out, rt, (uint16_t)(reg(rn) | reg(hw2 & 0xFu)), 0);
    }
    return;
  }
  if ((op2 & 0x70u) == 0x20u) { /* data processing, register (shifts, extends, SIMD add/sub, REV, CLZ) */
    alu(out, (hw2 >> 8) & 0xFu);
    return;
  }
  if ((op2 & 0x78u) == 0x30u) { /* multiply, multiply-accumulate, DSP multiplies, USAD8 */
    const int accumulate = (hw2 >> 12) != 15u;
    set(out, K_MUL, (core == CTM_M3 && accumulate) ? 2 : 1);
    out->writes = reg((hw2 >> 8) & 0xFu);
    return;
  }
  if ((op2 & 0x78u) == 0x38u) { /* long multiply, divide */
    const unsigned o = (hw1 >> 4) & 7u;
    if (((hw2 >> 4) & 0xFu) == 0xFu) {
      set(out, K_DIV, core == CTM_M33 ? 11 : 12);
      out->writes = reg((hw2 >> 8) & 0xFu);
    } else {
      unsigned cycles = 1;
      if (core == CTM_M3) {
        cycles = (o & 4u) ? 7 : 5; /* SMLAL/UMLAL : SMULL/UMULL, upper bounds */
      }
      set(out, K_MUL, cycles);
      out->writes = (uint16_t)(reg(hw2 >> 12) | reg((hw2 >> 8) & 0xFu));
    }
    return;
  }
  if (op2 & 0x40u) {
    decode_fp(model, hw1, hw2, out);
    return;
  }
  set(out, K_OTHER, 1);
}

unsigned ctm_decode(const struct ctm_model* model, const uint8_t* p, struct ctm_insn* out) {
  memset(out, 0, sizeof(*out));
  out->load_dest = NO_REG;
  const unsigned hw1 = (unsigned)p[0] | ((unsigned)p[1] << 8);
  if ((hw1 >> 11) >= 0x1Du) {
    const unsigned hw2 = (unsigned)p[2] | ((unsigned)p[3] << 8);
    out->size = 4;
    decode32(model, hw1, hw2, out);
  } else {
    out->size = 2;
    decode16(model, hw1, out);
  }
  return out->size;
}

static int is_memory(unsigned kind) {
  return kind == K_LOAD || kind == K_STORE || kind == K_DUAL || kind == K_MULTI || kind == K_LOAD_PC ||
         kind == K_TABLE || kind == K_FP_MEM;
}

/* Cycles of `insn` after `prev` (NULL: first of its block) by the TRM's pipelining and stall rules. */
static unsigned in_context(const struct ctm_insn* insn, const struct ctm_insn* prev) {
  unsigned cycles = insn->cycles;
  if (insn->kind == K_IT) {
    return (prev != NULL && prev->size == 2) ? 0 : 1; /* folded onto a preceding 16-bit instruction */
  }
  if (prev == NULL) {
    return cycles;
  }
  if ((insn->kind == K_LOAD || insn->kind == K_STORE) && cycles >= 2 && prev->kind == K_LOAD &&
      !prev->writeback && !(insn->address & reg(prev->load_dest))) {
    cycles -= 1; /* pipelined behind the previous LDR */
  }
  if (is_memory(insn->kind) && (prev->kind == K_ALU || prev->kind == K_MUL || prev->kind == K_DIV) &&
      (prev->writes & insn->address)) {
    cycles += 1; /* address from the previous data-processing result: no forwarding path */
  }
  return cycles;
}

static int in_flash(const struct ctm_config* config, uint32_t address) {
  return config->wait_states != 0 && address >= config->flash_low && address < config->flash_high;
}

struct ctm_block* ctm_block_new(const struct ctm_model* model, uint32_t address, const uint8_t* bytes,
                                size_t n_bytes) {
  const struct ctm_config* config = &model->config;
  const int fetch_model = in_flash(config, address);
  /* at most one segment per instruction, plus one per line a 32-bit instruction straddles into */
  const size_t max_segments = fetch_model ? n_bytes + 1 : 0;
  const size_t head = sizeof(struct ctm_block) + max_segments * sizeof(struct ctm_segment);
  struct ctm_block* block = calloc(1, head + n_bytes / 2 + 1);
  if (block == NULL) {
    return NULL;
  }
  block->insn_cycles = (uint8_t*)block + head;
  block->start = address;
  struct ctm_insn insn;
  struct ctm_insn prev;
  memset(&prev, 0, sizeof(prev));
  int have_prev = 0;
  size_t at = 0;
  while (at + 2 <= n_bytes) {
    const uint8_t* p = bytes + at;
    if (at + 4 > n_bytes && ((((unsigned)p[0] | ((unsigned)p[1] << 8)) >> 11) >= 0x1Du)) {
      break; /* a 32-bit instruction cut off: not given whole */
    }
    ctm_decode(model, p, &insn);
    const unsigned cycles = in_context(&insn, have_prev ? &prev : NULL);
    const uint32_t here = address + (uint32_t)at;
    if (at == 0) {
      block->first_wide = insn.size == 4;
    }
    if (fetch_model) {
      const uint32_t first = here / config->line_bytes;
      const uint32_t last = (here + insn.size - 1) / config->line_bytes;
      if (block->segments == 0 || block->segment[block->segments - 1].line != first) {
        block->segment[block->segments].line = first;
        block->segment[block->segments].cycles = 0;
        ++block->segments;
      }
      block->segment[block->segments - 1].cycles += cycles;
      if (last != first) {
        block->segment[block->segments].line = last;
        block->segment[block->segments].cycles = 0;
        ++block->segments;
      }
    }
    block->cycles += cycles;
    block->insn_cycles[block->insns] = (uint8_t)cycles;
    block->insns += 1;
    block->transfer = insn.transfer;
    prev = insn;
    have_prev = 1;
    at += insn.size;
  }
  block->end = address + (uint32_t)at;
  return block;
}

static void cache_reset(struct ctm_cache* cache, uint32_t lines) {
  memset(cache, 0, sizeof(*cache));
  cache->lines = lines;
}

/* 1 on a hit; a miss fills the least recently used line. Fully associative (an assumption). */
static int cache_access(struct ctm_cache* cache, uint32_t line) {
  if (cache->lines == 0) {
    return 0;
  }
  ++cache->stamp;
  uint32_t victim = 0;
  for (uint32_t i = 0; i < cache->lines; ++i) {
    if (cache->used[i] != 0 && cache->tag[i] == line) {
      cache->used[i] = cache->stamp;
      return 1;
    }
    if (cache->used[i] < cache->used[victim]) {
      victim = i;
    }
  }
  cache->tag[victim] = line;
  cache->used[victim] = cache->stamp;
  return 0;
}

int ctm_init(struct ctm_model* model, const struct ctm_config* config, const char** why) {
  memset(model, 0, sizeof(*model));
  if (config->core != CTM_M3 && config->core != CTM_M4 && config->core != CTM_M33) {
    *why = "core must be m3, m4 or m33";
    return -1;
  }
  if (config->wait_states != 0 &&
      (config->line_bytes < 4 || (config->line_bytes & (config->line_bytes - 1)) != 0)) {
    *why = "line must be a power of two of at least 4 bytes";
    return -1;
  }
  if (config->icache_lines > CTM_MAX_CACHE_LINES || config->dcache_lines > CTM_MAX_CACHE_LINES) {
    *why = "at most 256 cache lines";
    return -1;
  }
  if (config->wait_states != 0 && config->flash_high <= config->flash_low) {
    *why = "wait states need the flash range (flash=LOW-HIGH)";
    return -1;
  }
  model->config = *config;
  model->fetch_line = UINT32_MAX;
  cache_reset(&model->icache, config->icache_lines);
  cache_reset(&model->dcache, config->dcache_lines);
  return 0;
}

void ctm_block_run(struct ctm_model* model, const struct ctm_block* block) {
  const struct ctm_block* prev = model->prev;
  if (prev != NULL &&
      (prev->transfer == CTM_FLOW_ALWAYS || (prev->transfer == CTM_FLOW_COND && block->start != prev->end))) {
    model->cycles += REFILL + ((block->first_wide && (block->start & 2u)) ? 1u : 0u);
  }
  /* split: a block counts as the previous one only once its last instruction ran (ctm_block_done) */
  model->prev = model->split ? NULL : block;
  if (block->segments == 0) {
    model->cycles += model->split ? 0 : block->cycles;
    return;
  }
  const uint32_t waits = model->config.wait_states;
  uint64_t now = model->cycles;
  for (uint16_t i = 0; i < block->segments; ++i) {
    const uint32_t line = block->segment[i].line;
    if (line != model->fetch_line) {
      uint64_t stall = 0;
      const int sequential = model->config.prefetch && model->fetch_line != UINT32_MAX &&
                             line == model->fetch_line + 1;
      if (cache_access(&model->icache, line)) {
        stall = 0;
      } else if (sequential) {
        stall = model->prefetch_ready > now ? model->prefetch_ready - now : 0;
      } else {
        stall = waits;
      }
      now += stall;
      model->fetch_line = line;
      model->prefetch_ready = now + waits + 1;
    }
    now += block->segment[i].cycles;
  }
  /* split: the instructions' own cycles arrive one by one from the caller; only the waits are added here */
  model->cycles = model->split ? now - block->cycles : now;
}

void ctm_block_done(struct ctm_model* model, const struct ctm_block* block) { model->prev = block; }

void ctm_load(struct ctm_model* model, uint32_t address) {
  if (!in_flash(&model->config, address)) {
    return;
  }
  if (!cache_access(&model->dcache, address / model->config.line_bytes)) {
    model->cycles += model->config.wait_states;
  }
}

/* Thumb-2 encodings that move SP or store through it (ARMv7-M ARM A7.7): PUSH/POP, ADD/SUB SP by an
 * immediate, STR/STRD/STM/VSTR/VPUSH with SP as base, LDR/LDM/VLDM/VPOP with SP written back. Anything else
 * that writes SP (MOV SP, Rm; ADD SP, Rm; a modified immediate) is "not known". */
unsigned ctm_sp_effect(const uint8_t* p, struct ctm_sp* out) {
  const unsigned hw1 = (unsigned)p[0] | ((unsigned)p[1] << 8);
  out->known = 1;
  out->delta = 0;
  out->stores = 0;
  out->lowest = 0;
  if ((hw1 >> 11) < 0x1Du) { /* 16-bit */
    if ((hw1 & 0xFE00u) == 0xB400u) { /* PUSH */
      const int32_t n = (int32_t)popcount16((hw1 & 0xFFu) | ((hw1 & 0x100u) ? 1u << 8 : 0u));
      out->delta = -4 * n;
      out->stores = 1;
      out->lowest = -4 * n;
    } else if ((hw1 & 0xFE00u) == 0xBC00u) { /* POP */
      out->delta = 4 * (int32_t)popcount16((hw1 & 0xFFu) | ((hw1 & 0x100u) ? 1u << 8 : 0u));
    } else if ((hw1 & 0xFF00u) == 0xB000u) { /* ADD/SUB SP, SP, #imm7*4 */
      const int32_t imm = (int32_t)(hw1 & 0x7Fu) * 4;
      out->delta = (hw1 & 0x80u) ? -imm : imm;
    } else if ((hw1 & 0xF800u) == 0x9000u) { /* STR Rt, [SP, #imm8*4] */
      out->stores = 1;
      out->lowest = (int32_t)(hw1 & 0xFFu) * 4;
    } else if ((hw1 & 0xFC00u) == 0x4400u && ((hw1 >> 8) & 3u) != 1u && ((hw1 >> 8) & 3u) != 3u &&
               (((hw1 >> 4) & 8u) | (hw1 & 7u)) == 13u) { /* ADD SP, Rm / MOV SP, Rm */
      out->known = 0;
    }
    return 2;
  }
  const unsigned hw2 = (unsigned)p[2] | ((unsigned)p[3] << 8);
  const unsigned rn = hw1 & 0xFu;
  if ((hw1 & 0xFE40u) == 0xE800u && rn == 13u) { /* LDM/STM with SP base (PUSH.W/POP.W) */
    const int32_t n = (int32_t)popcount16(hw2);
    const int down = ((hw1 >> 7) & 3u) == 2u; /* DB */
    const int load = (hw1 & 0x10u) != 0;
    if (hw1 & 0x20u) {
      out->delta = down ? -4 * n : 4 * n;
    }
    if (load && (hw2 & CTM_SP_BIT)) {
      out->known = 0;
    }
    if (!load) {
      out->stores = 1;
      out->lowest = down ? -4 * n : 0;
    }
  } else if ((hw1 & 0xFE40u) == 0xE840u && rn == 13u && (hw1 & 0xFFE0u) != 0xE840u &&
             (hw1 & 0xFFE0u) != 0xE8C0u) { /* LDRD/STRD with SP base */
    const int32_t imm = (int32_t)(hw2 & 0xFFu) * 4;
    const int32_t offset = (hw1 & 0x80u) ? imm : -imm; /* U */
    const int pre = (hw1 & 0x100u) != 0;
    if (hw1 & 0x20u) {
      out->delta = offset;
    }
    if (!(hw1 & 0x10u)) {
      out->stores = 1;
      out->lowest = pre ? offset : 0;
    }
  } else if ((hw1 & 0xFF00u) == 0xF800u && rn == 13u && !(hw1 & 0x10u) && (hw1 & 0x60u) != 0x60u) {
    /* STR/STRB/STRH with SP base */
    out->stores = 1;
    if (hw1 & 0x80u) { /* imm12 */
      out->lowest = (int32_t)(hw2 & 0xFFFu);
    } else if (hw2 & 0x800u) { /* imm8, P U W */
      const int32_t imm = (int32_t)(hw2 & 0xFFu);
      const int32_t offset = (hw2 & 0x200u) ? imm : -imm;
      const int pre = (hw2 & 0x400u) != 0;
      out->lowest = pre ? offset : 0;
      if ((hw2 & 0x100u) || !pre) {
        out->delta = offset;
      }
    } else { /* register offset: an address only known at run time, above SP in compiled code */
      out->lowest = 0;
    }
  } else if ((hw1 & 0xFF00u) == 0xF800u && rn == 13u && (hw1 & 0x10u) && !(hw1 & 0x80u) && (hw2 & 0x800u) &&
             ((hw2 & 0x100u) || !(hw2 & 0x400u))) { /* LDR with SP base written back (POP of one) */
    const int32_t imm = (int32_t)(hw2 & 0xFFu);
    out->delta = (hw2 & 0x200u) ? imm : -imm;
    if ((hw2 >> 12) == 13u) {
      out->known = 0;
    }
  } else if ((hw1 & 0xFBEFu) == 0xF1AD && (hw2 & 0x8F00u) == 0x0D00u && !(hw1 & 0x0400u) &&
             !(hw2 & 0x7000u)) { /* SUB.W SP, SP, #imm8 (no rotation) */
    out->delta = -(int32_t)(hw2 & 0xFFu);
  } else if ((hw1 & 0xFBEFu) == 0xF10D && (hw2 & 0x8F00u) == 0x0D00u && !(hw1 & 0x0400u) &&
             !(hw2 & 0x7000u)) { /* ADD.W SP, SP, #imm8 */
    out->delta = (int32_t)(hw2 & 0xFFu);
  } else if ((hw1 & 0xFBFFu) == 0xF2AD && (hw2 & 0x8F00u) == 0x0D00u) { /* SUBW SP, SP, #imm12 */
    out->delta = -(int32_t)((((hw1 >> 10) & 1u) << 11) | (((hw2 >> 12) & 7u) << 8) | (hw2 & 0xFFu));
  } else if ((hw1 & 0xFBFFu) == 0xF20D && (hw2 & 0x8F00u) == 0x0D00u) { /* ADDW SP, SP, #imm12 */
    out->delta = (int32_t)((((hw1 >> 10) & 1u) << 11) | (((hw2 >> 12) & 7u) << 8) | (hw2 & 0xFFu));
  } else if ((hw1 & 0xEE00u) == 0xEC00u && rn == 13u && ((hw2 >> 9) & 7u) == 5u) { /* VLDM/VSTM/VLDR/VSTR */
    const int32_t words = (int32_t)(hw2 & 0xFFu);
    if ((hw1 & 0xFF20u) == 0xED00u) { /* VLDR/VSTR [SP, #+-imm8*4] */
      if (!(hw1 & 0x10u)) {
        out->stores = 1;
        out->lowest = (hw1 & 0x80u) ? words * 4 : -words * 4;
      }
    } else {
      const int down = (hw1 & 0x100u) != 0; /* P: decrement before */
      if (hw1 & 0x20u) {
        out->delta = down ? -4 * words : 4 * words;
      }
      if (!(hw1 & 0x10u)) {
        out->stores = 1;
        out->lowest = down ? -4 * words : 0;
      }
    }
  } else if (((hw2 >> 8) & 0xFu) == 13u && (hw1 & 0xFE00u) != 0xF800u) {
    /* another 32-bit instruction whose Rd field is SP: data processing that writes SP by a run-time amount
     * (a modified immediate, a register); compares and stores do not reach here */
    struct ctm_model any;
    struct ctm_insn decoded;
    memset(&any, 0, sizeof(any));
    any.config.core = CTM_M4;
    ctm_decode(&any, p, &decoded);
    if (decoded.writes & CTM_SP_BIT) {
      out->known = 0;
    }
  }
  return 4;
}
