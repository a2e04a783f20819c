"""Harness benchmarks: what the harness costs on top of the emulator, and how fast it reports.

    python3 benchmarks/harness_bench.py                 # overhead + latency (about a minute)
    python3 benchmarks/harness_bench.py --suite         # + full bluepill suite, clean and incremental

1. Overhead per binary: median wall time of the raw ``qemu-system-arm`` command (same
   command line the QEMU runner uses) vs the harness's run session on the same ELF
   (``harness.session.run_binary``: what every pytest binary, ``harness run`` and ``dut`` cost;
   the run token, the ELF's case list, the live reader and its verdict included). Target: <= 0.1 s.
   The ``python -m harness run`` row adds interpreter start-up and imports, paid once per CLI call,
   not per pytest binary.
2. Detection latency: from the moment the device's failure/fault line reaches the harness
   to the moment the harness has a verdict (run returned and parsed). Where the transport
   carries an exit status (QEMU semihosting here) the verdict waits for the device's exit:
   target < 0.1 s. Where none exists (a board declaring ``[run] exit_status = false``, firmware
   that spins after its end of run, as on a UART): end of run -> verdict, target <= 0.5 s.
3. Suite wall time (``--suite``): ``pytest --board=bluepill micro_runtime`` after deleting
   ``micro_runtime/gen/bluepill`` (clean) and once more with nothing changed (incremental).
   This deletes the board's build outputs of this checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import build_program
from harness.build.make import gen_dir
from harness.runners.qemu import qemu_command
from harness.session import RunOptions, run_binary

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "micro"


def _fixture_elf(board_name: str, name: str) -> Path:
    board = load_board(board_name)
    built = build_program(board, FIXTURES / f"pytester_{name}.cc", f"bench_{name}_test", progress=None)
    if built.elf is None:
        raise SystemExit(f"cannot build the {name} fixture for {board_name}: {built.error}")
    return built.elf


def overhead(board_name: str, runs: int) -> dict[str, float]:
    board = load_board(board_name)
    elf = _fixture_elf(board_name, "pass")
    argv = qemu_command(elf.resolve(), board)
    raw, harness = [], []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       check=False, timeout=60)
        raw.append(time.perf_counter() - start)
        start = time.perf_counter()
        report = run_binary(board, elf, RunOptions(backend="qemu", timeout_s=60))  # what each pytest binary costs
        harness.append(time.perf_counter() - start)
        assert report.outcome == "passed", report.summary
    cli = []
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    for _ in range(max(3, runs // 3)):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "harness", "run", "-q", str(elf), "--board", board_name, "--backend",
                        "qemu"], env=env, stdout=subprocess.DEVNULL, check=True, timeout=60)
        cli.append(time.perf_counter() - start)
    raw_median, harness_median = statistics.median(raw), statistics.median(harness)
    return {"raw_s": raw_median, "harness_s": harness_median, "overhead_s": harness_median - raw_median,
            "cli_s": statistics.median(cli)}


COUNTED = ("micro_test_test", "softmax_test", "model_robustness_test")  # 0.04 s .. 2 s runs


def counting_cost(board_name: str, runs: int, binaries: tuple[str, ...] = COUNTED) -> dict[str, dict[str, float]]:
    """Fastest run time of in-tree binaries with the per-case plugin (QEMU TCG plugin: instructions, estimated
    cycles and stack), with instructions only (``MICRO_HARNESS_NO_CYCLES=1``) and without it
    (``MICRO_HARNESS_NO_COUNTS=1``): what measuring costs per binary, in seconds and in share."""
    from harness.build.driver import build
    from harness.runners.insn_count import NO_CYCLES_ENV, OFF_ENV

    board = load_board(board_name)
    built = build(board, list(binaries), progress=None).binaries
    found = {}
    for name in binaries:
        elf = built[name].elf
        if elf is None:
            raise SystemExit(f"cannot build {name} for {board_name}: {built[name].error}")
        times: dict[str, list[float]] = {"counted": [], "instructions": [], "plain": []}
        switches = {"counted": None, "instructions": NO_CYCLES_ENV, "plain": OFF_ENV}
        for _ in range(runs):
            for label, switch in switches.items():
                if switch is not None:
                    os.environ[switch] = "1"
                try:
                    start = time.perf_counter()
                    report = run_binary(board, elf, RunOptions(backend="qemu", timeout_s=120))
                    times[label].append(time.perf_counter() - start)
                finally:
                    if switch is not None:
                        os.environ.pop(switch, None)
                if report.outcome != "passed" or (label != "plain") != bool(report.case_instructions) or \
                        (label == "counted") != bool(report.case_cycles):
                    raise SystemExit(f"{name} ({label}): {report.outcome}, {len(report.case_instructions)} counts, "
                                     f"{len(report.case_cycles)} cycle estimates")
        # The fastest of many interleaved runs: the cost itself, not the machine's noise (a 0.04 s run varies by
        # more than the plugin costs).
        counted, instructions, plain = min(times["counted"]), min(times["instructions"]), min(times["plain"])
        found[name] = {"counted_s": round(counted, 3), "instructions_only_s": round(instructions, 3),
                       "plain_s": round(plain, 3), "share": round((counted - plain) / plain, 3),
                       "instructions_only_share": round((instructions - plain) / plain, 3)}
    return found


def latency(board_name: str, name: str, marker: str, runs: int) -> float:
    """Median seconds from the line containing ``marker`` arriving to the verdict."""
    board = load_board(board_name)
    elf = _fixture_elf(board_name, name)
    samples = []
    for _ in range(runs):
        seen: list[float] = []

        def on_line(line: str, seen: list[float] = seen) -> None:
            if marker in line and not seen:
                seen.append(time.perf_counter())

        result = run_binary(board, elf, RunOptions(backend="qemu", timeout_s=60), on_line=on_line)
        done = time.perf_counter()
        if not seen:
            raise SystemExit(f"{name}: '{marker}' never printed; log: {result.log[-500:]!r}")
        samples.append(done - seen[0])
    return statistics.median(samples)


def end_without_exit(runs: int) -> float:
    """Median seconds from the end-of-run line to the verdict on a board with no exit status
    (the runner's mini firmware spinning after its sentinel, QEMU, ``[run] exit_status = false``)."""
    import tempfile

    from harness.testing.mini_fw import build_mini_firmware, mini_board

    board = mini_board(run={"exit_status": False})
    with tempfile.TemporaryDirectory() as tmp:
        elf = build_mini_firmware("PASS", Path(tmp), halt=True)
        samples = []
        for _ in range(runs):
            seen: list[float] = []

            def on_line(line: str, seen: list[float] = seen) -> None:
                if "~~~ALL TESTS PASSED~~~" in line and not seen:
                    seen.append(time.perf_counter())

            report = run_binary(board, elf, RunOptions(backend="qemu", timeout_s=60), on_line=on_line)
            done = time.perf_counter()
            if not seen or report.outcome != "passed":
                raise SystemExit(f"no clean end of run: {report.summary}; log: {report.log[-300:]!r}")
            samples.append(done - seen[0])
    return statistics.median(samples)


def suite(board_name: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--board={board_name}", "micro_runtime",
            "-m", "micro"]
    shutil.rmtree(gen_dir(board_name), ignore_errors=True)
    times = {}
    for label in ("clean_s", "incremental_s"):
        start = time.perf_counter()
        out = subprocess.run(argv, cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=False)
        times[label] = time.perf_counter() - start
        summary = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr[-300:]
        print(f"  {label}: {times[label]:.1f} s  ({summary})", file=sys.stderr)
        counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", summary)}
        times["items"] = float(sum(counts.values()))
        cases = re.search(r"harness: (\d+) micro test cases ran", out.stdout)
        times["cases"] = float(cases.group(1)) if cases else 0.0
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="bluepill")
    parser.add_argument("--runs", type=int, default=9, help="repetitions per measurement (median reported)")
    parser.add_argument("--suite", action="store_true", help="also time the full suite clean + incremental")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE",
                        help="also write the figures to FILE (README and docs/harness.md are checked against "
                        "benchmarks/results/harness_bench.json by tests/test_docs_figures.py)")
    args = parser.parse_args()
    figures: dict[str, object] = {"board": args.board, "runs": args.runs, "date": time.strftime("%Y-%m-%d"),
                                  "cpus": os.cpu_count()}

    rows: list[tuple[str, str, str]] = []
    o = overhead(args.board, args.runs)
    rows.append(("raw qemu-system-arm run (pass fixture)", f"{o['raw_s']:.3f} s", ""))
    rows.append(("harness run session (run_binary), same ELF", f"{o['harness_s']:.3f} s", ""))
    rows.append(("harness overhead per binary", f"{o['overhead_s']:+.3f} s", "target <= 0.100 s"))
    rows.append(("`python -m harness run` (incl. Python start-up)", f"{o['cli_s']:.3f} s", ""))
    fail = latency(args.board, "fail", "failed at", args.runs)
    rows.append(("failure line -> verdict (exit status)", f"{fail:.3f} s", "target < 0.1 s"))
    crash = latency(args.board, "crash", "HardFault", args.runs)
    rows.append(("HardFault line -> verdict (exit status)", f"{crash:.3f} s", "target < 0.1 s"))
    end = end_without_exit(args.runs)
    rows.append(("end of run -> verdict (no exit status)", f"{end:.3f} s", "target <= 0.5 s"))
    counting = counting_cost(args.board, max(args.runs, 15))
    for name, cost in counting.items():
        rows.append((f"{name}: with the plugin: instructions, est. cycles, stack (fastest run)",
                     f"{cost['counted_s']:.3f} s", f"{cost['plain_s']:.3f} s without: {cost['share']:+.0%}, "
                     f"instructions only {cost['instructions_only_share']:+.0%} (target <= 20 %)"))
    figures["counting"] = counting
    figures.update(overhead_s=round(o["overhead_s"], 3), raw_s=round(o["raw_s"], 3),
                   harness_s=round(o["harness_s"], 3), cli_s=round(o["cli_s"], 3), failure_to_verdict_s=round(fail, 3),
                   hardfault_to_verdict_s=round(crash, 3), end_without_exit_s=round(end, 3))
    if args.suite:
        times = suite(args.board)
        figures["suite"] = {"clean_s": round(times["clean_s"], 1), "incremental_s": round(times["incremental_s"], 1),
                            "items": int(times["items"]), "cases": int(times["cases"])}
        rows.append((f"pytest --board={args.board} micro_runtime, clean", f"{times['clean_s']:.1f} s", ""))
        rows.append((f"pytest --board={args.board} micro_runtime, no change", f"{times['incremental_s']:.1f} s", ""))

    print_table(rows, f"board {args.board}, {args.runs} runs")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


def print_table(rows: list[tuple[str, str, str]], context: str) -> None:
    """(measurement, median, note) rows, aligned, under a header naming the run and the machine's load."""
    width = max(len(r[0]) for r in rows)
    load = os.getloadavg()[0]
    print(f"{'measurement'.ljust(width)}  {'median':>9}  note   ({context}, {os.cpu_count()} CPUs, "
          f"load average {load:.1f})")
    for label, value, note in rows:
        print(f"{label.ljust(width)}  {value:>9}  {note}")


if __name__ == "__main__":
    sys.exit(main())
