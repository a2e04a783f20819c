"""``harness`` command line (also ``python -m harness``; works from a plain checkout with PYTHONPATH=<repo>).

    harness boards                                   boards, memory, backends usable here
    harness build [--board B] [--list] [--footprint-json PATH] [TARGETS]   build test binaries (incremental)
    harness run BINARY --board B [--backend X] [--timeout S] [--icount N]
    harness doctor                                   toolchains, emulators, probes; the install commands
    harness run-model MODEL.tflite --board B --cases CASES.json [--arena-size N] [--tolerance N] [-q]  -> JSON

``harness run`` exit codes (documented in docs/harness.md):
    0 passed, 1 failed, 2 crashed, 3 timeout, 4 infra error or no tests ran, 5 usage/build error.
``harness run-model``: 0 ran and every case with expected outputs matched, 1 error, 3 outputs differ.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from harness.board.boards import Board, BoardError, available_boards, load_board
from harness.build.driver import BuildError, build_tests, discover_tests, excluded_tests, source_of
from harness.runners import REGISTRY

if TYPE_CHECKING:
    from harness.session import RunReport

EXIT_CODES = {"passed": 0, "failed": 1, "crashed": 2, "timeout": 3, "infra-error": 4, "no-tests": 4}
EXIT_USAGE = 5
# harness run-model: 0 ran (and every case with expected outputs matched), 1 error, 3 outputs differ.
RUN_MODEL_EXIT_ERROR = 1
RUN_MODEL_EXIT_DIFFER = 3


def _print_case_figures(report: RunReport) -> None:
    """Instructions per case (exact), and where the board has a timing model the estimated cycles and time at
    the estimate's clock, labelled as the estimate they are."""
    width = max(len(name) for name in report.case_instructions)
    clock = report.timing_clock_hz
    stack = "  stack (bytes)" if report.case_stack else ""
    if report.case_cycles and clock:
        print(f"harness: per case ({report.backend}): instructions counted exactly; cycles and time ESTIMATED by "
              f"the Cortex-M timing model at {clock / 1e6:g} MHz (docs/measurement.md):")
        print(f"  {'case'.ljust(width)}  {'instructions':>13}  {'est. cycles':>13}  {'est. time':>11}{stack}")
    else:
        print(f"harness: instructions per case ({report.backend}, counted exactly; the same on every machine):")
    for name, count in report.case_instructions.items():
        cycles = report.case_cycles.get(name) if clock else None
        estimate = f"  {cycles:>13,}  {cycles * 1e3 / clock:>8.3f} ms" if cycles is not None and clock else ""
        peak = report.case_stack.get(name)
        depth = f"  {peak:>13,}" if peak is not None else ""
        print(f"  {name.ljust(width)}  {count:>13,}{estimate}{depth}")


def _err(message: str) -> None:
    print(f"harness: error: {message}", file=sys.stderr, flush=True)


def _board(name: str) -> Board:
    return load_board(name)


# ------------------------------------------------------------------ boards --
def _kib(size: int) -> str:
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size:,} B"


def cmd_boards(args: argparse.Namespace) -> int:
    from harness.runners import get_runner

    rows = [("BOARD", "CORE", "FLASH", "RAM", "BACKENDS (usable here marked *)")]
    for name in available_boards():
        try:
            board = load_board(name)
        except BoardError as error:
            rows.append((name, "?", "?", "?", f"broken board file: {error}"))
            continue
        backends = []
        for backend in board.backends or (("host",) if board.is_host else ("qemu",)):
            try:
                usable = get_runner(backend).unavailable_reason(board) is None
            except ValueError:
                usable = False
            backends.append(f"{backend}{'*' if usable else ''}")
        flash = _kib(board.flash.size) if board.flash else "-"
        ram = _kib(board.ram.size) if board.ram else "-"
        rows.append((board.name, board.core, flash, ram, " ".join(backends)))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  " + row[4])
    return 0


# ------------------------------------------------------------------- build --
def cmd_build(args: argparse.Namespace) -> int:
    from harness.build.driver import no_tests_message

    board = _board(args.board)
    known = discover_tests()
    if args.list:
        for name, source in known.items():
            print(f"{name}\t{source}")
        if not known:  # an empty list is an answer, but say where it was looked for
            print(f"harness: {no_tests_message()}", file=sys.stderr)
        return 0
    if not known and not args.targets:
        _err(no_tests_message())
        return EXIT_CODES["no-tests"]
    unknown = [t for t in args.targets if t not in known]
    if unknown:
        _err(f"unknown test binaries: {', '.join(unknown)}; `harness build --list` shows them")
        return EXIT_USAGE
    targets = args.targets
    if not targets:  # everything, except what the Makefile says does not fit this board
        from harness.core import project

        skipped = excluded_tests(board) if project.current().is_checkout else {}
        for name, note in sorted(skipped.items()):
            print(f"skip  {name}: {note}")
        targets = [name for name in known if name not in skipped]
    result = build_tests(board, targets, jobs=args.jobs)
    failed = 0
    for name, built in sorted(result.binaries.items()):
        if built.error:
            failed += 1
            print(f"FAIL  {name}: {built.error}")
        else:
            size = built.footprint.describe(board) if built.footprint else ""
            print(f"ok    {name:40s} {size}")
    if args.footprint_json is not None:
        from harness.build.driver import footprint_report
        from harness.build.footprint import write_report

        try:
            write_report(args.footprint_json, footprint_report(board, result))
        except OSError as error:
            _err(f"cannot write the footprint report {args.footprint_json}: {error}")
            return EXIT_USAGE
        print(f"footprint report: {args.footprint_json}")
    return 1 if failed else 0


# --------------------------------------------------------------------- run --
def _resolve_binary(binary: str, board: Board) -> Path:
    from harness.build.driver import binary_for

    return binary_for(board, binary)


def wrong_board(elf: Path, board: Board) -> str | None:
    """Why ``elf`` must not run on ``board`` (it was linked for another board), or None.

    Read from the ``__harness_board_<name>`` symbol every MCU build carries (harness.board.board_mk); for an
    ELF without it, from a ``<build folder>/<other board>/`` path it was built into.
    """
    from harness.board.emulation_guard import built_for
    from harness.build.make import gen_root

    other = built_for(elf)
    if other is None:
        parents = elf.resolve().parents
        if gen_root() in parents:
            folder = elf.resolve().relative_to(gen_root()).parts[0]
            known = {b for b in available_boards() if folder == b or folder.startswith(f"{b}_")}
            other = max(known, key=len) if known else None
    if other is None or other == board.name:
        return None
    return (f"{elf} was built for board {other}, not {board.name}; it would crash or misbehave there. "
            f"Run it with --board {other}, or build it for {board.name}: harness build --board {board.name}")


def cmd_run(args: argparse.Namespace) -> int:
    from harness.outcome import Outcome
    from harness.runners.qemu import icount_problem
    from harness.session import RunOptions, run_binary

    board = _board(args.board)
    if getattr(args, "no_exit_status", False):
        board = board.with_run(exit_status=False)
    try:
        elf = _resolve_binary(args.binary, board)
    except BuildError as error:
        _err(str(error))
        return EXIT_USAGE
    problem = wrong_board(elf, board)
    if problem is not None:
        _err(problem)
        return EXIT_USAGE
    if board.is_host and getattr(args, "icount", None) is not None:
        _err(icount_problem("host") or "--icount applies to QEMU runs only")  # one binary: say it, do not ignore it
        return EXIT_USAGE

    def show(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    source = Path(args.binary) if args.binary.endswith("_test.cc") else source_of(elf)
    options = RunOptions(backend=args.backend, icount=getattr(args, "icount", None),
                         hardware_map=getattr(args, "hardware_map", None), timeout_s=args.timeout,
                         fmt=getattr(args, "framework", None))
    report = run_binary(board, elf, options, source=source, on_line=show)
    if report.outcome == Outcome.UNAVAILABLE:
        _err(report.summary if report.usage_error else f"backend {report.backend} cannot run {board.name}: "
             f"{report.summary}")
        return EXIT_USAGE if report.usage_error else EXIT_CODES["infra-error"]
    if report.outcome == Outcome.BUILD_ERROR:
        _err(report.summary)
        return EXIT_USAGE
    if report.infra_error:
        _err(report.infra_error)
    if report.crash is not None:
        print(report.crash.render(), file=sys.stderr)
    if report.case_instructions:  # before the verdict, which stays the last line (scripts read it there)
        _print_case_figures(report)
    if report.case_measured_cycles:
        width = max(len(name) for name in report.case_measured_cycles)
        print(f"harness: cycles per case measured on the board ({report.backend}, the core's DWT counter):")
        for name, cycles in report.case_measured_cycles.items():
            print(f"  {name.ljust(width)}  {cycles:>13,}")
    records = f", records {report.records}" if report.records else ""
    print(f"harness: {report.outcome.upper()}: {elf.name} on {board.name} ({report.backend}, {report.duration_s:.2f} s"
          f"{records}): {report.summary}", flush=True)
    return EXIT_CODES.get(report.outcome, EXIT_CODES["infra-error"])


# ------------------------------------------------------------------ doctor --
def cmd_doctor(args: argparse.Namespace) -> int:
    from harness.cli.doctor import run_checks

    return run_checks(verbose=not args.quiet)


# --------------------------------------------------------------- run-model --
def cmd_run_model(args: argparse.Namespace) -> int:
    from harness.core.extras import problem

    missing_packages = problem("model", "harness run-model")  # numpy, flatbuffers: one line, not a traceback
    if missing_packages is not None:
        _err(missing_packages)
        return RUN_MODEL_EXIT_ERROR
    from harness.cli.run_model import RunModelError, run_model

    for path, what in ((args.model, "model"), (args.cases, "cases file")):
        if not Path(path).is_file():
            _err(f"{what} {path} does not exist; pass an existing file")
            return 1
    _board(args.board)

    def progress(message: str) -> None:  # stderr: stdout carries only the JSON result
        print(f"harness: {message}", file=sys.stderr, flush=True)

    try:
        result = run_model(Path(args.model), args.board, Path(args.cases), args.backend,
                           arena_size=args.arena_size, progress=None if args.quiet else progress,
                           tolerance=args.tolerance, float_tolerance=args.float_tolerance, icount=args.icount,
                           hardware_map=args.hardware_map)
    except (RunModelError, BuildError, BoardError, OSError, ValueError) as error:
        _err(str(error))
        return RUN_MODEL_EXIT_ERROR
    json.dump(result, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    if result.get("passed") is False:
        for index in result["failed_cases"]:
            _err(f"case {index}: {result['cases'][index].get('mismatch', 'outputs differ')}")
        _err(f"{len(result['failed_cases'])} of {result['compared_cases']} cases differ from the expected outputs "
             f"(--tolerance {args.tolerance}, --float-tolerance {args.float_tolerance:g})")
        return RUN_MODEL_EXIT_DIFFER
    return 0


# -------------------------------------------------------------------- main --
def make_parser() -> argparse.ArgumentParser:
    from harness.core.argtypes import (
        DEFAULT_FLOAT_TOLERANCE,
        non_negative_float,
        non_negative_int,
        positive_bytes,
        positive_seconds,
    )
    from harness.runners.qemu import icount_arg

    parser = argparse.ArgumentParser(prog="harness", description="Build and run micro_runtime tests on boards.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("boards", help="list boards with memory and the backends usable on this machine")
    p.set_defaults(func=cmd_boards)

    p = sub.add_parser("build", help="build test binaries for a board (incremental)")
    p.add_argument("--board", default="host")
    p.add_argument("--jobs", "-j", type=int, default=None, help="parallel make jobs (default: CPU count)")
    p.add_argument("--list", action="store_true", help="list the test binaries and exit")
    p.add_argument("--footprint-json", type=Path, default=None, metavar="PATH",
                   help="also write the footprint report of the built binaries (flash/RAM per binary, per "
                   "section, per object) to PATH; every build updates micro_runtime/gen/<board>/footprint.json")
    p.add_argument("targets", nargs="*", metavar="TARGET", help="test binary names (default: all)")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("run", help="run one binary, print its log live, then a verdict (exit 0 passed, 1 failed, "
                       "2 crashed, 3 timeout, 4 infra error or no tests, 5 usage or build error)")
    p.add_argument("binary", metavar="BINARY", help="path to an ELF, or a test name (built first)")
    p.add_argument("--board", required=True)
    p.add_argument("--backend", choices=list(REGISTRY), help="what runs it (default: the board's emulator, "
                   "Renode when installed, else QEMU; the host board runs natively)")
    p.add_argument("--timeout", type=positive_seconds, default=None,
                   help="seconds (default: the board's [run] timeout_s)")
    p.add_argument("--quiet", "-q", action="store_true", help="do not echo the device log")
    p.add_argument("--icount", type=icount_arg, default=None, metavar="N",
                   help="QEMU only: -icount shift=N, deterministic virtual time (overrides the board's [qemu] icount)")
    p.add_argument("--hardware-map", type=Path, default=None, metavar="FILE",
                   help="run on a free board of this hardware map (docs/hardware.md)")
    from harness.formats import FORMATS

    p.add_argument("--framework", choices=list(FORMATS), default=None,
                   help="the test framework of a foreign firmware (default: what its ELF declares, else detected "
                   "from its output)")
    p.add_argument("--no-exit-status", action="store_true",
                   help="the firmware never exits: its framework's end of run ends the run (default: the board's "
                   "[run] exit_status)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("doctor", help="check toolchains, emulators, flatc and probes; print install commands")
    p.add_argument("--quiet", "-q", action="store_true", help="only print problems")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("run-model", help="run a .tflite model on a board with test cases; JSON on stdout; "
                       "exit 0 ran (and matched every expected output), 1 error, 3 outputs differ from expected")
    p.add_argument("model", metavar="MODEL.tflite")
    p.add_argument("--board", required=True)
    p.add_argument("--cases", required=True, metavar="CASES.json")
    p.add_argument("--backend", choices=list(REGISTRY), default=None,
                   help="what runs it (default as for harness run)")
    p.add_argument("--icount", type=icount_arg, default=None, metavar="N",
                   help="QEMU only: -icount shift=N, deterministic virtual time (overrides the board's [qemu] icount)")
    p.add_argument("--hardware-map", type=Path, default=None, metavar="FILE",
                   help="run on a free board of this hardware map (docs/hardware.md)")
    p.add_argument("--arena-size", type=positive_bytes, default=None, metavar="BYTES",
                   help="tensor arena size compiled into the runner (default: what fits the board)")
    p.add_argument("--tolerance", type=non_negative_int, default=0, metavar="N",
                   help="integer outputs may differ from the cases' expected values by N (quantized LSBs; "
                   "default 0: exact)")
    p.add_argument("--float-tolerance", type=non_negative_float, default=DEFAULT_FLOAT_TOLERANCE, metavar="X",
                   help="float32 outputs may differ by X * max(1, |expected|) (default %(default)g)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines on stderr (errors still go there)")
    p.set_defaults(func=cmd_run_model)

    from harness.cli.devices import add_devices_parser  # harness devices scan|list|clear|emulate

    add_devices_parser(sub)
    from harness.cli.farm import add_farm_parser  # harness farm flaky|report|baseline|health|quarantine|junit

    add_farm_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    from harness.core import procs
    from harness.core.shutdown import run_shutdown

    procs.install_signal_handlers()  # SIGTERM/SIGHUP end every device process, then stop like Ctrl-C
    try:
        code: int = args.func(args)
    except BoardError as error:
        _err(str(error))
        return EXIT_USAGE
    except BuildError as error:
        _err(str(error))
        return EXIT_USAGE
    except procs.Terminated as stop:
        _err(str(stop))
        return 143
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:  # `harness build --list | head`: the reader is gone, stop quietly like cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not raise again
        return 141  # 128 + SIGPIPE, what a shell reports for a tool that died of the closed pipe
    finally:
        run_shutdown()  # what the command kept open between runs: a Renode, labgrid places
    return code


if __name__ == "__main__":
    sys.exit(main())
