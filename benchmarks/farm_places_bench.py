"""Device-farm benchmark on a real labgrid on 127.0.0.1 (coordinator + 2 exporter hosts of
emulated bluepills, started by ``harness.farm.demo``):

1. place acquire + release, in-process through labgrid's client library (target <= 50 ms);
2. a freed board reaches a waiting client (target <= 2 s);
3. farm overhead per binary: the same ELF on the same emulated board through the farm
   (acquire, gdbremote run, release) vs the gdbremote runner pointed at that board directly
   (target <= 0.1 s).

    python3 benchmarks/farm_places_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness_bench import print_table  # benchmarks/ is the script's folder

from harness.board.boards import load_board
from harness.build.driver import ensure_binary
from harness.farm.demo import FarmDemo
from harness.farm.farm_runner import FarmRunner, close_sessions
from harness.farm.places import Farm
from harness.formats.reader import parse_log
from harness.hil.devices import HardwareMap
from harness.runners.gdbremote_runner import GdbRemoteConfig, GdbRemoteRunner


def acquire_release(farm: Farm, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        place = farm.acquire("bluepill")
        farm.release(place.name)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def freed_to_waiter(demo: FarmDemo, runs: int) -> float:
    holder, waiter = Farm(demo.coordinator), Farm(demo.coordinator)
    samples = []
    try:
        for _ in range(runs):
            held = [holder.acquire("bluepill") for _ in demo.boards]  # every board busy
            got: list[float] = []

            def wait(got: list[float] = got) -> None:
                waiter.acquire("bluepill", timeout_s=30)
                got.append(time.perf_counter())

            thread = threading.Thread(target=wait)
            thread.start()
            time.sleep(0.3)
            freed = time.perf_counter()
            holder.release(held[0].name)
            thread.join(30)
            samples.append(got[0] - freed)
            for place in held[1:]:
                holder.release(place.name)
            waiter.release(held[0].name)
    finally:
        holder.close()
        waiter.close()
    return statistics.median(samples)


def overhead(demo: FarmDemo, runs: int) -> tuple[float, float]:
    board = load_board("bluepill")
    elf = ensure_binary(board, "micro_log_test", progress=None)
    # Every board but one is taken for the whole measurement: the farm can only use that one.
    blocker = Farm(demo.coordinator)
    blocked = {blocker.acquire("bluepill").name for _ in range(len(demo.boards) - 1)}
    name = next(n for n in sorted(demo.boards) if n not in blocked)
    emulated = demo.boards[name]
    direct = GdbRemoteRunner(GdbRemoteConfig(emulated.gdb_address, serial=emulated.serial_url,
                                             emulation_guard=True))
    farm_runner = FarmRunner(HardwareMap([], farm={"coordinator": demo.coordinator}))
    plain, farmed = [], []
    try:
        for _ in range(runs):
            for runner, sink in ((direct, plain), (farm_runner, farmed)):
                start = time.perf_counter()
                result = runner.run(elf, board, 60)
                sink.append(time.perf_counter() - start)
                assert parse_log(result.log, result, elf, board).outcome == "passed", result.log[-300:]
    finally:
        close_sessions()
        blocker.close()
    return statistics.median(plain), statistics.median(farmed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with FarmDemo(load_board("bluepill"), hosts=2) as demo:
        farm = Farm(demo.coordinator)
        try:
            acquire = acquire_release(farm, args.runs * 3)
        finally:
            farm.close()
        freed = freed_to_waiter(demo, args.runs)
        direct, farmed = overhead(demo, args.runs)
    rows = [
        ("place acquire + release (in-process)", f"{acquire * 1000:.1f} ms", "target <= 50 ms"),
        ("freed board -> waiting client", f"{freed:.3f} s", "target <= 2 s"),
        ("micro_log_test, gdbremote straight to the board", f"{direct:.3f} s", ""),
        ("micro_log_test through the farm (acquire, run, release)", f"{farmed:.3f} s", ""),
        ("farm overhead per binary", f"{farmed - direct:+.3f} s", "target <= 0.100 s"),
    ]
    print_table(rows, f"{args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
