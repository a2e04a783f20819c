"""The Cortex-M timing model (insn_counter/cortex_m_timing.c) on instruction sequences whose cycle counts the
Cortex-M3/M4 Technical Reference Manuals state, and its memory model on hand-made traces.

The model is compiled with the host C compiler into a small library and driven through the same functions the
QEMU plugin calls (ctm_block_new at translation, ctm_block_run per executed block, ctm_load per load); the
sequences are assembled with arm-none-eabi-as, so the encodings are the real ones."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from harness.runners.insn_count import PLUGIN_DIR

pytestmark = pytest.mark.skipif(shutil.which("arm-none-eabi-as") is None or shutil.which("gcc") is None,
                                reason="needs arm-none-eabi-as and gcc")

PROBE = r"""
#include <stdlib.h>
#include "cortex_m_timing.h"
struct ctm_model* probe_model(int core, unsigned ws, unsigned line, int prefetch, unsigned icache,
                              unsigned dcache, unsigned low, unsigned high) {
  struct ctm_config config = {(enum ctm_core)core, ws, line, prefetch, icache, dcache, low, high};
  struct ctm_model* model = malloc(sizeof(*model));
  const char* why = 0;
  if (ctm_init(model, &config, &why) != 0) { free(model); return 0; }
  return model;
}
void* probe_block(struct ctm_model* m, unsigned address, const unsigned char* bytes, unsigned long n) {
  return ctm_block_new(m, address, bytes, n);
}
void probe_run(struct ctm_model* m, void* block) { ctm_block_run(m, block); }
void probe_load(struct ctm_model* m, unsigned address) { ctm_load(m, address); }
unsigned long long probe_cycles(struct ctm_model* m) { return m->cycles; }
unsigned probe_block_cycles(void* block) { return ((struct ctm_block*)block)->cycles; }
unsigned probe_block_insns(void* block) { return ((struct ctm_block*)block)->insns; }
void probe_split(struct ctm_model* m) { m->split = 1; }
void probe_done(struct ctm_model* m, void* block) { ctm_block_done(m, block); }
void probe_executed(struct ctm_model* m, void* block, unsigned count) {  /* the first `count` instructions ran */
  for (unsigned i = 0; i < count; ++i) m->cycles += ((struct ctm_block*)block)->insn_cycles[i];
}
int probe_sp(const unsigned char* p, int* known, int* delta, int* stores, int* lowest) {
  struct ctm_sp sp;
  int size = (int)ctm_sp_effect(p, &sp);
  *known = sp.known; *delta = sp.delta; *stores = sp.stores; *lowest = sp.lowest;
  return size;
}
int probe_decode(struct ctm_model* m, const unsigned char* p, int* kind, int* cycles, int* transfer) {
  struct ctm_insn insn;
  int size = (int)ctm_decode(m, p, &insn);
  *kind = insn.kind; *cycles = insn.cycles; *transfer = insn.transfer;
  return size;
}
"""
CORES = {"m3": 3, "m4": 4, "m33": 33}
FLASH = 0x0800_0000


# The model's instruction classes (enum kind in cortex_m_timing.c)
KINDS = ("alu", "mul", "div", "load", "store", "dual", "multi", "branch", "load_pc", "table", "it", "fp", "fp_mem",
         "other")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    return probe_library(tmp_path_factory.mktemp("ctm"))


def probe_library(folder: Path) -> ctypes.CDLL:
    """The timing model and a few probe functions, built with the host's gcc into ``folder``."""
    (folder / "probe.c").write_text(PROBE)
    library = folder / "probe.so"
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-shared", "-fPIC", f"-I{PLUGIN_DIR}", "-o", str(library),
                    str(folder / "probe.c"), str(PLUGIN_DIR / "cortex_m_timing.c")], check=True)
    cdll = ctypes.CDLL(str(library))
    cdll.probe_model.restype = ctypes.c_void_p
    cdll.probe_model.argtypes = [ctypes.c_int] + [ctypes.c_uint] * 2 + [ctypes.c_int] + [ctypes.c_uint] * 4
    cdll.probe_block.restype = ctypes.c_void_p
    cdll.probe_block.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p, ctypes.c_ulong]
    cdll.probe_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    cdll.probe_load.argtypes = [ctypes.c_void_p, ctypes.c_uint]
    cdll.probe_cycles.restype = ctypes.c_ulonglong
    cdll.probe_cycles.argtypes = [ctypes.c_void_p]
    cdll.probe_block_cycles.argtypes = [ctypes.c_void_p]
    cdll.probe_block_insns.argtypes = [ctypes.c_void_p]
    cdll.probe_sp.argtypes = [ctypes.c_char_p] + [ctypes.POINTER(ctypes.c_int)] * 4
    cdll.probe_split.argtypes = [ctypes.c_void_p]
    cdll.probe_done.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    cdll.probe_executed.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]
    int_pointer = ctypes.POINTER(ctypes.c_int)
    cdll.probe_decode.argtypes = [ctypes.c_void_p, ctypes.c_char_p, int_pointer, int_pointer, int_pointer]
    return cdll


def assemble(text: str, core: str = "m4") -> bytes:
    """Thumb-2 machine code of ``text`` (one instruction per line; no relocations)."""
    cpu = {"m3": ["-mcpu=cortex-m3"], "m4": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"],
           "m33": ["-mcpu=cortex-m33", "-mfpu=fpv5-sp-d16", "-mfloat-abi=hard"]}[core]
    key = (text, core)
    if key not in _ASSEMBLED:
        with tempfile.TemporaryDirectory() as tmp:
            obj, raw = Path(tmp) / "a.o", Path(tmp) / "a.bin"
            proc = subprocess.run(["arm-none-eabi-as", *cpu, "-o", str(obj), "-"],
                                  input=f".syntax unified\n.thumb\n{text}\n".encode(), capture_output=True,
                                  check=False)
            assert proc.returncode == 0, proc.stderr.decode()
            subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".text", str(obj), str(raw)], check=True)
            _ASSEMBLED[key] = raw.read_bytes()
    return _ASSEMBLED[key]


_ASSEMBLED: dict[tuple[str, str], bytes] = {}


class Model:
    def __init__(self, lib: ctypes.CDLL, core: str = "m4", ws: int = 0, line: int = 16, prefetch: bool = False,
                 icache: int = 0, dcache: int = 0) -> None:
        self.lib, self.core = lib, core
        self.handle = lib.probe_model(CORES[core], ws, line, int(prefetch), icache, dcache, FLASH, FLASH + (1 << 20))
        assert self.handle

    def block(self, code: str | bytes, address: int = FLASH) -> int:
        data = assemble(code, self.core) if isinstance(code, str) else code
        return int(self.lib.probe_block(self.handle, address, data, len(data)))

    def run(self, *blocks: int) -> int:
        before = self.cycles
        for block in blocks:
            self.lib.probe_run(self.handle, block)
        return self.cycles - before

    def load(self, address: int) -> None:
        self.lib.probe_load(self.handle, address)

    @property
    def cycles(self) -> int:
        return int(self.lib.probe_cycles(self.handle))

    def static(self, code: str) -> int:
        """Cycles of straight-line ``code`` as one block (no branch refill, zero-wait memory)."""
        return int(self.lib.probe_block_cycles(self.block(code)))


# The load/store pairing examples of the Cortex-M3 TRM ("Load/store timings"), which the M4 TRM repeats.
@pytest.mark.parametrize("code, cycles", [
    ("ldr r0, [r1]\nldr r1, [r2]", 3),
    ("ldr r0, [r1, r2]\nstr r0, [r3, #20]", 3),
    ("ldr r0, [r1, r2]\nstr r1, [r3, r2]", 3),
    ("ldr r0, [r1, r5]\nldr r1, [r2]\nldr r2, [r3, #4]", 4),
])
@pytest.mark.parametrize("core", ["m3", "m4"])
def test_the_manuals_load_store_pairs(lib: ctypes.CDLL, core: str, code: str, cycles: int) -> None:
    assert Model(lib, core).static(code) == cycles


@pytest.mark.parametrize("code, cycles, why", [
    ("ldr r0, [r1]\nldr r2, [r0]", 4, "the second address uses the first load's result: not pipelined"),
    ("adds r1, r2, #4\nldr r0, [r1]", 4, "address from the previous data-processing result: +1"),
    ("adds r3, r2, #4\nldr r0, [r1]", 3, "no dependency"),
    ("str r0, [r1, r2]\nldr r3, [r4]", 4, "nothing pipelines after a store"),
    ("str r0, [r1, #4]\nstr r2, [r1, #8]", 2, "STR with an immediate offset is always one cycle"),
    ("ldr r0, [r1], #4\nldr r2, [r3]", 4, "a base-updating load does not pipeline"),
    ("ldrd r0, r1, [r2]\nldr r3, [r4]", 5, "LDRD is 1+N and pipelines with nothing"),
    ("push {r4, r5, r6, r7, lr}", 6, "PUSH is 1+N"),
    ("ldmia r0!, {r1, r2, r3, r4}", 5, "LDM is 1+N"),
    ("cmp r0, #0\nit eq\nmoveq r1, #1", 2, "IT folded onto a 16-bit instruction"),
    ("cmp.w r0, #0\nit eq\nmoveq r1, #1", 3, "IT after a 32-bit instruction costs its cycle"),
    ("sdiv r0, r1, r2", 12, "divide: the upper bound of 2-12"),
])
def test_sequences(lib: ctypes.CDLL, code: str, cycles: int, why: str) -> None:
    assert Model(lib, "m4").static(code) == cycles, why


@pytest.mark.parametrize("code, m3, m4", [
    ("muls r0, r1, r0", 1, 1),
    ("mla r0, r1, r2, r3", 2, 1),
    ("mls r0, r1, r2, r3", 2, 1),
    ("smull r0, r1, r2, r3", 5, 1),
    ("umlal r0, r1, r2, r3", 7, 1),
])
def test_multiplies_m3_against_m4(lib: ctypes.CDLL, code: str, m3: int, m4: int) -> None:
    assert Model(lib, "m3").static(code) == m3
    assert Model(lib, "m4").static(code) == m4


@pytest.mark.parametrize("code, cycles", [
    ("smlad r0, r1, r2, r3", 1), ("smlabb r0, r1, r2, r3", 1), ("sxtb16 r0, r1", 1), ("ssat r0, #8, r1", 1),
    ("smlal r0, r1, r2, r3", 1), ("qadd16 r0, r1, r2", 1),
    ("vadd.f32 s0, s1, s2", 1), ("vmul.f32 s0, s1, s2", 1), ("vmla.f32 s0, s1, s2", 3),
    ("vfma.f32 s0, s1, s2", 3), ("vdiv.f32 s0, s1, s2", 14), ("vsqrt.f32 s0, s1", 14),
    ("vcvt.s32.f32 s0, s0", 1), ("vmov r0, s1", 1), ("vmov s0, s1, r0, r1", 2), ("vldr s0, [r0]", 2),
    ("vstr s0, [r0, #4]", 2), ("vpush {s16-s23}", 9), ("vldmia r0!, {s0-s3}", 5), ("vmrs APSR_nzcv, fpscr", 1),
])
def test_dsp_and_fpu_on_the_m4(lib: ctypes.CDLL, code: str, cycles: int) -> None:
    assert Model(lib, "m4").static(code) == cycles


def test_a_loop_pays_the_refill_each_time_its_branch_is_taken(lib: ctypes.CDLL) -> None:
    """1 + P taken, 1 not taken (P = 2): three rounds of `subs; bne` = 3 x 2 + 2 refills."""
    model = Model(lib)
    loop = model.block("subs r0, #1\nbne.n .-2")  # a block that branches to its own start
    after = model.block("nop", FLASH + 4)
    assert model.run(loop, loop, loop, after) == 3 * 2 + 2 * 2 + 1


def test_unconditional_transfers_always_refill(lib: ctypes.CDLL) -> None:
    model = Model(lib)
    call = model.block("bl .+0x100")
    callee = model.block("bx lr", FLASH + 0x104)
    back = model.block("nop", FLASH + 4)
    assert model.run(call, callee, back) == (1 + 2) + (1 + 2) + 1
    pop = model.block("pop {r4, pc}", FLASH + 0x200)
    assert model.run(pop, back) == (1 + 2) + 2 + 1  # 1+N+P


def test_a_misaligned_wide_target_costs_a_refill_cycle_more(lib: ctypes.CDLL) -> None:
    model = Model(lib)
    jump = model.block("b.n .+0x40")
    aligned = model.block("add.w r0, r0, #1", FLASH + 0x40)
    misaligned = model.block("add.w r0, r0, #1", FLASH + 0x42)
    narrow = model.block("adds r0, #1", FLASH + 0x42)
    assert model.run(jump, aligned) == 1 + 2 + 1
    assert model.run(jump, misaligned) == 1 + 3 + 1
    assert model.run(jump, narrow) == 1 + 2 + 1


def test_split_mode_gives_the_same_cycles_and_survives_a_block_cut_short(lib: ctypes.CDLL) -> None:
    """Under -icount the plugin adds each instruction's cycles as it runs and marks a block done at its last
    instruction. A loop costs the same as in block mode; a block QEMU cuts at an I/O access (its first two
    instructions ran, then a one-instruction block at the third, then the rest) costs what ran, once, and no
    refill is charged for the restart inside it."""
    block_mode = Model(lib)
    loop = block_mode.block("subs r0, #1\nbne.n .-2")
    after = block_mode.block("nop", FLASH + 4)
    expected = block_mode.run(loop, loop, loop, after)

    split = Model(lib)
    lib.probe_split(split.handle)
    loop = split.block("subs r0, #1\nbne.n .-2")
    after = split.block("nop", FLASH + 4)
    for block, count in ((loop, 2), (loop, 2), (loop, 2), (after, 1)):
        split.run(block)
        lib.probe_executed(split.handle, block, count)
        lib.probe_done(split.handle, block)
    assert split.cycles == expected

    code = "ldr r0, [r1]\nadds r0, #1\nstr r0, [r2]\nadds r3, #1\nbeq.n .+8"
    whole = Model(lib)
    lib.probe_split(whole.handle)
    full = whole.block(code)
    whole.run(full)
    lib.probe_executed(whole.handle, full, 5)
    lib.probe_done(whole.handle, full)
    cut = Model(lib)
    lib.probe_split(cut.handle)
    first = cut.block(code)
    cut.run(first)
    lib.probe_executed(cut.handle, first, 2)  # the store (I/O) is not executed in this block
    io = cut.block("str r0, [r2]", FLASH + 4)
    cut.run(io)
    lib.probe_executed(cut.handle, io, 1)
    lib.probe_done(cut.handle, io)
    rest = cut.block("adds r3, #1\nbeq.n .+8", FLASH + 6)
    cut.run(rest)
    lib.probe_executed(cut.handle, rest, 2)
    lib.probe_done(cut.handle, rest)
    # the same instructions once each (the store's pipelining context is an ADDS in both cases)
    assert cut.cycles == whole.cycles


def test_flash_wait_states_without_prefetch_or_cache(lib: ctypes.CDLL) -> None:
    """Every new 8-byte line costs the 5 wait states: 8 single-cycle 16-bit instructions span two lines."""
    model = Model(lib, ws=5, line=8)
    block = model.block("nop\n" * 8)
    assert model.run(block) == 8 + 5 + 5
    assert model.run(block) == 8 + 5 + 5  # no cache: the same again


def test_prefetch_hides_part_of_the_next_lines_wait(lib: ctypes.CDLL) -> None:
    """The next line is read while the current one executes (4 cycles of its 6): 2 cycles of stall remain."""
    model = Model(lib, ws=5, line=8, prefetch=True)
    assert model.run(model.block("nop\n" * 8)) == 5 + 4 + 2 + 4


def test_the_instruction_cache_makes_a_loop_zero_wait(lib: ctypes.CDLL) -> None:
    """Two 16-byte lines run twice: both miss the first time, both hit the second (without the cache, and
    without prefetch, both wait again)."""
    model = Model(lib, ws=5, line=16, icache=64)
    body = model.block("nop\n" * 16)
    assert model.run(body) == 8 + 5 + 8 + 5
    assert model.run(body) == 16
    uncached = Model(lib, ws=5, line=16)
    body = uncached.block("nop\n" * 16)
    assert uncached.run(body) == uncached.run(body) == 26


def test_code_in_sram_never_waits(lib: ctypes.CDLL) -> None:
    model = Model(lib, ws=5, line=8)
    assert model.run(model.block("nop\n" * 8, 0x2000_0000)) == 8


def test_data_loads_from_flash_wait_unless_the_data_cache_holds_the_line(lib: ctypes.CDLL) -> None:
    plain = Model(lib, ws=3, line=16)
    for address in (FLASH + 0x1000, FLASH + 0x1004, 0x2000_0000):
        plain.load(address)
    assert plain.cycles == 3 + 3  # flash twice, SRAM free
    cached = Model(lib, ws=3, line=16, dcache=2)
    for address in (FLASH + 0x1000, FLASH + 0x1004, FLASH + 0x1010, FLASH + 0x1000, FLASH + 0x1020, FLASH + 0x1010,
                    FLASH + 0x1000):
        cached.load(address)
    # miss, hit, miss, hit, miss (evicts 0x1010, the least recently used), miss (evicts 0x1000), miss
    assert cached.cycles == 3 * 5


def test_zero_wait_states_need_no_memory_model(lib: ctypes.CDLL) -> None:
    model = Model(lib, ws=0)
    model.load(FLASH)
    assert model.cycles == 0
    assert model.run(model.block("nop\n" * 8)) == 8


@pytest.mark.parametrize("code, known, delta, stores, lowest", [
    ("push {r4, r5, r6, r7, lr}", 1, -20, 1, -20),
    ("pop {r4, pc}", 1, 8, 0, 0),
    ("sub sp, #64", 1, -64, 0, 0),
    ("add sp, #16", 1, 16, 0, 0),
    ("str r0, [sp, #4]", 1, 0, 1, 4),
    ("str.w r0, [sp, #-4]!", 1, -4, 1, -4),
    ("ldr.w r0, [sp], #4", 1, 4, 0, 0),
    ("stmdb sp!, {r4, r5, r6, r7, r8, r9, r10, r11, lr}", 1, -36, 1, -36),
    ("strd r0, r1, [sp, #-8]!", 1, -8, 1, -8),
    ("strd r0, r1, [sp, #8]", 1, 0, 1, 8),
    ("sub.w sp, sp, #128", 1, -128, 0, 0),
    ("subw sp, sp, #1000", 1, -1000, 0, 0),
    ("vpush {s16-s23}", 1, -32, 1, -32),
    ("vstr s0, [sp, #8]", 1, 0, 1, 8),
    ("mov sp, r7", 0, 0, 0, 0),
    ("add sp, r3", 0, 0, 0, 0),
    ("str r0, [r1, #4]", 1, 0, 0, 0),
    ("adds r0, #1", 1, 0, 0, 0),
])
def test_what_an_instruction_does_to_the_stack(lib: ctypes.CDLL, code: str, known: int, delta: int, stores: int,
                                               lowest: int) -> None:
    """The stack peak watches one store per run of known SP moves (insn_counter.c): these effects choose it."""
    data = assemble(code, "m4").ljust(4, b"\0")
    got = [ctypes.c_int() for _ in range(4)]
    lib.probe_sp(data, *(ctypes.byref(v) for v in got))
    assert [v.value for v in got] == [known, delta, stores, lowest], code


def test_the_configuration_is_checked(lib: ctypes.CDLL) -> None:
    assert not lib.probe_model(5, 0, 16, 0, 0, 0, 0, 0)  # no such core
    assert not lib.probe_model(4, 5, 12, 0, 0, 0, FLASH, FLASH + 1)  # line not a power of two
    assert not lib.probe_model(4, 5, 16, 0, 512, 0, FLASH, FLASH + 1)  # too many cache lines
    assert not lib.probe_model(4, 5, 16, 0, 0, 0, 0, 0)  # wait states without a flash range
