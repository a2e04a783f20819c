"""Robot Framework keyword library: the harness's build/run/parse engine for Robot suites.

    *** Settings ***
    Library    harness.robot.HarnessLibrary    board=bluepill

    *** Test Cases ***
    Kernel Helpers Pass
        ${elf}=    Build Micro Test    kernel_util_test
        Run On Board    ${elf}
        Micro Test Should Pass

The same builds, runners (host, QEMU, Renode, pyOCD, serial, GDB server,
a hardware map of real boards) and log parser as ``pytest`` and ``harness run``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from robot.api import logger
from robot.api.deco import keyword, library

from harness.board.boards import Board, load_board
from harness.runners.failure_classes import classify_run


@library(scope="SUITE", auto_keywords=False)
class HarnessLibrary:
    """Build micro_runtime test binaries, run them on a board, check the results."""

    def __init__(
        self,
        board: str = "host",
        backend: str | None = None,
        hardware_map: str | None = None,
        timeout: float | str = 120,
    ) -> None:
        self.board_name = board
        self.backend = backend or None
        self.hardware_map = hardware_map or None
        self.timeout_s = float(timeout)
        self.last_run: Any = None
        self.last_report: Any = None

    # ------------------------------------------------------------------ helpers
    def _board(self, board: str | None) -> Board:
        return load_board(board or self.board_name)

    def _require_run(self) -> tuple[Any, Any]:
        if self.last_run is None or self.last_report is None:
            raise AssertionError("no test binary has run yet: use 'Run On Board' (or 'Run Micro Test') first")
        return self.last_run, self.last_report

    # ----------------------------------------------------------------- keywords
    @keyword("Build Micro Test")
    def build_micro_test(self, name: str, board: str | None = None) -> str:
        """Builds test binary ``name`` (a test of micro_runtime or of the project, by name or ``*_test.cc`` path)
        for the board; returns the ELF path."""
        from harness.build.driver import BuildError, binary_for

        target = self._board(board)
        try:
            elf = binary_for(target, name, progress=None)
        except BuildError as error:
            raise AssertionError(str(error)) from None
        logger.info(f"built {name} for {target.name}: {elf}")
        return str(elf)

    @keyword("Run On Board")
    def run_on_board(
        self,
        elf: str,
        board: str | None = None,
        backend: str | None = None,
        timeout: float | str | None = None,
        hardware_map: str | None = None,
    ) -> str:
        """Runs the ELF on the board (default backend: the board's emulator; or ``backend=``/``hardware_map=``).

        Returns the outcome: passed, failed, crashed, timeout, no-tests or infra-error. Does not fail by
        itself; check with `Micro Test Should Pass` or `Micro Test Outcome Should Be`.
        """
        from harness.outcome import Outcome
        from harness.session import RunOptions, run_binary

        target = self._board(board)
        map_path = hardware_map or self.hardware_map
        options = RunOptions(backend=backend or self.backend, hardware_map=Path(map_path) if map_path else None,
                             timeout_s=self.timeout_s if timeout is None else float(timeout))
        report = run_binary(target, Path(elf), options, source=self._source_of(Path(elf)))
        if report.outcome == Outcome.UNAVAILABLE:
            raise AssertionError(report.summary if report.usage_error else
                                 f"cannot run on {target.name} with {report.backend}: {report.summary}")
        self.last_run, self.last_report = report, report
        logger.info(report.annotated_log.decode("utf-8", errors="replace"))
        records = f", records {report.records}" if report.records else ""
        logger.info(f"{Path(elf).name} on {target.name} ({report.backend}{records}): {report.outcome}: "
                    f"{report.summary}")
        return str(report.outcome)

    @staticmethod
    def _source_of(elf: Path) -> Path | None:
        """The test source of a built test binary (per-case limits), if the harness built it."""
        from harness.build.driver import source_of

        return source_of(elf)

    @keyword("Run Micro Test")
    def run_micro_test(self, name: str, board: str | None = None, backend: str | None = None) -> str:
        """`Build Micro Test` then `Run On Board`; returns the outcome."""
        # robot's @keyword is untyped, so to mypy the keyword methods it decorates return Any.
        outcome: str = self.run_on_board(self.build_micro_test(name, board), board, backend)
        return outcome

    @keyword("Micro Test Should Pass")
    def micro_test_should_pass(self) -> None:
        """Fails unless every case of the last run passed (and it ended cleanly)."""
        _, report = self._require_run()
        if report.outcome != "passed":
            failed = [
                f"{c.name}: {c.outcome}" + (f" ({c.messages[0]})" if c.messages else "")
                for c in report.cases
                if c.outcome != "passed"
            ]
            detail = ("\n" + "\n".join(failed[:10])) if failed else ""
            raise AssertionError(f"micro test {report.outcome}: {report.summary}{detail}")

    @keyword("Micro Test Outcome Should Be")
    def micro_test_outcome_should_be(self, expected: str) -> None:
        """Checks the outcome of the last run: passed, failed, crashed, timeout, no-tests or infra-error."""
        _, report = self._require_run()
        if report.outcome != expected:
            raise AssertionError(f"outcome is {report.outcome}, expected {expected}: {report.summary}")

    @keyword("Failure Class Should Be")
    def failure_class_should_be(self, expected: str) -> None:
        """The harness's failure class of the last run (passed/failed/crashed/timeout/infra-error)."""
        run, report = self._require_run()
        actual = classify_run(run.run, report.outcome) if run.run is not None else report.outcome
        if actual != expected:
            raise AssertionError(f"failure class is {actual}, expected {expected}: {report.summary}")

    @keyword("Case Should Have Passed")
    def case_should_have_passed(self, case: str) -> None:
        """Fails unless the named TF_LITE_MICRO_TEST case ran and passed in the last run."""
        _, report = self._require_run()
        found = next((c for c in report.cases if c.name == case), None)
        if found is None:
            names = ", ".join(c.name for c in report.cases) or "none"
            raise AssertionError(f"case {case} did not run; cases that ran: {names}")
        if found.outcome != "passed":
            raise AssertionError(f"case {case} {found.outcome}: {'; '.join(found.messages[:3])}")

    @keyword("Log Should Contain")
    def log_should_contain(self, text: str) -> None:
        """Fails unless the device log of the last run contains ``text``."""
        run, _ = self._require_run()
        log = run.log.decode("utf-8", errors="replace")
        if text not in log:
            tail = "\n".join(log.splitlines()[-8:])
            raise AssertionError(f"the device log does not contain {text!r}; its last lines:\n{tail}")

    @keyword("Log File Should Pass")
    def log_file_should_pass(self, path: str, elf: str | None = None, board: str | None = None) -> None:
        """Judges a device log saved to ``path`` (e.g. by Renode's ``CreateFileBackend`` under ``renode-test``)
        with the harness's one reader: the framework's own end of run, every case closed, records in
        sequence, per-case verdicts, no HardFault. ``elf`` (``@``-prefixed Renode tokens are accepted) lets the
        binary declare its framework and cases. Fails with the verdict's summary unless the run passed."""
        from harness.formats.reader import parse_log
        from harness.run_result import RunResult

        log = Path(path.removeprefix("@").replace("\\ ", " ")).read_bytes()
        binary = Path(elf.removeprefix("@").replace("\\ ", " ")) if elf else None
        run = RunResult("renode-test", log, None, False, 0.0, "end-marker")
        report = parse_log(log, run, binary if binary is not None and binary.is_file() else None,
                           self._board(board))
        logger.info(f"{report.outcome}: {report.summary}")
        if report.outcome != "passed":
            tail = "\n".join(report.log_tail[-8:])
            raise AssertionError(f"{report.outcome}: {report.summary}\nlast lines:\n{tail}")

    @keyword("Get Device Log")
    def get_device_log(self) -> str:
        run, _ = self._require_run()
        return str(run.log.decode("utf-8", errors="replace"))

    @keyword("Run Model")
    def run_model(self, model: str, cases: str, board: str | None = None, backend: str | None = None) -> dict[str, Any]:
        """Runs a .tflite model with its cases.json on the board (harness.cli.run_model); returns the result dict."""
        from harness.core.extras import problem

        missing = problem("model", "the Run Model keyword")  # numpy, flatbuffers: say which extra, no traceback
        if missing is not None:
            raise AssertionError(missing)
        from harness.cli.run_model import RunModelError
        from harness.cli.run_model import run_model as run

        try:
            return run(Path(model), board or self.board_name, Path(cases), backend=backend or self.backend)
        except RunModelError as error:
            raise AssertionError(str(error)) from None
