"""The plugin's state in one pytest process: the boards and options chosen, what was built, and each
binary's run (built and run once per board and process; every item of the binary reads it).

``HarnessState.outcome`` is where an item's binary is built (all binaries of a board in one make call)
and run through the one run session (``harness.session.run_binary``); the annotated log goes to
``gen/<board>/logs/<binary>.log``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.board.boards import Board
from harness.build.driver import BinaryBuild, BuildError, build, build_test, excluded_tests, is_runtime_test
from harness.build.make import gen_dir
from harness.outcome import Outcome
from harness.session import RunOptions, RunReport, run_binary

if TYPE_CHECKING:
    pass



@dataclass
class HarnessState:
    config: pytest.Config
    boards: list[Board]
    backend: str | None
    timeout_s: float | None
    icount: int | None = None  # --icount: QEMU's -icount shift for MCU boards
    wanted: dict[str, set[str]] = field(default_factory=dict)  # board -> in-tree binaries selected
    built: dict[str, dict[str, BinaryBuild]] = field(default_factory=dict)
    excluded: dict[str, dict[str, str]] = field(default_factory=dict)  # board -> test -> Makefile's note
    build_errors: dict[str, str] = field(default_factory=dict)
    outcomes: dict[tuple[str, str], RunReport] = field(default_factory=dict)
    skip_unavailable: bool = False  # --skip-unavailable / ini micro_skip_unavailable
    firmware_built: set[tuple[str, str]] = field(default_factory=set)  # (ELF, board) whose build command ran
    firmware_paths: set[Path] = field(default_factory=set)  # foreign ELFs already collected (harness.pytest.firmware)
    notes: list[str] = field(default_factory=list)  # said once in the terminal summary

    # -- choices ------------------------------------------------------------------------------
    def resolve(self, board: Board) -> Any:
        """The runner and its report label for ``board`` (``harness.session.resolve_runner``)."""
        from harness.pytest.hil import runner_override
        from harness.session import resolve_runner

        return resolve_runner(board, self.backend, self.icount, map_runner=runner_override(self.config, board))

    def label_for(self, board: Board) -> str:
        """What runs the board's binaries, for reports: its backend, or ``hil:<backend>`` of the map's boards."""
        from harness.runners import ResolveError

        try:
            return str(self.resolve(board).label)
        except ResolveError:
            return self.backend or "?"

    def timeout_for(self, board: Board) -> float:
        """The limit of one binary's run on ``board`` (``--micro-timeout``, else the board's)."""
        from harness.session import timeout_for

        return timeout_for(board, RunOptions(timeout_s=self.timeout_s))

    def options_for(self, board: Board) -> RunOptions:
        from harness.pytest.hil import runner_override

        return RunOptions(backend=self.backend, icount=self.icount, timeout_s=self.timeout_s,
                          map_runner=runner_override(self.config, board))

    def progress(self, message: str) -> None:
        """One ``harness: ...`` line on the terminal now (build and run progress); none with ``-q``.

        An xdist worker has no terminal reporter, but its stderr is the controller's: with capturing
        suspended it writes the line there itself, in one write, prefixed with its id.
        """
        if self.config.getoption("verbose") < 0:  # get_verbosity() needs pytest 8
            return
        capture = self.config.pluginmanager.get_plugin("capturemanager")
        worker = getattr(self.config, "workerinput", None)
        if worker is not None:
            line = f"\nharness: [{worker.get('workerid', '?')}] {message}\n".encode()
            with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
                os.write(2, line)
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        if capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(f"harness: {message}")
        else:
            reporter.write_line(f"harness: {message}")

    @contextlib.contextmanager
    def ticking(self, what: str, every_s: float = 8.0) -> Any:
        """Says ``<what>: still running after N s`` every ``every_s`` while the block runs."""
        import threading
        import time

        done = threading.Event()
        start = time.monotonic()

        def tick() -> None:
            while not done.wait(every_s):
                self.progress(f"{what}: still running after {time.monotonic() - start:.0f} s")

        thread = threading.Thread(target=tick, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    # -- building -------------------------------------------------------------------------
    def binary_build(self, board: Board, binary: str, source: Path) -> BinaryBuild:
        if not is_runtime_test(source):
            # A project's own test (or a fixture firmware named on the command line): one program each.
            return build_test(board, source, progress=self.progress)
        if board.name in self.build_errors:
            raise BuildError(self.build_errors[board.name])
        if board.name not in self.built:
            # One make call for every in-tree binary this session runs on the board.
            skip = self.excluded_on(board)
            names = sorted((self.wanted.get(board.name) or {binary}) - set(skip)) or [binary]
            try:
                self.built[board.name] = build(board, names, progress=self.progress).binaries
            except BuildError as error:
                self.build_errors[board.name] = str(error)
                raise
        found = self.built[board.name].get(binary)
        if found is None:  # not in the session's list (e.g. collected late): build it alone
            found = build(board, [binary], progress=self.progress).binaries[binary]
            self.built[board.name][binary] = found
        return found

    def excluded_on(self, board: Board) -> dict[str, str]:
        if board.name not in self.excluded:
            self.excluded[board.name] = excluded_tests(board) if shutil.which("make") else {}
        return self.excluded[board.name]

    # -- running --------------------------------------------------------------------------
    def outcome(self, board: Board, binary: str, source: Path) -> RunReport:
        """The run of ``binary`` on ``board``, once per process: through the one run session."""
        key = (str(source), board.name)
        if key in self.outcomes:
            return self.outcomes[key]
        built: list[BinaryBuild] = []

        def build_it() -> Path:
            if is_runtime_test(source):
                note = self.excluded_on(board).get(binary)
                if note is not None:  # declared too big for the board (requirements.mk)
                    raise DoesNotFit(f"does not fit: {note}")
            found = self.binary_build(board, binary, source)
            built.append(found)
            if found.error is not None or found.elf is None:
                raise BuildError(found.error or f"{binary} was not built")
            return found.elf

        def ticking(label: str) -> Any:
            return self.ticking(f"running {binary} on {board.name} ({label})")

        try:
            report = run_binary(board, build_it, self.options_for(board), source=source, wrap=ticking)
        except DoesNotFit as fit:
            report = RunReport(board=board, backend=self.label_for(board), outcome=Outcome.UNAVAILABLE,
                               summary=str(fit))
        report.build = built[0] if built else None
        self.outcomes[key] = report
        if report.elf is not None and report.outcome not in (Outcome.UNAVAILABLE, Outcome.BUILD_ERROR):
            save_log(report, gen_dir(board) / "logs", binary)
        return report


def save_log(report: RunReport, log_dir: Path, name: str) -> None:
    """Writes the run's annotated log to ``<log_dir>/<name>.log`` and keeps the path in the report."""
    log_dir.mkdir(parents=True, exist_ok=True)
    report.log_path = log_dir / f"{name}.log"
    report.log_path.write_bytes(report.annotated_log)


class DoesNotFit(Exception):
    """A binary the Makefile declares too big for the board (skipped, not an error)."""


STATE_KEY = pytest.StashKey[HarnessState]()
SESSION_KEY = pytest.StashKey[str]()


def harness_state(config: pytest.Config) -> HarnessState:
    return config.stash[STATE_KEY]


