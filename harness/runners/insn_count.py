"""Instructions per test case under QEMU, counted exactly by the harness's own TCG plugin.

The micro_test framework calls two empty marker functions around each case's body
(``micro_test_case_start`` right after the case's BEGIN record, ``micro_test_case_stop`` right before
its END record; ``micro_runtime/micro_test.h``). On a real board they cost a call and a return each.
Under QEMU the plugin (``insn_counter/insn_counter.c``) adds each executed translation block's number of
instructions to a counter (an inline add in the translated code; one add per instruction under ``-icount``,
whose I/O recompilation can leave a block part-way), notes the counter at the start marker and writes the
difference at the stop marker:
one line per case that reached its end, in the order the cases ended. The count covers what the case
executed (without the exception handlers, see below), plus the marker calls' own few instructions (a
constant of the core and the compiler); nothing of the records the framework prints around it.

Deterministic: the instructions of the exception handlers the vector table names are not counted
(``handler_ranges``), so an interrupt taken during a case (SysTick's, whose timing follows the host's clock)
does not change its count, and a case's count is the same on any machine, under any load, as long as
the case's own code does not wait on time (a loop polling a clock runs as long as the clock takes). With
``--icount`` (or the board's ``[qemu] icount``) virtual time follows the instruction count, and then such
cases are the same in every run too; it is not the default because ``-icount`` slows compute-heavy binaries
by about 70 % (``benchmarks/harness_bench.py``), while the plugin alone costs a few percent.

The plugin is built on first use with the host C compiler into ``<build folder>/tools/`` under a name
that carries its source's hash (an upgraded harness rebuilds it). Without a compiler, or with a QEMU that
refuses the plugin, runs go on without counts and the run says why once. ``MICRO_HARNESS_NO_COUNTS=1`` turns
counting off (``benchmarks/harness_bench.py`` measures what it costs).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from harness.board.boards import Timing
from harness.core.binary_info import NotAnElf, load, symbol_address

PLUGIN_DIR = Path(__file__).resolve().parent / "insn_counter"
PLUGIN_SOURCE = PLUGIN_DIR / "insn_counter.c"  # includes cortex_m_timing.c: one translation unit
START, STOP = "micro_test_case_start", "micro_test_case_stop"
OFF_ENV = "MICRO_HARNESS_NO_COUNTS"  # set to 1: no counting plugin (runs as before counting existed)
NO_CYCLES_ENV = "MICRO_HARNESS_NO_CYCLES"  # set to 1: instructions only, no cycle estimate (what it costs)

_built: dict[Path, Path | str] = {}  # tools folder -> the plugin, or why there is none
_refused: dict[str, str] = {}  # QEMU binary -> why it would not load the plugin


def handler_ranges(elf: Path) -> list[tuple[int, int]]:
    """[start, end) of the exception handlers the vector table names (not the reset handler): the plugin does
    not count their instructions, so an interrupt (SysTick, whose timing follows the host's clock without
    ``-icount``) taken during a case does not change the case's count."""
    try:
        parsed = load(elf)
    except (OSError, NotAnElf):
        return []
    vectors = parsed.section(".isr_vector")
    if vectors is None:
        return []
    data = parsed.section_bytes(vectors)
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(8, len(data) - 3, 4)]  # after SP and reset
    functions = parsed.functions()
    ranges = set()
    for word in words:
        found = functions.get(word & ~1) if word else None
        if found is not None:
            ranges.add((word & ~1, (word & ~1) + found[1]))
    return sorted(ranges)


def stack_top(elf: Path) -> int | None:
    """The initial stack pointer: the vector table's first word (None: no vector table)."""
    try:
        parsed = load(elf)
    except (OSError, NotAnElf):
        return None
    vectors = parsed.section(".isr_vector")
    if vectors is None:
        return None
    data = parsed.section_bytes(vectors)
    return int.from_bytes(data[:4], "little") if len(data) >= 4 else None


def case_markers(elf: Path) -> tuple[int, int] | None:
    """Addresses of the start and stop markers in ``elf`` (Thumb bit cleared), or None (no micro_test binary)."""
    start, stop = symbol_address(elf, START), symbol_address(elf, STOP)
    if start is None or stop is None or (start & ~1) == (stop & ~1):
        return None
    return start & ~1, stop & ~1


def _tools_dir() -> Path:
    from harness.core import project

    return project.current().build_dir / "tools"


def plugin_library() -> Path | str:
    """The built plugin, or why there is none (no host C compiler, a compile error)."""
    tools = _tools_dir()
    if tools in _built:
        return _built[tools]
    sources = sorted(PLUGIN_DIR.glob("*.[ch]"))
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()[:12]
    library = tools / f"insn_counter-{digest}.so"
    if library.is_file():
        _built[tools] = library
        return library
    compiler = next((c for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c and shutil.which(c)), None)
    if compiler is None:
        _built[tools] = ("no host C compiler to build the instruction-counting QEMU plugin "
                         "(install: apt-get install gcc)")
        return _built[tools]
    tools.mkdir(parents=True, exist_ok=True)
    partial = library.with_name(f".{library.name}.{os.getpid()}")
    proc = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-fvisibility=hidden", f"-I{PLUGIN_DIR}", "-o",
                           str(partial), str(PLUGIN_SOURCE)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        partial.unlink(missing_ok=True)
        _built[tools] = f"building the instruction-counting QEMU plugin failed: {proc.stderr.strip()[-300:]}"
        return _built[tools]
    os.replace(partial, library)
    _built[tools] = library
    return library


def timing_args(timing: Timing | None) -> str:
    """The plugin's arguments for the cycle estimate of a board (``Board.timing``), "" for none."""
    if timing is None or os.environ.get(NO_CYCLES_ENV, "") not in ("", "0"):
        return ""
    args = f",core={timing.core}"
    if timing.flash_wait_states:
        low, high = timing.flash
        args += (f",ws={timing.flash_wait_states},flash=0x{low:x}-0x{high:x},line={timing.flash_line_bytes}"
                 f",icache={timing.icache_lines},dcache={timing.dcache_lines}")
        args += ",prefetch=1" if timing.prefetch else ""
    return args


def plugin_args(elf: Path, out: Path, qemu: str, per_insn: bool = False,
                timing: Timing | None = None) -> tuple[list[str], str | None]:
    """(``-plugin ...`` arguments that count ``elf``'s cases into ``out``, why not) — ([], None) for a binary
    without markers (nothing to count), ([], reason) when counting is impossible here. ``per_insn``: one add per
    instruction (needed under ``-icount``, whose I/O recompilation leaves blocks part-way), else per block.
    ``timing``: also estimate each case's cycles with the board's timing model."""
    markers = case_markers(elf)
    if markers is None or os.environ.get(OFF_ENV, "") not in ("", "0"):
        return [], None
    if qemu in _refused:
        return [], _refused[qemu]
    library = plugin_library()
    if isinstance(library, str):
        return [], library
    start, stop = markers
    skips = "".join(f",skip=0x{low:x}-0x{high:x}" for low, high in handler_ranges(elf))
    mode = ",per_insn=1" if per_insn else ""
    top = stack_top(elf)
    stack = f",stack=0x{top:x}" if top else ""
    return ["-plugin", f"{library},begin=0x{start:x},end=0x{stop:x},out={out}{skips}{mode}{timing_args(timing)}"
                       f"{stack}"], None


def refused(qemu: str, diagnostics: str) -> str | None:
    """Whether QEMU's messages say it would not load the plugin; remembered so later runs do not try."""
    line = next((line for line in diagnostics.splitlines() if "plugin" in line.lower()), None)
    if line is None:
        return None
    _refused[qemu] = f"{qemu} does not load the instruction-counting plugin ({line.strip()[:200]})"
    return _refused[qemu]


@dataclass
class CaseFigures:
    """The plugin's figures, one entry per case that reached its end, in the order they ended: instructions
    (exact), estimated cycles and stack peak in bytes (empty when the plugin measured none)."""

    instructions: list[int] = field(default_factory=list)
    cycles: list[int] = field(default_factory=list)
    stack: list[int] = field(default_factory=list)


def read_counts(out: Path) -> CaseFigures:
    """The plugin's lines "<instructions>[ cycles=N][ stack=N]" (its closing "total" line left out); a figure
    missing from any line is left out for all."""
    try:
        text = out.read_text()
    except OSError:
        return CaseFigures()
    rows = [line.split() for line in text.splitlines() if re.fullmatch(r"\d+( \w+=\d+)*", line)]
    figures = CaseFigures(instructions=[int(row[0]) for row in rows])
    for key in ("cycles", "stack"):
        values = [int(part.split("=")[1]) for row in rows for part in row[1:] if part.startswith(f"{key}=")]
        setattr(figures, key, values if len(values) == len(rows) else [])
    return figures


__all__ = ["NO_CYCLES_ENV", "OFF_ENV", "START", "STOP", "CaseFigures", "case_markers", "handler_ranges",
           "plugin_args", "plugin_library", "read_counts", "refused", "stack_top", "timing_args"]
