"""Firmware built elsewhere as pytest items: a ``[[tool.micro-harness.firmware]]`` entry of the project, or an
ELF named on pytest's command line (``pytest build/app.elf --board=bluepill``).

Each such binary becomes, per board, one item per test case it reports plus its ``binary-checks`` item,
with node ids ``<elf path>::<case>[<board>]`` as for ``*_test.cc`` files, so ``-k``, ``--lf``, ``-n`` and
JUnit treat them alike. Where its cases come from, in this order:

1. its build: the entry's ``build`` command runs first (``harness.build.external``); a failed build or a
   missing ELF makes the binary-checks item fail with the build's message, and no stale ELF is used;
2. the binary itself, when it declares them (our micro_test framework: its ELF's case list);
3. the case list this very binary (same SHA-256, board and framework) reported in an earlier run
   (``<build>/<board>/firmware-cases/``);
4. else one run at collection ("names from the log", as pytest-cpp lists a gtest binary's tests by
   running it): the run is kept and its items read it; under pytest-xdist one worker runs it while
   the others wait for its list (a lock per binary), so every worker collects the same items.

A case list from a run that did not end (a crash, a hang) is kept for that pytest session only. The
verdict never rests on the list: a listed case that does not run fails, a case that runs without an
item fails binary-checks, and the run is held against the list (a case missing from it fails the run).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.board.boards import Board, BoardError, load_board
from harness.build.driver import BuildError
from harness.build.make import file_lock, gen_dir
from harness.core import project
from harness.core.binary_info import file_sha256
from harness.core.project import Firmware
from harness.outcome import Outcome
from harness.pytest.items import BINARY_ITEM, MicroBinaryItem, MicroCaseItem, MicroTestFailure
from harness.pytest.state import harness_state, save_log
from harness.session import RunReport

if TYPE_CHECKING:
    from harness.pytest.state import HarnessState

_EM_ARM = 40
_ELF_MAGIC = b"\x7fELF"
# Outcomes whose case list is the binary's whole list (the run reached its framework's end).
_COMPLETE = (Outcome.PASSED, Outcome.FAILED)


def is_elf(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == _ELF_MAGIC
    except OSError:
        return False


def _arch_problem(elf: Path, board: Board) -> str | None:
    """Why ``elf`` cannot be for ``board`` (an Arm ELF on the host board or the reverse), else None."""
    from harness.core.binary_info import NotAnElf, load

    try:
        machine = load(elf).machine
    except (OSError, NotAnElf):
        return f"{elf} is not an ELF file: name the linked firmware (an .elf, .axf or .out file)"
    if board.is_host and machine == _EM_ARM:
        return (f"{elf.name} is an Arm firmware and board 'host' runs programs of this machine; "
                "choose its board with --board (e.g. --board=bluepill)")
    if not board.is_host and machine != _EM_ARM:
        return (f"{elf.name} is not an Arm ELF (e_machine={machine}), so it cannot run on {board.name}; "
                "build it for the board")
    return None


# ------------------------------------------------------------------ case lists --
def _cases_file(board: Board, digest: str, framework: str | None) -> Path:
    return gen_dir(board) / "firmware-cases" / f"{digest[:32]}-{framework or 'detected'}.json"


def _read_cases(path: Path, session: str) -> list[str] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # none yet, or damaged: the binary is run again
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        return None
    if not data.get("complete") and data.get("session") != session:
        return None  # a partial list (the run crashed) is good for the session that saw it only
    return [str(c) for c in data["cases"]]


def _write_cases(path: Path, elf: Path, report: RunReport, session: str) -> None:
    cases = list(dict.fromkeys(c.name for c in report.cases))
    if not cases:
        return
    data = {"elf": str(elf), "format": report.format, "cases": cases,
            "complete": report.outcome in _COMPLETE, "session": session}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(data, indent=1))
    os.replace(partial, path)


def _session_id() -> str:
    from harness.core.procs import SESSION_ENV

    return os.environ.get(SESSION_ENV, str(os.getpid()))


# ------------------------------------------------------------------- the runs --
def firmware_outcome(state: HarnessState, firmware: Firmware, board: Board, elf: Path,
                     expected: list[str] | None = None) -> RunReport:
    """The run of a foreign binary on ``board``, once per process, through the one run session; its case list
    is remembered for the next collection."""
    import dataclasses

    from harness.session import run_binary

    key = (str(elf), board.name)
    if key in state.outcomes:
        return state.outcomes[key]
    run_board = board.with_run(exit_status=firmware.exit_status, timeout_s=firmware.timeout_s)
    options = dataclasses.replace(state.options_for(board), fmt=firmware.framework)

    def ticking(label: str) -> Any:
        return state.ticking(f"running {firmware.label} on {board.name} ({label})")

    report = run_binary(run_board, elf, options, expected=expected, wrap=ticking)
    state.outcomes[key] = report
    if report.outcome not in (Outcome.UNAVAILABLE, Outcome.BUILD_ERROR):
        with contextlib.suppress(OSError):
            save_log(report, gen_dir(board) / "logs" / "firmware", firmware.label)
        with contextlib.suppress(OSError):
            _write_cases(_cases_file(board, file_sha256(elf), firmware.framework), elf, report, _session_id())
    return report


def _failed(state: HarnessState, board: Board, elf: Path, outcome: Outcome, summary: str) -> None:
    state.outcomes[(str(elf), board.name)] = RunReport(board=board, backend=state.label_for(board), outcome=outcome,
                                                       summary=summary)


def prepare(state: HarnessState, firmware: Firmware, board: Board, elf: Path) -> list[str]:
    """Builds the binary (the entry's command) and finds its cases (module doc); what went wrong is kept as the
    binary's report, which its binary-checks item shows."""
    from harness.build.external import run_build_command
    from harness.core.binary_info import declared_tests

    key = (str(elf), board.name)
    command = firmware.build_for(board.name)
    if command is not None and key not in state.firmware_built:
        state.firmware_built.add(key)
        proj = project.current()
        try:
            run_build_command(command, proj.root, f"{firmware.label} for {board.name}", lock_dir=proj.build_dir,
                              progress=state.progress, produces=elf)
        except BuildError as error:
            _failed(state, board, elf, Outcome.BUILD_ERROR, str(error))
            return []
    if key in state.outcomes and state.outcomes[key].outcome == Outcome.BUILD_ERROR:
        return []
    if not elf.is_file():
        how = f"its build command ({command}) did not make it" if command else (
            f"build it first, or give the entry a build command ({firmware.origin or 'the command line'})")
        _failed(state, board, elf, Outcome.BUILD_ERROR, f"no firmware at {elf}: {how}")
        return []
    problem = _arch_problem(elf, board)
    if problem is not None:
        _failed(state, board, elf, Outcome.BUILD_ERROR, problem)
        return []
    declared = declared_tests(elf)
    if declared is not None and declared.cases:
        return list(declared.cases)
    listing = _cases_file(board, file_sha256(elf), firmware.framework)
    with file_lock(listing.with_suffix(".lock")):
        known = _read_cases(listing, _session_id())
        if known is not None:
            return known
        state.progress(f"{firmware.label} on {board.name}: running it once to list its test cases "
                       "(first collection of this binary)")
        report = firmware_outcome(state, firmware, board, elf)
        return list(dict.fromkeys(c.name for c in report.cases))


# --------------------------------------------------------------------- items --
class FirmwareFile(pytest.File):
    """One foreign binary (one ELF path) and the boards it runs on in this session."""

    def __init__(self, *, firmware: Firmware, boards: list[Board], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.firmware = firmware
        self.boards = boards

    def collect(self) -> list[pytest.Item]:
        state = harness_state(self.config)
        items: list[pytest.Item] = []
        for board in self.boards:
            cases = prepare(state, self.firmware, board, self.path)
            common = {"board": board, "binary": self.firmware.label, "source_cases": cases, "firmware": self.firmware}
            for case in cases:
                items.append(FirmwareCaseItem.from_parent(self, name=f"{case}[{board.name}]", case=case,
                                                          nodeid=f"{self.nodeid}::{case}[{board.name}]", **common))
            items.append(FirmwareBinaryItem.from_parent(self, name=f"{BINARY_ITEM}[{board.name}]", case=None,
                                                        nodeid=f"{self.nodeid}::{BINARY_ITEM}[{board.name}]",
                                                        **common))
        return items


class _FirmwareRun:
    """What firmware items share: the run is the foreign binary's (``firmware_outcome``), the case list the
    collected one."""

    firmware: Firmware
    board: Board
    path: Path
    source_cases: list[str]
    config: pytest.Config

    def run_report(self) -> RunReport:
        return firmware_outcome(harness_state(self.config), self.firmware, self.board, self.path,
                                expected=self.source_cases or None)

    def case_origin(self) -> str:
        return f"the cases collected for {self.path.name} (run pytest again to collect them)"

    def _setup_build_error(self, message: str) -> None:
        pytest.fail(message, pytrace=False)


class FirmwareCaseItem(_FirmwareRun, MicroCaseItem):
    def __init__(self, *, firmware: Firmware, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.firmware = firmware

    def _setup_build_error(self, message: str) -> None:
        pytest.fail(f"{self.binary} not built for {self.board.name}: {message.splitlines()[0]}", pytrace=False)


class FirmwareBinaryItem(_FirmwareRun, MicroBinaryItem):
    def __init__(self, *, firmware: Firmware, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.firmware = firmware


# ------------------------------------------------------------ what to collect --
def _boards_for(config: pytest.Config, firmware: Firmware) -> tuple[list[Board], str | None]:
    """The boards ``firmware`` runs on in this session: its own (``--board`` given: those of them chosen), or
    the session's for an ELF named on the command line. The second value says why none, when none."""
    state = harness_state(config)
    if not firmware.boards:
        return list(state.boards), None
    if config.getoption("board"):
        chosen = [b for b in state.boards if b.name in firmware.boards]
        if not chosen:
            return [], (f"{firmware.label} ({firmware.origin}) is built for {', '.join(firmware.boards)}, "
                        f"none of --board {','.join(b.name for b in state.boards)}")
        return chosen, None
    boards = []
    for name in firmware.boards:
        try:
            boards.append(next((b for b in state.boards if b.name == name), None) or load_board(name))
        except BoardError as error:
            raise pytest.UsageError(f"{firmware.origin}: board '{name}': {error}") from error
    return boards, None


def firmware_files(config: pytest.Config) -> list[tuple[Firmware, Path, list[Board]]]:
    """(entry, ELF path, boards) of every declared firmware binary this session runs (per ELF path)."""
    root = project.current().root
    found: list[tuple[Firmware, Path, list[Board]]] = []
    for firmware in project.current().firmware:
        boards, why_not = _boards_for(config, firmware)
        if why_not is not None:
            harness_state(config).notes.append(why_not)
        paths: dict[Path, list[Board]] = {}
        for board in boards:
            paths.setdefault(firmware.elf_for(root, board.name).resolve(), []).append(board)
        found += [(firmware, path, on) for path, on in paths.items()]
    return found


def check_frameworks() -> None:
    """A declared framework must be a registered log format (a usage error naming the known ones)."""
    from harness.formats import FORMATS

    for firmware in project.current().firmware:
        if firmware.framework is not None and firmware.framework not in FORMATS:
            raise pytest.UsageError(f"{firmware.origin} ({firmware.elf}): unknown framework "
                                    f"'{firmware.framework}'; known: {', '.join(FORMATS)} (or leave it out: "
                                    "detected from the output)")


def covers_project(config: pytest.Config) -> bool:
    """Whether this pytest call collects the whole project (no paths given, testpaths, or a path that is the
    project root, a folder above it or its settings file): then the declared firmware is collected too."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return True
    proj = project.current()
    here = Path(config.invocation_params.dir)
    for arg in config.args:
        path = (here / arg.split("::")[0]).resolve()
        if path == proj.root or path in proj.root.parents or path == proj.config_file:
            return True
    return False


def for_named_elf(config: pytest.Config, path: Path) -> tuple[Firmware, list[Board]]:
    """The entry and boards of an ELF named on the command line: the declared entry whose ELF it is, else
    an entry of its own on the session's boards (framework detected, the board's exit status)."""
    root = project.current().root
    resolved = path.resolve()
    for firmware in project.current().firmware:
        boards, _ = _boards_for(config, firmware)
        mine = [b for b in boards if firmware.elf_for(root, b.name).resolve() == resolved]
        if mine:
            return firmware, mine
    options = config.option
    adhoc = Firmware(elf=str(resolved), framework=getattr(options, "micro_framework", None),
                     exit_status=False if getattr(options, "no_exit_status", False) else None,
                     origin="the command line")
    return adhoc, list(harness_state(config).boards)


__all__ = ["FirmwareBinaryItem", "FirmwareCaseItem", "FirmwareFile", "MicroTestFailure", "check_frameworks",
           "covers_project", "firmware_files", "for_named_elf", "is_elf"]
