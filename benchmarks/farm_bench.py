"""Farm history + report at nightly scale: 100 nights x 300 cases x 3 boards (90,000 records).

    python3 benchmarks/farm_bench.py [--nights 100] [--cases 300] [--boards 3] [--keep DIR]

Writes the records through the real history API (``History.begin_run / add_results /
add_measures / finish_run``, one run per board per night, as three farm hosts would), then
times what a nightly report costs: opening the file, the flaky query, board health, and
rendering the HTML page. Prints one table; docs/farm.md quotes it. The records are made up
(the integration tests use real runs); their shape is what the plugin writes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.farm.flaky import flaky_cases
from harness.farm.health import device_health
from harness.farm.history import CaseRecord, History, Measure, RunInfo
from harness.farm.report import render

BOARDS = ["host", "bluepill", "netduinoplus2", "nucleo_f746", "rp2040"]


def populate(path: Path, nights: int, cases: int, boards: int, seed: int = 7) -> float:
    rng = random.Random(seed)
    binaries = [f"micro_runtime/kernels/op{b:02d}_test.cc" for b in range(max(1, cases // 10))]
    case_ids = [(f"{binaries[i % len(binaries)]}::Case{i:03d}", binaries[i % len(binaries)]) for i in range(cases)]
    flaky = set(rng.sample(range(cases), max(1, cases // 50)))
    broken_from = {i: rng.randrange(nights) for i in rng.sample(range(cases), max(1, cases // 100))}
    start = dt.date(2026, 1, 1)
    started = time.perf_counter()
    with History(path) as history:
        for night_index in range(nights):
            night = (start + dt.timedelta(days=night_index)).isoformat()
            commit = f"{rng.getrandbits(40):010x}"
            for board in BOARDS[:boards]:
                run_id = f"{night}-{board}"
                host = f"farm-{BOARDS.index(board) % 2 + 1}"
                history.begin_run(RunInfo(run_id, night, time.time(), commit, host, "nightly"))
                device = f"{board}-{rng.randrange(3) + 1}"
                records, measures = [], []
                for i, (case_id, path_) in enumerate(case_ids):
                    binary = Path(path_).stem
                    outcome = "passed"
                    if i in flaky and rng.random() < 0.3:
                        outcome = "failed"
                    if i in broken_from and night_index >= broken_from[i]:
                        outcome = "failed"
                    infra = device.endswith("-3") and board == "bluepill" and rng.random() < 0.05
                    records.append(CaseRecord(
                        run_id, case_id, board, "error" if infra else outcome, binary=binary, backend="qemu",
                        binary_hash=f"{hash((binary, night_index // 7)) & 0xffffffff:08x}",
                        failure_class="infra" if infra else ("test" if outcome != "passed" else None),
                        duration_s=rng.random() / 50, binary_duration_s=0.4, flash_bytes=40000, ram_bytes=9000,
                        device_id=device, host=host, message="FAIL expected 3 got 4" if outcome != "passed" else None))
                for b, path_ in enumerate(binaries):
                    binary = Path(path_).stem
                    records.append(CaseRecord(run_id, f"{path_}::binary-checks", board, "passed", binary=binary,
                                              backend="qemu", device_id=device, host=host))
                    growth = 16 * night_index * (b % 3)
                    for figure, value, subject in (("flash_bytes", 30000 + 500 * b + growth, ""),
                                                   ("ram_bytes", 8000 + 10 * b, ""),
                                                   ("binary_duration_s", 0.3 + rng.random() / 10, ""),
                                                   ("arena_bytes", 1500 + 4 * night_index, f"model{b % 5}")):
                        measures.append(Measure(run_id, board, binary, figure, value, subject))
                history.add_results(records)
                history.add_measures(measures)
                history.finish_run(run_id, 1 if any(r.outcome != "passed" for r in records) else 0)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None, help="keep the history and report in this directory")
    args = parser.parse_args()
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="farm_bench_"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "farm.db"
    if db.exists():
        db.unlink()
    write_s = populate(db, args.nights, args.cases, args.boards)
    timings = {}
    t0 = time.perf_counter()
    history = History(db)
    timings["open history"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    flaky = flaky_cases(history)
    timings["flaky query (all nights)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    devices = device_health(history)
    timings["board health query"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    page = render(history)
    (workdir / "report.html").write_text(page)
    timings["report render + write"] = time.perf_counter() - t0
    total = sum(timings.values())
    records = history.query("SELECT COUNT(*) FROM results")[0][0]
    history.close()
    print(f"farm_bench: {args.nights} nights x {args.cases} cases x {args.boards} boards -> {records:,} records "
          f"({db.stat().st_size / 1e6:.1f} MB); writing them took {write_s:.1f} s")
    print(f"  flaky cases found: {len(flaky)}; devices: {len(devices)}; report {len(page) / 1024:.0f} KiB")
    for name, seconds in timings.items():
        print(f"  {name:28s} {seconds:6.3f} s")
    print(f"  {'history + report total':28s} {total:6.3f} s   (target <= 5 s)")
    print(f"  files in {workdir}")
    return 0 if total <= 5.0 else 1


if __name__ == "__main__":
    sys.exit(main())
