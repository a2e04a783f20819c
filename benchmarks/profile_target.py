#!/usr/bin/env python3
"""Where a model's instructions go on the target: executed instructions per function under QEMU.

Builds the model runner like benchmarks/target_bench.py, runs it with the per-address counting plugin
(benchmarks/insn_counter/insn_profile.c) and maps the addresses to the ELF's functions. Kernels are
inlined into their op's Eval, so the table reads per op. The whole run is counted (setup and every case);
the "per Invoke" column divides by the number of cases.

With --per-op it instead prints each operator's instructions and estimated cycles per Invoke() on a timing
board (a runner built with make OP_MARKERS=1, whose interpreter calls marker functions around each operator;
the plugin counts from each begin to its end), beside the operator's multiply-accumulates.

Usage: python benchmarks/profile_target.py MODEL [--board netduinoplus2] [--top 25] [--make VAR=VALUE]
       python benchmarks/profile_target.py MODEL --per-op [--timing-board nucleo_l4r5zi_timing]
"""

from __future__ import annotations

import argparse
import bisect
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.target_bench import MODELS, cases_file  # noqa: E402
from harness.board.boards import load_board  # noqa: E402
from harness.build.model_runner import build_runner  # noqa: E402
from harness.cli.run_model import parse_runner_log  # noqa: E402
from harness.runners.qemu import qemu_command  # noqa: E402

OP_BEGIN, OP_END = "micro_runtime_op_begin", "micro_runtime_op_end"  # micro_interpreter.cc, OP_MARKERS=1
PROFILE_SRC = REPO / "benchmarks" / "insn_counter" / "insn_profile.c"
PROFILE_SO = REPO / "micro_runtime" / "gen" / "tools" / "insn_profile.so"


def build_plugin() -> Path:
    if PROFILE_SO.is_file() and PROFILE_SO.stat().st_mtime >= PROFILE_SRC.stat().st_mtime:
        return PROFILE_SO
    PROFILE_SO.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden",
                    f"-I{REPO / 'harness' / 'runners' / 'insn_counter'}", "-o", str(PROFILE_SO), str(PROFILE_SRC)],
                   check=True)
    return PROFILE_SO


def functions(elf: Path, nm: str) -> tuple[list[int], list[str], list[int]]:
    """The ELF's functions by address: starts, names and sizes (0 where nm knows none)."""
    out = subprocess.run([nm, "-C", "--defined-only", "-n", "-S", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    starts, names, sizes = [], [], []
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        sized = len(parts) == 4 and parts[2] in "tTwW"
        if sized or (len(parts) == 3 and parts[1] in "tTwW"):
            starts.append(int(parts[0], 16) & ~1)
            names.append(parts[3] if sized else parts[2])
            sizes.append(int(parts[1], 16) if sized else 0)
    return starts, names, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=list(MODELS))
    parser.add_argument("--board", default="netduinoplus2")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--make", action="append", default=[], metavar="VAR=VALUE")
    parser.add_argument("--cycles", type=int, default=0, metavar="N",
                        help="also estimate the cycles per Invoke of the N functions with the most instructions, on "
                             "--timing-board: the Invoke's estimated cycles minus those with the function left out "
                             "(one run per function)")
    parser.add_argument("--timing-board", default="nucleo_l4r5zi_timing",
                        help="board or timing variant for --cycles and --per-op (default: nucleo_l4r5zi_timing)")
    parser.add_argument("--per-op", action="store_true",
                        help="instead: instructions and estimated cycles per operator of Invoke() on --timing-board")
    parser.add_argument("--annotate", metavar="TEXT",
                        help="also print the disassembly of the hottest function whose name contains TEXT, "
                             "each instruction with its executions per Invoke")
    args = parser.parse_args(argv)
    if args.per_op:
        return per_op(args.model, args.timing_board)
    board = load_board(args.board)
    model = MODELS[args.model]
    elf = build_runner(model, board, cases_file(model), make_vars=dict(m.split("=", 1) for m in args.make) or None)
    plugin = build_plugin()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "profile.txt"
        argv_q = qemu_command(elf, board, icount=0)
        argv_q[1:1] = ["-plugin", f"{plugin},out={out}"]
        proc = subprocess.run(argv_q, stdin=subprocess.DEVNULL, capture_output=True, timeout=1200)
        cases = len(parse_runner_log(proc.stdout.decode("utf-8", errors="replace"))["cases"])
        counts = [(int(a, 16), int(c)) for a, c in (line.split() for line in out.read_text().splitlines())]
    starts, names, sizes = functions(elf, board.tool("nm"))
    per_fn: Counter[str] = Counter()
    for addr, count in counts:
        i = bisect.bisect_right(starts, addr) - 1
        per_fn[names[i] if i >= 0 else f"0x{addr:x}"] += count
    total = sum(per_fn.values())
    print(f"{args.model} on {args.board}: {total:,} instructions in the run, {cases} cases")
    print(f"{'per Invoke':>12} {'share':>6}  function")
    for name, count in per_fn.most_common(args.top):
        print(f"{count // max(cases, 1):>12,} {100 * count / total:5.1f}%  {name[:110]}")
    if args.cycles:
        ranges: dict[str, tuple[int, int]] = {}
        for start, name, size in zip(starts, names, sizes, strict=True):
            if size:
                ranges.setdefault(name, (start, start + size))  # a name twice (static functions): the first
        function_cycles(args.model, args.timing_board, ranges, [name for name, _ in per_fn.most_common(args.cycles)])
    if args.annotate:
        chosen = [name for name, _ in per_fn.most_common() if args.annotate in name]
        if not chosen:
            print(f"no executed function's name contains {args.annotate!r}", file=sys.stderr)
            return 1
        annotate(elf, board.tool("objdump"), chosen[0], dict(counts), max(cases, 1))
    return 0


def per_op(model_name: str, timing_board: str) -> int:
    """Prints instructions and estimated cycles per Invoke() of each operator (the average over the cases)."""
    from benchmarks.target_bench import BenchError, bench_board, check_outputs, counted_run, marker_addresses, op_table

    model = MODELS[model_name]
    cases = cases_file(model)
    board, timed = bench_board(timing_board)
    what = f"{model_name} on {timing_board}"
    try:
        elf = build_runner(model, board, cases, make_vars={"OP_MARKERS": "1"})
        markers = marker_addresses(elf, board.tool("nm"), (OP_BEGIN, OP_END))
        _, parsed, figures = counted_run(what, elf, board, timed, markers)
    except BenchError as error:
        print(f"profile_target: {error}", file=sys.stderr)
        return 1
    ops = op_table(model)
    runs = len(parsed["cases"])
    if not runs or len(figures.instructions) != len(ops) * runs:
        print(f"profile_target: {what}: {len(figures.instructions)} operator counts for {len(ops)} operators and "
              f"{runs} cases (an operator without an invoke, or a failed run)", file=sys.stderr)
        return 1
    mismatches = check_outputs(parsed, json.loads(cases.read_text()))
    cycles = figures.cycles or [0] * len(figures.instructions)

    def mean(values: list[int], op: int) -> float:
        return sum(values[c * len(ops) + op] for c in range(runs)) / runs

    total_cycles = sum(mean(cycles, i) for i in range(len(ops)))
    print(f"{what}: per operator and Invoke() (mean of {runs} cases; each figure includes its marker calls, "
          "a few instructions)")
    print("| # | operator | output | MACs | instructions | est. cycles | cycles/MAC | share |")
    print("|---:|---|---|---:|---:|---:|---:|---:|")
    for i, (name, shape, macs) in enumerate(ops):
        insns, cyc = mean(figures.instructions, i), mean(cycles, i)
        per_mac = f"{cyc / macs:.2f}" if macs and cyc else "-"
        share = f"{100 * cyc / total_cycles:.1f} %" if total_cycles else "-"
        print(f"| {i} | {name} | {'x'.join(map(str, shape))} | {macs:,} | {insns:,.0f} | {cyc:,.0f} | {per_mac} | "
              f"{share} |")
    total_insns = sum(mean(figures.instructions, i) for i in range(len(ops)))
    macs = sum(m for _, _, m in ops)
    print(f"| | all | | {macs:,} | {total_insns:,.0f} | {total_cycles:,.0f} | "
          f"{total_cycles / macs if macs else 0:.2f} | |")
    if mismatches:
        print(f"profile_target: {what}: outputs not bit-exact ({mismatches[0]})", file=sys.stderr)
        return 1
    return 0


def function_cycles(model: str, timing_board: str, ranges: dict[str, tuple[int, int]], names: list[str]) -> None:
    """Estimated cycles per Invoke spent in each named function (inlined code counts as its caller's):
    target_bench's measurement with and without the function's address range [low, high)."""
    from benchmarks.target_bench import measure

    def per_invoke(skips: list[tuple[int, int]]) -> float:
        cycles = measure(model, timing_board, skips=skips).cycles
        if not cycles:
            raise SystemExit(f"{timing_board} has no [timing]: no cycle estimate")
        return sum(cycles) / len(cycles)

    total = per_invoke([])
    print(f"\nestimated cycles per Invoke on {timing_board}: {total:,.0f}")
    print(f"{'cycles':>12} {'share':>6}  function")
    for name in names:
        if name not in ranges:
            continue
        inside = total - per_invoke([ranges[name]])
        print(f"{inside:>12,.0f} {100 * inside / total:5.1f}%  {name[:110]}")


def annotate(elf: Path, objdump: str, function: str, counts: dict[int, int], cases: int) -> None:
    """The function's disassembly, each instruction prefixed with its executions per Invoke."""
    listing = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", str(elf)], capture_output=True,
                             text=True, check=True).stdout
    inside = False
    print(f"\n{function}:")
    for line in listing.splitlines():
        if line.endswith(">:"):
            inside = f"<{function}>:" in line
            continue
        if not inside or ":" not in line:
            continue
        head = line.split(":", 1)[0].strip()
        try:
            addr = int(head, 16)
        except ValueError:
            continue
        print(f"{counts.get(addr, 0) // cases:>10,}  {line.strip()}")


if __name__ == "__main__":
    sys.exit(main())
