"""A farm night against the same suite on local QEMU (issue 19, part 5), and where a farm binary's time goes.

1. the bluepill micro suite with ``pytest -n 2 -m micro``: on local QEMU, then through a labgrid farm of two
   emulated bluepill places (``harness.farm.demo``: coordinator + 2 exporter hosts on 127.0.0.1), runs
   alternating; the ratio farm / local (target <= 1.5);
2. one binary, per run: local QEMU, the gdbremote runner straight to an emulated board, and through the farm
   (acquire, run, release); and the farm run's fixed waits (``time.sleep``) by the function that slept.

    python3 benchmarks/farm_night_bench.py [--runs N] [--binary micro_log_test] [--paths micro_runtime]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness_bench import print_table  # benchmarks/ is the script's folder

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import ensure_binary
from harness.farm.demo import FarmDemo
from harness.farm.farm_runner import FarmRunner, close_sessions
from harness.hil.devices import HardwareMap
from harness.runners import get_runner
from harness.runners.gdbremote_runner import GdbRemoteConfig, GdbRemoteRunner


def suite(paths: list[str], rack: Path | None) -> tuple[float, str]:
    """Seconds of one ``pytest -n 2`` run of the micro suite (locally, or on the farm of ``rack``)."""
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "2",
            "--board=bluepill", "-m", "micro", *paths]
    if rack is not None:
        argv.append(f"--hardware-map={rack}")
    start = time.perf_counter()
    out = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"the suite failed ({'farm' if rack else 'local'}):\n{out.stdout[-3000:]}")
    return seconds, out.stdout.strip().splitlines()[-1]


def sleeps_of(run: Any) -> dict[str, float]:
    """Seconds ``run()`` spent in ``time.sleep``, by the function that called it."""
    spent: dict[str, float] = defaultdict(float)
    real = time.sleep

    def counted(seconds: float) -> None:
        caller = sys._getframe(1)
        spent[f"{Path(caller.f_code.co_filename).stem}.{caller.f_code.co_name}"] += seconds
        real(seconds)

    time.sleep = counted  # type: ignore[assignment]
    try:
        run()
    finally:
        time.sleep = real
    return dict(spent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default="micro_log_test")
    parser.add_argument("--paths", nargs="+", default=["micro_runtime"])
    args = parser.parse_args()
    board = load_board("bluepill")
    elf = ensure_binary(board, args.binary, progress=None)
    count = len(list((REPO_ROOT / "micro_runtime").rglob("*_test.cc"))) if args.paths == ["micro_runtime"] else 0
    with FarmDemo(board, hosts=2) as demo:
        rack = demo.write_map(demo.workdir / "farm.toml")
        suite(args.paths, None)  # builds what is missing, warms the caches
        local, farm = [], []
        for _ in range(args.runs):
            local.append(suite(args.paths, None)[0])
            seconds, summary = suite(args.paths, rack)
            farm.append(seconds)
        qemu = get_runner("qemu")
        emulated = demo.boards[sorted(demo.boards)[0]]
        direct = GdbRemoteRunner(GdbRemoteConfig(emulated.gdb_address, serial=emulated.serial_url,
                                                 emulation_guard=True))
        farm_runner = FarmRunner(HardwareMap([], farm={"coordinator": demo.coordinator}))
        per: dict[str, list[float]] = defaultdict(list)
        try:
            for _ in range(args.runs * 3):
                for name, runner in (("local QEMU", qemu), ("gdbremote, straight", direct), ("farm", farm_runner)):
                    start = time.perf_counter()
                    result = runner.run(elf, board, 60)
                    per[name].append(time.perf_counter() - start)
                    if result.infra_error or not result.log:
                        raise SystemExit(f"{args.binary} did not run ({name}): {result.infra_error}")
            waits = sleeps_of(lambda: farm_runner.run(elf, board, 60))
        finally:
            close_sessions()
    local_s, farm_s = statistics.median(local), statistics.median(farm)
    rows = [
        (f"micro suite, -n 2, local QEMU{f' ({count} binaries)' if count else ''}", f"{local_s:.1f} s", ""),
        ("the same through the farm (2 places)", f"{farm_s:.1f} s", summary),
        ("**farm / local**", f"**{farm_s / local_s:.2f}x**", "target <= 1.5x"),
    ]
    rows += [(f"{args.binary}: {name}", f"{statistics.median(samples):.3f} s", "per binary")
             for name, samples in per.items()]
    rows += [(f"  of the farm run: time.sleep in {where}", f"{seconds:.3f} s", "")
             for where, seconds in sorted(waits.items(), key=lambda item: -item[1]) if seconds >= 0.01]
    print_table(rows, f"median of {args.runs} suite runs, {args.runs * 3} single runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
