"""``harness farm ...``: flaky cases, report, baseline, board health, quarantine state, JUnit merge.

    harness farm flaky --history farm.db [--since YYYY-MM-DD] [--board B]
    harness farm report --history farm.db -o night.html [--night N] [--quarantine F] [--junit merged.xml]
    harness farm baseline --history farm.db -o baseline.json [--night N]
    harness farm health --history farm.db [--nights N]
    harness farm quarantine --history farm.db --quarantine F [--night N] [--fixed-after N]
    harness farm junit -o merged.xml a.xml b.xml ...
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from harness.farm.history import History, HistoryError


def _err(message: str) -> int:
    print(f"harness farm: error: {message}", file=sys.stderr, flush=True)
    return 2


def _open(args: argparse.Namespace) -> History:
    if not Path(args.history).is_file():
        raise HistoryError(f"{args.history} does not exist (pytest --history {args.history} writes it)")
    return History(args.history)


def cmd_flaky(args: argparse.Namespace) -> int:
    from harness.farm.flaky import flaky_cases, format_flaky

    with _open(args) as history:
        print(format_flaky(flaky_cases(history, since_night=args.since, board=args.board)))
    return 0


def _load_quarantine(path: Path | None, night: str) -> Any:
    if path is None:
        return None
    from harness.farm.quarantine import Quarantine, load_quarantine

    return Quarantine(load_quarantine(path), night)


def cmd_report(args: argparse.Namespace) -> int:
    from harness.farm.report import write_report

    started = time.perf_counter()
    with _open(args) as history:
        night = args.night or (history.nights() or [dt.date.today().isoformat()])[-1]
        quarantine = _load_quarantine(args.quarantine, night)
        write_report(history, args.output, night, quarantine=quarantine, junit=args.junit)
    print(f"harness farm: wrote {args.output} (night {night}) in {time.perf_counter() - started:.2f} s")
    return 0


def cmd_baseline(args: argparse.Namespace) -> int:
    from harness.farm.gate import baseline_json, figures_of_runs, last_good_baseline

    with _open(args) as history:
        if args.night:
            night = args.night
            figures = figures_of_runs(history, [r.run_id for r in history.runs() if r.night == night])
        else:  # the latest night every run of which finished and passed: never a night of errors
            good = last_good_baseline(history, "9999-12-31")
            if good is None:
                return _err(f"no night in {args.history} where every run finished and passed; pass --night "
                            "YYYY-MM-DD to take one anyway")
            night, figures = str(good.night), good.figures
    if not figures:
        return _err(f"night {night} has no figures in {args.history}")
    Path(args.output).write_text(json.dumps(baseline_json(f"night {night}", figures), indent=1) + "\n")
    print(f"harness farm: wrote {len(figures)} figures of night {night} to {args.output}")
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    from harness.farm.health import device_health

    with _open(args) as history:
        nights = history.nights()
        since = nights[max(0, len(nights) - args.nights)] if nights else None
        devices = device_health(history, since_night=since)
    if not devices:
        print("no device recorded")
        return 0
    for device in sorted(devices, key=lambda d: (-d.rate, d.device_id)):
        flag = "UNHEALTHY" if device.unhealthy(args.rate, args.min_runs) else "ok"
        print(f"{flag:9s} {device.describe()}")
    return 0


def cmd_quarantine(args: argparse.Namespace) -> int:
    from harness.farm.quarantine import fixed_cases

    with _open(args) as history:
        night = args.night or (history.nights() or [dt.date.today().isoformat()])[-1]
        quarantine = _load_quarantine(args.quarantine, night)
        for entry in quarantine.entries:
            state = "active" if entry.active_on(night) else f"EXPIRED on {entry.expires}: no longer applies"
            print(f"{state}: {entry.describe()}")
        for fixed in fixed_cases(history, quarantine, args.fixed_after):
            print(f"FIXED? {fixed.case_id}[{fixed.board}] passed {fixed.nights} nights in a row: remove its entry "
                  f"({fixed.entry.reason})")
    return 0


def merge_junit(inputs: list[Path], output: Path) -> dict[str, int]:
    """One <testsuites> from the JUnit files of several workers, boards and hosts (suites kept, totals summed)."""
    merged = ET.Element("testsuites", name="merged")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    seconds = 0.0
    for path in inputs:
        root = ET.parse(path).getroot()
        suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
        for suite in suites:
            suite.set("name", f"{suite.get('name', 'pytest')}@{suite.get('hostname') or Path(path).stem}")
            for key in totals:
                totals[key] += int(suite.get(key, 0) or 0)
            seconds += float(suite.get("time", 0) or 0)
            merged.append(suite)
    for key, value in totals.items():
        merged.set(key, str(value))
    merged.set("time", f"{seconds:.3f}")
    ET.ElementTree(merged).write(output, encoding="utf-8", xml_declaration=True)
    return totals


def cmd_junit(args: argparse.Namespace) -> int:
    try:
        totals = merge_junit(args.inputs, args.output)
    except (OSError, ET.ParseError) as error:
        return _err(str(error))
    print(f"harness farm: merged {len(args.inputs)} JUnit file(s) into {args.output}: "
          + ", ".join(f"{v} {k}" for k, v in totals.items()))
    return 0


def add_farm_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    farm = sub.add_parser("farm", help="device farm: labgrid places and demo; results history: flaky cases, "
                          "nightly report, gate baseline, board health")
    fsub = farm.add_subparsers(dest="farm_command", required=True, metavar="FARM_COMMAND")

    def with_history(name: str, text: str) -> argparse.ArgumentParser:
        p = fsub.add_parser(name, help=text)
        p.add_argument("--history", required=True, type=Path, metavar="PATH", help="the SQLite history file")
        return p

    p = with_history("flaky", "cases whose outcome changed on the same binary hash and board, with flip rates")
    p.add_argument("--since", default=None, metavar="YYYY-MM-DD")
    p.add_argument("--board", default=None)
    p.set_defaults(func=_guard(cmd_flaky))

    p = with_history("report", "one static offline HTML page for a night")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="OUT.html")
    p.add_argument("--night", default=None, metavar="YYYY-MM-DD", help="default: the last night in the history")
    p.add_argument("--quarantine", type=Path, default=None, metavar="FILE")
    p.add_argument("--junit", default=None, metavar="URL", help="link to the merged JUnit file")
    p.set_defaults(func=_guard(cmd_report))

    p = with_history("baseline", "write a night's footprint/timing figures as a gate baseline file")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="baseline.json")
    p.add_argument("--night", default=None, metavar="YYYY-MM-DD")
    p.set_defaults(func=_guard(cmd_baseline))

    p = with_history("health", "infrastructure-failure rate per device")
    p.add_argument("--nights", type=int, default=7)
    p.add_argument("--rate", type=float, default=0.25)
    p.add_argument("--min-runs", type=int, default=4)
    p.set_defaults(func=_guard(cmd_health))

    p = with_history("quarantine", "the quarantine file's entries: active, expired, fixed")
    p.add_argument("--quarantine", type=Path, required=True, metavar="FILE")
    p.add_argument("--night", default=None, metavar="YYYY-MM-DD")
    p.add_argument("--fixed-after", type=int, default=5, metavar="N")
    p.set_defaults(func=_guard(cmd_quarantine))

    p = fsub.add_parser("junit", help="merge JUnit files of several workers, boards and hosts into one")
    p.add_argument("-o", "--output", type=Path, required=True)
    p.add_argument("inputs", nargs="+", type=Path)
    p.set_defaults(func=cmd_junit)

    from harness.cli.places import add_place_commands  # demo | places | clear (the labgrid side)

    add_place_commands(fsub)


def _guard(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        from harness.farm.quarantine import QuarantineError

        try:
            return int(func(args))
        except (HistoryError, QuarantineError, ValueError) as error:
            return _err(str(error))

    return run
