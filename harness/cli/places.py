"""``harness farm demo | places | clear``: the labgrid side of the farm from the command line."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def _coordinator(args: argparse.Namespace) -> str:
    if args.coordinator:
        return str(args.coordinator)
    from harness.hil.devices import load_hardware_map

    hardware_map = load_hardware_map(args.hardware_map)
    if hardware_map.farm is None:
        raise SystemExit(f"error: {args.hardware_map} has no [farm] table; pass --coordinator HOST:PORT")
    return str(hardware_map.farm["coordinator"])


def _open_farm(args: argparse.Namespace) -> Any:
    """A client session of the farm the arguments name, or None after saying why on stderr."""
    from harness.farm.places import Farm, FarmError

    try:
        return Farm(_coordinator(args))
    except FarmError as error:
        print(f"error: {error}", file=sys.stderr)
        return None


def cmd_places(args: argparse.Namespace) -> int:
    farm = _open_farm(args)
    if farm is None:
        return 4
    try:
        for place in farm.places(args.board):
            state = f"acquired by {place.acquired}" if place.acquired else "free"
            health = f"UNHEALTHY: {place.unhealthy}" if place.unhealthy else "healthy"
            where = place.address("GDBServer")
            print(f"{place.name:30} board={place.board or '?':14} {state:40} {health}  gdb={where}")
    finally:
        farm.close()
    return 0


def cmd_clear(args: argparse.Namespace) -> int:
    farm = _open_farm(args)
    if farm is None:
        return 4
    try:
        known = {p.name for p in farm.places()}
        unknown = [name for name in args.places if name not in known]
        if unknown:
            print(f"error: no such place: {', '.join(unknown)} (known: {', '.join(sorted(known))})", file=sys.stderr)
            return 5
        cleared = farm.clear(args.places or None)
    finally:
        farm.close()
    print(f"cleared: {', '.join(cleared) or 'nothing was unhealthy'}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from harness.board.boards import load_board
    from harness.farm.demo import FarmDemo
    from harness.farm.places import FarmError

    demo = FarmDemo(load_board(args.board), hosts=args.hosts, boards_per_host=args.boards_per_host)
    try:
        demo.start()
        demo.write_map(args.output)
        print(f"labgrid coordinator {demo.coordinator}; {args.hosts} exporter host(s) with "
              f"{len(demo.boards)} emulated {args.board} board(s): {', '.join(sorted(demo.boards))}")
        print(f"map: {args.output}  ->  pytest --board={args.board} --hardware-map {args.output} -n {len(demo.boards)}")
        print("Ctrl-C stops the farm", flush=True)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.5)
            status = demo.coordinator_exited()
            if status is not None:  # supervised like its exporters: started again, or the demo ends non-zero
                print(f"harness farm demo: the labgrid coordinator exited (status {status}); starting it again",
                      flush=True)
                demo.restart_coordinator()
                print(f"harness farm demo: the labgrid coordinator is back on {demo.coordinator}", flush=True)
    except FarmError as error:
        print(f"error: {error}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        pass
    finally:
        demo.stop()
    return 0


def night_junit(history: Path, night: str | None = None) -> Path:
    """The JUnit file of one night run: beside the history, named after the night, the time and this process, so
    two nights (or two runs of one night) never write the same file."""
    import os
    import time

    night = night or os.environ.get("HARNESS_NIGHT") or time.strftime("%Y-%m-%d")
    return history.with_name(f"night-{night}-{time.strftime('%H%M%S')}-{os.getpid()}.xml")


def cmd_night(args: argparse.Namespace) -> int:
    """One night: run the micro tests on the farm (recording, quarantine, gate), then the report.

    pytest runs as a child that dies with this process (``harness.core.procs.spawn``): a night killed with
    SIGKILL leaves no orphan that goes on writing results and a JUnit file nobody reads; its run stays
    without an exit status, which the report shows as INCOMPLETE. Ctrl-C stops pytest as it would alone.
    """
    import signal
    import subprocess

    from harness import REPO_ROOT
    from harness.core import procs

    args.history.parent.mkdir(parents=True, exist_ok=True)
    junit = args.junit or night_junit(args.history)
    pytest_argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--board={args.board}",
                   f"--history={args.history}", "--history-label=nightly", f"--junitxml={junit}",
                   "-n", str(args.workers), "-m", "micro", *(args.paths or [str(REPO_ROOT / "micro_runtime")])]
    if args.hardware_map is not None:
        pytest_argv.append(f"--hardware-map={args.hardware_map}")
    if args.quarantine is not None:
        pytest_argv.append(f"--quarantine={args.quarantine}")
    if args.gate:
        pytest_argv.append(f"--gate={args.gate}")
    print("harness farm night: " + " ".join(pytest_argv[1:]), flush=True)
    tests = procs.spawn(pytest_argv, stdin=subprocess.DEVNULL)
    try:
        try:
            status = tests.wait()
        except KeyboardInterrupt:  # pytest is in a group of its own: hand it the interrupt, let it finish up
            procs.signal_group(tests.pid, signal.SIGINT)
            status = tests.wait(timeout=60)
    finally:
        procs.reap(tests)  # nothing of the night outlives it
    report = [sys.executable, "-m", "harness", "farm", "report", "--history", str(args.history),
              "-o", str(args.output), "--junit", str(junit)]
    if args.quarantine is not None:
        report += ["--quarantine", str(args.quarantine)]
    report_status = subprocess.run(report, check=False).returncode
    print(f"harness farm night: tests exit {status}, JUnit {junit}, report {args.output} (exit {report_status})",
          flush=True)
    return status or report_status


def add_place_commands(fsub: Any) -> None:
    """Adds ``demo``, ``places`` and ``clear`` to the ``harness farm`` subcommands."""
    p = fsub.add_parser("demo", help="a labgrid farm on this machine: coordinator + exporter hosts of emulated boards")
    p.add_argument("--board", default="bluepill")
    p.add_argument("--hosts", type=int, default=2, help="exporter processes, each its own 'host' (default 2)")
    p.add_argument("--boards-per-host", type=int, default=1)
    p.add_argument("-o", "--output", type=Path, required=True, help="hardware map to write ([farm] coordinator)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(func=cmd_demo)
    p = fsub.add_parser("night", help="one night: micro tests on the farm, recorded, gated, then the HTML report")
    p.add_argument("--board", required=True, help="board(s), comma-separated, as pytest --board")
    p.add_argument("--hardware-map", type=Path, default=None, help="the farm's map ([farm] coordinator)")
    p.add_argument("--history", type=Path, required=True, metavar="PATH")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="night.html")
    p.add_argument("--quarantine", type=Path, default=None)
    p.add_argument("--gate", default=None, metavar="last-good|FILE")
    p.add_argument("--junit", type=Path, default=None,
                   help="JUnit file (default: night-<night>-<time>-<pid>.xml beside the history, one per run)")
    p.add_argument("-n", "--workers", type=int, default=2, help="pytest-xdist workers (one board each)")
    p.add_argument("paths", nargs="*", help="test paths (default: micro_runtime)")
    p.set_defaults(func=cmd_night)
    for name, func, text in (("places", cmd_places, "list the farm's places: board, lock holder, health"),
                             ("clear", cmd_clear, "remove the unhealthy tag from places (all if none named)")):
        p = fsub.add_parser(name, help=text)
        where = p.add_mutually_exclusive_group(required=True)
        where.add_argument("--hardware-map", type=Path, help="a map with a [farm] table")
        where.add_argument("--coordinator", metavar="HOST:PORT")
        if name == "places":
            p.add_argument("--board", default=None)
        else:
            p.add_argument("places", nargs="*", metavar="PLACE")
        p.set_defaults(func=func)
