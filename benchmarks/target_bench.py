#!/usr/bin/env python3
"""On-target benchmark: instructions per Invoke() of micro_runtime on Cortex-M boards under QEMU.

For each model (hello_world, micro_speech and the four MLPerf Tiny models) and board, builds the model
runner firmware (micro_runtime/model_runner/model_runner.cc, OPS=model, the board's own build), runs it
in qemu-system-arm with the project's instruction-counting TCG plugin (harness/runners/insn_counter/) and
``-icount shift=0`` (virtual time follows the instruction count, so SysTick interrupts, if any, fall at
the same instructions in every run: the count is deterministic), and

  * counts the guest instructions from model_runner_invoke_begin() to model_runner_invoke_end() around
    each case's Invoke(), minus the same count for an empty begin/end pair (the markers' own calls);
  * checks every case's outputs against the reference outputs of its cases file (TFLM's reference
    interpreter): bit-exact, in the same run;
  * prints a markdown table with the ratio to TFLM + CMSIS-NN's figures for the same models on the same
    board (tflite-micro 90b983c, counted the same way; TFLM_FIGURES below);
  * estimates the cycles of the same Invoke() with the plugin's Cortex-M timing model and the board's memory
    system (docs/measurement.md; an estimate, labelled so) and sets them beside the best published engines'
    cycles for the MLPerf Tiny models (PUBLISHED below) on the board those were measured on: the
    nucleo_l4r5zi_timing board (benchmarks/boards/) stands in for MLPerf's NUCLEO-L4R5ZI, mps2_an505 for a
    Cortex-M33;
  * prints the arena each model needs on the board (the runtime's arena_used_bytes: the smallest arena that
    works, 32-bit structs and pointers) beside TFLM's arena for the same model on the same board, with
    reference and with CMSIS-NN kernels (TFLM_ARENA below), and the ratios; then its two parts as the runner
    prints them (arena_persistent_bytes: tables, options, op data; arena_activation_bytes: the planned
    tensors and scratch buffers) beside the model's activation floor (activation_floor(): the peak over the
    execution order of the bytes of simultaneously live non-constant tensors, no in-place reuse), read from
    the .tflite itself;
  * prints each model's multiply-accumulates per Invoke() (model_macs(): CONV_2D, DEPTHWISE_CONV_2D,
    FULLY_CONNECTED, TRANSPOSE_CONV, counted from the .tflite) and instructions per MAC.

Usage: python benchmarks/target_bench.py [--board netduinoplus2 ...] [--models a b ...] [--json FILE]
Needs arm-none-eabi-gcc, qemu-system-arm (7.2, Debian 12's) and a host gcc for the plugin.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from harness.board.boards import Board, load_board  # noqa: E402
from harness.build.driver import BuildError  # noqa: E402
from harness.build.model_runner import build_runner, elf_sizes  # noqa: E402
from harness.cli.run_model import RunModelError, parse_runner_log  # noqa: E402
from harness.runners.insn_count import read_counts, timing_args  # noqa: E402
from harness.runners.qemu import qemu_command  # noqa: E402

EXAMPLES = REPO / "micro_runtime" / "examples"
BENCH_MODELS = REPO / "benchmarks" / "models"
MODELS = {
    "hello_world_int8": EXAMPLES / "hello_world/models/hello_world_int8.tflite",
    "micro_speech": EXAMPLES / "micro_speech/models/micro_speech_quantized.tflite",
    "kws": BENCH_MODELS / "kws_ref_model.tflite",
    "vww": BENCH_MODELS / "vww_96_int8.tflite",
    "ic": BENCH_MODELS / "pretrainedResnet_quant.tflite",
    "ad": BENCH_MODELS / "ad01_int8.tflite",
}
# TFLM (tflite-micro 90b983c, core -Os, kernels -O2) on netduinoplus2 under QEMU, instructions per
# Invoke() counted with a QEMU instruction-counting plugin: (reference kernels, CMSIS-NN kernels).
# Source: the reference model collection's README (MLPerf Tiny section); figures for the Cortex-M4F.
TFLM_FIGURES = {
    "hello_world_int8": (5_451, 3_570),
    "micro_speech": (9_321_613, 1_502_234),
    "kws": (43_113_652, 7_663_277),
    "vww": (100_487_840, 24_079_823),
    "ic": (107_491_402, 31_203_078),
    "ad": (1_954_677, 583_143),
}
# TFLM's arena for the same models on the same board (bytes, 32-bit target; the same source):
# (reference kernels, CMSIS-NN kernels).
TFLM_ARENA = {
    "hello_world_int8": (676, 772),
    "micro_speech": (6_788, 6_836),
    "kws": (22_772, 22_820),
    "vww": (100_660, 100_708),
    "ic": (54_340, 54_996),
    "ad": (2_260, 2_580),
}
FIGURES_BOARD = "netduinoplus2"
VARIANTS = REPO / "benchmarks" / "boards"  # timing variants: <name>.toml = a board with another [timing]
# Multiply-accumulates per Invoke() of the MLPerf Tiny models (MLPerf Tiny's model descriptions).
MACS = {"kws": 2_660_000, "vww": 7_490_000, "ic": 12_500_000, "ad": 260_000}
# The best published engines, MLPerf Tiny results v1.2/v1.3 (mlcommons/tiny_results): median latency x clock,
# in cycles per inference. Cortex-M4 (NUCLEO-L4R5ZI, 120 MHz): X-CUBE-AI 9.0, X-CUBE-AI 10.2, Plumerai
# 2023.05. Cortex-M33 (STM32U575, 160 MHz): X-CUBE-AI 10.2, Plumerai.
PUBLISHED: dict[str, dict[str, tuple[int | None, int | None, int | None]]] = {
    "cortex-m4": {"kws": (5_180_000, 5_210_000, 5_730_000), "vww": (10_670_000, 10_730_000, 11_850_000),
                  "ic": (19_820_000, 19_880_000, 20_130_000), "ad": (630_000, 580_000, 490_000)},
    "cortex-m33": {"kws": (None, 4_640_000, 4_810_000), "vww": (None, 9_480_000, 9_520_000),
                   "ic": (None, 17_520_000, 16_690_000), "ad": (None, 510_000, 590_000)},
}
PUBLISHED_BOARDS = {"cortex-m4": "nucleo_l4r5zi_timing", "cortex-m33": "mps2_an505"}
BEGIN, END = "model_runner_invoke_begin", "model_runner_invoke_end"


class BenchError(Exception):
    """The benchmark could not measure a model (build, run or check failed); the message says why."""


@dataclass
class Result:
    model: str
    board: str
    instructions: list[int] = field(default_factory=list)  # per case, markers subtracted
    marker_overhead: int | None = None
    cycles: list[int] = field(default_factory=list)  # estimated, per case, markers subtracted
    clock_hz: int | None = None  # the clock the estimate is for
    core: str = ""
    bit_exact: bool | None = None
    mismatches: list[str] = field(default_factory=list)
    flash: int | None = None
    ram: int | None = None
    arena: int | None = None
    arena_persistent: int | None = None  # the runner's arena_persistent_bytes (tail)
    arena_activation: int | None = None  # the runner's arena_activation_bytes (planned head)
    activation_floor: int | None = None  # activation_floor() of the model
    macs: int | None = None  # model_macs() of the model
    note: str = ""

    @property
    def first(self) -> int | None:
        return self.instructions[0] if self.instructions else None


def cases_file(model: Path) -> Path:
    return model.with_name(model.stem + "_cases.json")


ARENA_SPLIT = re.compile(r"^arena_persistent_bytes=(\d+) arena_activation_bytes=(\d+)\r?$", re.MULTILINE)
# Bytes per element of the TFLite tensor types (schema TensorType values).
TYPE_BYTES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8, 11: 16, 12: 8, 13: 16, 14: 4, 15: 2, 16: 1}


def _graph(model: Path) -> tuple[Any, Any]:
    import tflite  # type: ignore[import-untyped]

    root = tflite.Model.GetRootAsModel(model.read_bytes(), 0)
    return root, root.Subgraphs(0)


def _builtin(root: Any, op: Any) -> int:
    code = root.OperatorCodes(op.OpcodeIndex())
    return max(int(code.BuiltinCode()), int(code.DeprecatedBuiltinCode()))


def _shape(tensor: Any) -> list[int]:
    return [int(d) for d in tensor.ShapeAsNumpy()] if tensor.ShapeLength() else []


def activation_floor(model: Path) -> tuple[int, int]:
    """(bytes, op index): the peak over the execution order of the bytes of the non-constant tensors live at an
    op -- graph inputs from op 0, graph outputs to the last op, variables throughout, every other tensor from the
    first to the last op that names it -- each tensor apart (no aliasing, no in-place execution, no alignment),
    and the first op where the peak is reached. What any planner that keeps whole tensors apart needs at least."""
    root, graph = _graph(model)
    tensors = [graph.Tensors(t) for t in range(graph.TensorsLength())]

    def planned(t: int) -> bool:
        buffer = root.Buffers(tensors[t].Buffer())
        constant = buffer is not None and (buffer.DataLength() > 0 or buffer.Offset() > 1)
        return t >= 0 and not constant

    ops = graph.OperatorsLength()
    last = max(ops - 1, 0)
    live: dict[int, list[int]] = {}

    def touch(t: int, op: int) -> None:
        if planned(t):
            span = live.setdefault(t, [op, op])
            span[0], span[1] = min(span[0], op), max(span[1], op)

    for k in range(graph.InputsLength()):
        touch(graph.Inputs(k), 0)
    for i in range(ops):
        op = graph.Operators(i)
        for k in range(op.InputsLength()):
            touch(op.Inputs(k), i)
        for k in range(op.OutputsLength()):
            touch(op.Outputs(k), i)
    for k in range(graph.OutputsLength()):
        touch(graph.Outputs(k), last)
    for t, tensor in enumerate(tensors):
        if tensor.IsVariable():
            touch(t, 0)
            touch(t, last)
    size = {t: int(np.prod(_shape(tensors[t]), dtype=np.int64)) * TYPE_BYTES[tensors[t].Type()] for t in live}
    per_op = [sum(size[t] for t, (first, end) in live.items() if first <= i <= end) for i in range(max(ops, 1))]
    peak = max(per_op)
    return peak, per_op.index(peak)


def op_table(model: Path) -> list[tuple[str, list[int], int]]:
    """Per operator in execution order: its builtin name, its first output's shape and its multiply-accumulates
    per Invoke() (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV: one per filter tap per output
    element; 0 for the other ops)."""
    import tflite

    names = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_") and isinstance(v, int)}
    conv, depthwise = tflite.BuiltinOperator.CONV_2D, tflite.BuiltinOperator.DEPTHWISE_CONV_2D
    fully_connected, transpose = tflite.BuiltinOperator.FULLY_CONNECTED, tflite.BuiltinOperator.TRANSPOSE_CONV
    root, graph = _graph(model)
    table = []
    for i in range(graph.OperatorsLength()):
        op = graph.Operators(i)
        code = _builtin(root, op)
        shape = _shape(graph.Tensors(op.Outputs(0))) if op.OutputsLength() else []
        out = int(np.prod(shape, dtype=np.int64))
        macs = 0
        if code == transpose:  # inputs: output shape, filter [O, H, W, I], input
            filt = _shape(graph.Tensors(op.Inputs(1)))
            macs = int(np.prod(_shape(graph.Tensors(op.Inputs(2))), dtype=np.int64)) * filt[0] * filt[1] * filt[2]
        elif code == conv:  # filter [O, H, W, I]: H*W*I taps per output
            filt = _shape(graph.Tensors(op.Inputs(1)))
            macs = out * filt[1] * filt[2] * filt[3]
        elif code == depthwise:  # filter [1, H, W, C*M]: H*W taps per output
            filt = _shape(graph.Tensors(op.Inputs(1)))
            macs = out * filt[1] * filt[2]
        elif code == fully_connected:  # weights [units, depth]
            macs = out * _shape(graph.Tensors(op.Inputs(1)))[-1]
        table.append((names.get(code, str(code)), shape, macs))
    return table


def model_macs(model: Path) -> int:
    """Multiply-accumulates per Invoke() of the model (op_table's sum)."""
    return sum(macs for _, _, macs in op_table(model))


def build_counter() -> Path:
    """The harness's instruction-counting QEMU plugin (harness/runners/insn_counter/), built with the host C
    compiler on first use (harness.runners.insn_count.plugin_library)."""
    from harness.runners.insn_count import plugin_library

    library = plugin_library()
    if isinstance(library, str):
        raise BenchError(library)
    return library


def marker_addresses(elf: Path, board_tool: str, names: tuple[str, str] = (BEGIN, END)) -> tuple[int, int]:
    begin, end = names
    proc = subprocess.run([board_tool, str(elf)], capture_output=True, text=True, check=True)
    found = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in (begin, end):
            found[parts[2]] = int(parts[0], 16) & ~1  # Thumb: bit 0 marks the instruction set, not the address
    if len(found) != 2:
        raise BenchError(f"{elf} has no {begin}/{end} markers; rebuild the model runner")
    return found[begin], found[end]


def _as_array(value: object, dtype: str) -> np.ndarray:
    return np.asarray(value, dtype=dtype)


def check_outputs(parsed: dict[str, Any], reference: dict[str, Any]) -> list[str]:
    """Mismatches between the firmware's outputs and the cases file's expected outputs (empty: bit-exact)."""
    problems = []
    ref_cases = reference["cases"]
    if len(parsed["cases"]) != len(ref_cases):
        return [f"{len(parsed['cases'])} cases ran, the cases file has {len(ref_cases)}"]
    for index, (got, want) in enumerate(zip(parsed["cases"], ref_cases, strict=True)):
        expected = want.get("expected_outputs", [want.get("expected")])
        dtypes = want.get("expected_dtypes", [want.get("expected_dtype")])
        for o, (exp, dtype) in enumerate(zip(expected, dtypes, strict=True)):
            if o >= len(got["outputs"]):
                problems.append(f"case {index}: output {o} missing")
                continue
            ours = _as_array(got["outputs"][o]["data"], got["outputs"][o]["dtype"]).ravel()
            ref = _as_array(exp, dtype).ravel()
            if ours.shape != ref.shape or not np.array_equal(ours, ref):
                if ours.shape != ref.shape:
                    diff = "shape"
                else:
                    diff = f"max |diff| {int(np.max(np.abs(ours.astype(np.int64) - ref.astype(np.int64))))}"
                problems.append(f"case {index} output {o}: differs from the reference ({diff})")
    return problems


def measure(name: str, board_name: str, timeout_s: float = 600, make_vars: dict[str, str] | None = None,
            skips: list[tuple[int, int]] | None = None) -> Result:
    """One model on one board (or timing variant). `skips`: address ranges [low, high) whose instructions the
    plugin leaves out of both counts (profile_target.py's per-function cycles)."""
    model = MODELS[name]
    cases = cases_file(model)
    board, timed = bench_board(board_name)
    result = Result(name, board_name)
    try:
        elf = build_runner(model, board, cases, make_vars=make_vars)
    except (RunModelError, BuildError) as error:
        raise BenchError(f"{name} on {board_name}: {str(error).splitlines()[0]}") from None
    result.flash, result.ram = elf_sizes(elf, board)
    result.core = board.core
    begin, end = marker_addresses(elf, board.tool("nm"))
    timing = timed.timing()
    text, parsed, figures = counted_run(f"{name} on {board_name}", elf, board, timed, (begin, end), skips, timeout_s)
    counts = figures.instructions
    if len(counts) != len(parsed["cases"]) + 1:
        raise BenchError(f"{name} on {board_name}: {len(counts)} marker counts for {len(parsed['cases'])} cases "
                         "(expected one calibration pair plus one per case)")
    result.marker_overhead = counts[0]
    result.instructions = [c - counts[0] for c in counts[1:]]
    if figures.cycles and timing is not None:
        result.cycles = [c - figures.cycles[0] for c in figures.cycles[1:]]
        result.clock_hz = timing.clock_hz
    result.arena = parsed["arena_used_bytes"]
    if split := ARENA_SPLIT.search(text):
        result.arena_persistent, result.arena_activation = int(split.group(1)), int(split.group(2))
    result.activation_floor, _ = activation_floor(model)
    result.macs = model_macs(model)
    result.mismatches = check_outputs(parsed, json.loads(cases.read_text()))
    result.bit_exact = not result.mismatches
    return result


def counted_run(what: str, elf: Path, board: Board, timed: Board, markers: tuple[int, int],
                skips: list[tuple[int, int]] | None = None, timeout_s: float = 600) -> tuple[str, dict[str, Any], Any]:
    """Runs a model runner under QEMU with the counting plugin between the marker addresses (and the cycle
    estimate of `timed`'s [timing]); returns the firmware's output, its parsed log and the plugin's figures."""
    begin, end = markers
    plugin = build_counter()
    with tempfile.TemporaryDirectory() as tmp:
        counts_file = Path(tmp) / "counts.txt"
        argv = qemu_command(elf, board, icount=0)
        # per_insn=1: exact under -icount (its I/O recompilation leaves translation blocks part-way)
        argv[1:1] = ["-plugin", f"{plugin},begin=0x{begin:x},end=0x{end:x},out={counts_file},per_insn=1"
                                f"{timing_args(timed.timing())}"
                                + "".join(f",skip=0x{low:x}-0x{high:x}" for low, high in skips or [])]
        try:
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise BenchError(f"{what}: QEMU did not finish in {timeout_s:g} s") from None
        text = proc.stdout.decode("utf-8", errors="replace")
        try:
            parsed = parse_runner_log(text)
        except (RunModelError, BuildError) as error:
            stderr = proc.stderr.decode(errors="replace").strip()
            raise BenchError(f"{what}: {error}\n{stderr[-1000:]}") from None
        return text, parsed, read_counts(counts_file)


def _fmt(value: int | None) -> str:
    return "n/a" if value is None else f"{value:,}"


def _ratio(ours: int | None, theirs: int | None, decimals: int = 2) -> str:
    return f"{ours / theirs:.{decimals}f}x" if ours and theirs else "n/a"


def render_arena(results: list[Result]) -> str:
    """The arena table: ours on the board beside TFLM's (reference kernels, CMSIS-NN kernels), with ratios."""
    lines = [
        "| model | board | arena ours | TFLM reference kernels | ratio | TFLM + CMSIS-NN | ratio | persistent | "
        "activation | activation floor | activation ÷ floor |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        ref, cmsis = TFLM_ARENA.get(r.model, (None, None)) if r.board == FIGURES_BOARD else (None, None)
        lines.append(f"| {r.model} | {r.board} | {_fmt(r.arena)} | {_fmt(ref)} | {_ratio(r.arena, ref)} | "
                     f"{_fmt(cmsis)} | {_ratio(r.arena, cmsis)} | {_fmt(r.arena_persistent)} | "
                     f"{_fmt(r.arena_activation)} | {_fmt(r.activation_floor)} | "
                     f"{_ratio(r.arena_activation, r.activation_floor)} |")
    return "\n".join(lines)


def _mcycles(value: int | None) -> str:
    return "n/a" if value is None else f"{value / 1e6:.2f} M"


def render_cycles(results: list[Result]) -> str:
    """Estimated cycles per Invoke() beside the best published engines' measured cycles, on the board that
    stands for the one they were measured on; cycles per MAC for the MLPerf models."""
    lines = [
        "| model | board | est. cycles/Invoke ours | est. time | instr/Invoke | cycles/MAC | X-CUBE-AI 9.0 | "
        "X-CUBE-AI 10.2 | Plumerai | ours ÷ best |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if not r.cycles or r.clock_hz is None:
            continue
        ours = r.cycles[0]
        published = PUBLISHED.get(r.core, {}).get(r.model) if PUBLISHED_BOARDS.get(r.core) == r.board else None
        xcube9, xcube10, plumerai = published or (None, None, None)
        best = min((v for v in (xcube9, xcube10, plumerai) if v), default=None)
        macs = MACS.get(r.model)
        per_mac = f"{ours / macs:.2f}" if macs else "n/a"
        lines.append(f"| {r.model} | {r.board} | {_fmt(ours)} | {ours / r.clock_hz * 1e3:.2f} ms at "
                     f"{r.clock_hz / 1e6:g} MHz | {_fmt(r.first)} | {per_mac} | {_mcycles(xcube9)} | "
                     f"{_mcycles(xcube10)} | {_mcycles(plumerai)} | {_ratio(ours, best, 3)} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def render(results: list[Result]) -> str:
    lines = [
        "| model | board | instr/Invoke ours | TFLM + CMSIS-NN | ratio | TFLM reference kernels | ratio | "
        "outputs | flash | MACs | instr/MAC |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in results:
        ref, cmsis = TFLM_FIGURES.get(r.model, (None, None))
        if r.board != FIGURES_BOARD:
            ref = cmsis = None  # TFLM's figures are for the Cortex-M4F board only
        ours = r.first
        ratio_cmsis = _ratio(ours, cmsis)
        ratio_ref = _ratio(ours, ref)
        outputs = "n/a" if r.bit_exact is None else ("bit-exact" if r.bit_exact else "**DIFFER**")
        if r.note:
            outputs = r.note
        per_mac = f"{ours / r.macs:.2f}" if ours and r.macs else "n/a"
        lines.append(f"| {r.model} | {r.board} | {_fmt(ours)} | {_fmt(cmsis)} | {ratio_cmsis} | {_fmt(ref)} | "
                     f"{ratio_ref} | {outputs} | {_fmt(r.flash)} | {_fmt(r.macs)} | {per_mac} |")
    spread = [f"{r.model}/{r.board} {min(r.instructions):,}-{max(r.instructions):,}" for r in results
              if r.instructions and min(r.instructions) != max(r.instructions)]
    if spread:
        lines += ["", "Instructions vary with the input (all cases, min-max): " + "; ".join(spread)]
    for r in results:
        for problem in r.mismatches:
            lines.append(f"\n{r.model} on {r.board}: {problem}")
    lines += ["", "Arena (bytes; ours: arena_used_bytes on the board; persistent and activation: its parts as the "
              "runner prints them; activation floor: activation_floor() of the .tflite, the peak of simultaneously "
              "live tensors without in-place reuse):", "", render_arena(results)]
    cycles = render_cycles(results)
    if cycles:
        lines += ["", "Estimated cycles per Invoke() (the plugin's Cortex-M timing model with the board's [timing]; "
                  "an estimate, docs/measurement.md) beside the best published engines (measured):", "", cycles]
    return "\n".join(lines)


def bench_board(name: str) -> tuple[Board, Board]:
    """(the board to build and emulate, the board whose [timing] the estimate uses): the same board, or for a
    timing variant (benchmarks/boards/<name>.toml) its base board and the base with the variant's [timing]."""
    import dataclasses
    import tomllib

    variant = VARIANTS / f"{name}.toml"
    if not variant.is_file():
        board = load_board(name)
        return board, board
    table = tomllib.loads(variant.read_text())
    base = load_board(table["variant"]["board"])
    timed = dataclasses.replace(base, raw={**base.raw, "timing": table["timing"]})
    timed.timing()  # checked as a board file's [timing] is
    return base, timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", help="board(s) to measure (default: netduinoplus2); repeatable")
    parser.add_argument("--models", nargs="*", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--timeout", type=float, default=600, help="QEMU time limit per model run, seconds")
    parser.add_argument("--make", action="append", default=[], metavar="VAR=VALUE",
                        help="extra make variable for the firmware build, e.g. KERNEL_OPT=-Os; repeatable")
    args = parser.parse_args(argv)
    make_vars = dict(item.split("=", 1) for item in args.make)
    boards = args.board or [FIGURES_BOARD]
    results, failed = [], False
    for board in boards:
        for name in args.models:
            try:
                results.append(measure(name, board, args.timeout, make_vars or None))
            except BenchError as error:
                message = str(error)
                fits = "does not fit" in message
                failed |= not fits
                results.append(Result(name, board, note="does not fit" if fits else "failed"))
                print(f"target_bench: {message}", file=sys.stderr)
    print(render(results))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 1 if failed or any(r.bit_exact is False for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
