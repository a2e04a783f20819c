"""The pytest items of micro tests: a ``*_test.cc`` file collects one item per ``TF_LITE_MICRO_TEST``
case and board, plus one ``binary-checks`` item per binary and board for what no case owns (build, fit,
how the run ended, exit status, cases run but not in the source). Items read their binary's run from
``harness.pytest.state``; the verdict is the session's, case by case.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.board.boards import Board
from harness.build.diagnostics import first_error_line
from harness.build.driver import is_runtime_test, test_binary_name
from harness.build.make import elf_path
from harness.core.binary_info import declared_tests
from harness.formats.micro_test import model_figures, source_cases
from harness.outcome import Outcome
from harness.session import RunReport

if TYPE_CHECKING:
    from harness.formats.base import CaseResult


from harness.pytest.state import harness_state

BINARY_ITEM = "binary-checks"  # "-" cannot occur in a C++ test name


def named(config: pytest.Config, path: Path) -> bool:
    root = Path(config.invocation_params.dir)
    return any((root / arg.split("::")[0]).resolve() == path for arg in config.args)


class MicroTestFile(pytest.File):
    def collect(self) -> list[pytest.Item]:
        try:
            source = self.path.read_text(errors="replace")
        except OSError as error:
            raise self.CollectError(f"cannot read {self.path}: {error.strerror}") from error
        scanned = source_cases(source)
        from harness.formats.case_limits import CaseLimitError, source_case_timeouts

        try:
            source_case_timeouts(source, self.path)
        except CaseLimitError as error:
            raise self.CollectError(str(error)) from error
        binary = self.path.stem
        items: list[pytest.Item] = []
        for board in harness_state(self.config).boards:
            cases = self._compiled(board, scanned)
            for case in dict.fromkeys(cases):
                items.append(MicroCaseItem.from_parent(self, name=f"{case}[{board.name}]", case=case, board=board,
                                                       binary=binary, source_cases=cases,
                                                       nodeid=self._item_id(case, board)))
            items.append(MicroBinaryItem.from_parent(self, name=f"{BINARY_ITEM}[{board.name}]", case=None,
                                                     board=board, binary=binary, source_cases=cases,
                                                     nodeid=self._item_id(BINARY_ITEM, board)))
        return items

    def _item_id(self, name: str, board: Board) -> str:
        """``<file>::<name>[<board>]``, given as a string so that pytest parses it as it parses the ids it
        stored: pytest 9.2 compares structured ids (name and ``[params]`` apart) for ``--lf``, and an id
        built from the name ``Case[board]`` would never equal the stored ``Case`` + ``board``."""
        return f"{self.nodeid}::{name}[{board.name}]"

    def _compiled(self, board: Board, scanned: list[str]) -> list[str]:
        """The cases to collect on ``board``: the built binary's own list when it is newer than the source
        (so cases the preprocessor removed are no items), else the source scan (before the first build;
        the run is still held against the binary's list, and binary-checks names cases it missed)."""
        name = self.path.stem if is_runtime_test(self.path) else test_binary_name(self.path)
        elf = elf_path(board, name)
        try:
            fresh = elf.stat().st_mtime >= self.path.stat().st_mtime
        except OSError:
            return scanned
        declared = declared_tests(elf) if fresh else None
        if declared is None:
            return scanned
        order = {case: index for index, case in enumerate(scanned)}  # items in source order where known
        return sorted(declared.cases, key=lambda case: (order.get(case, len(order)), case))


class MicroTestFailure(Exception):
    """A micro test that failed on the device; shown as its message, without a Python traceback."""


class MicroItem(pytest.Item):
    def __init__(self, *, case: str | None, board: Board, binary: str, source_cases: list[str], **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.board = board
        self.binary = binary
        self.source_cases = source_cases
        self.outcome: RunReport | None = None
        # Micro items use no fixtures; plugins that look at every item's fixtures (labgrid's own
        # pytest plugin, which loads whenever labgrid is installed) must find an empty list.
        self.fixturenames: list[str] = []
        self.add_marker(pytest.mark.micro)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        label = self.case or "binary checks"
        return self.path, None, f"{self.binary}::{label}[{self.board.name}]"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, MicroTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def run_report(self) -> RunReport:
        """The binary's run on the board (built and run once per process; every item of the binary reads it)."""
        return harness_state(self.config).outcome(self.board, self.binary, self.path)

    def case_origin(self) -> str:
        """Where the item list came from, for "ran tests not found in ..."."""
        return f"{self.path.name} (TF_LITE_MICRO_TEST scan)"

    def setup(self) -> None:
        state = harness_state(self.config)
        self.outcome = report = self.run_report()
        self.user_properties.append(("board", self.board.name))
        self.user_properties.append(("backend", report.backend))
        if report.backend == "qemu" and state.icount is not None:
            self.user_properties.append(("icount", state.icount))
        if report.build is not None and report.build.footprint is not None:
            self.user_properties.append(("flash_bytes", report.build.footprint.flash))
            self.user_properties.append(("ram_bytes", report.build.footprint.ram))
        if report.run is not None:
            self.user_properties.append(("binary_duration_s", round(report.duration_s, 3)))
        if report.records:
            self.user_properties.append(("records", report.records))
        if report.outcome == Outcome.UNAVAILABLE:
            if report.summary.startswith("does not fit: "):
                pytest.skip(report.summary)
            message = f"{report.backend} cannot run {self.board.name}: {report.summary}"
            self.user_properties.append(("unavailable", message))
            if state.skip_unavailable:
                pytest.skip(message)
            pytest.fail(f"{message} (pass --skip-unavailable to skip instead)", pytrace=False)
        if report.outcome == Outcome.BUILD_ERROR:
            self._setup_build_error(report.summary)
        if report.outcome == Outcome.INFRA_ERROR:
            pytest.fail(f"{self.binary} on {report.backend}: {report.summary}", pytrace=False)

    def _setup_build_error(self, message: str) -> None:
        lines = message.splitlines() or [message]
        first = first_error_line(message, self.path) or lines[0]  # at the user's own line, not micro_test.h's
        pytest.fail(f"{self.binary} not built for {self.board.name}: {first}", pytrace=False)

    def _context(self) -> str:
        """Log tail + where the full log is, for crash/timeout messages."""
        assert self.outcome is not None
        report = self.outcome
        parts = []
        if report.crash is not None:
            parts.append(report.crash.render())
        if report.log_tail:
            parts.append("log tail:\n" + "\n".join(f"  | {line}" for line in report.log_tail))
        if report.log_path is not None:
            parts.append(f"full log: {report.log_path}")
        if report.records == "unauthenticated":
            parts.append("records: unauthenticated (no run token reached the device: "
                         f"{report.backend} cannot deliver one)")
        return "\n".join(parts)


class MicroCaseItem(MicroItem):
    def setup(self) -> None:
        super().setup()
        assert self.outcome is not None
        report = self.outcome
        result = case_result(report, self.case)
        if result is not None:
            seconds = report.case_seconds.get(result.name)
            if seconds is not None:  # from the live run: a log parsed afterwards has no arrival times
                self.user_properties.append(("duration_s", round(seconds, 4)))
            instructions = report.case_instructions.get(result.name)
            if instructions is not None:  # counted under QEMU (harness.runners.insn_count): exact, deterministic
                self.user_properties.append(("instructions", instructions))
            cycles = report.case_cycles.get(result.name)
            if cycles is not None and report.timing_clock_hz:  # the timing model's estimate (docs/measurement.md)
                self.user_properties.append(("estimated_cycles", cycles))
                self.user_properties.append(("estimated_us", round(cycles * 1e6 / report.timing_clock_hz, 2)))
            measured = report.case_measured_cycles.get(result.name)
            if measured is not None:  # the silicon's DWT counter at the case markers (harness.runners.dwt)
                self.user_properties.append(("measured_cycles", measured))
            for figure, model, value in model_figures("\n".join(result.messages).encode()):
                self.user_properties.append((f"{figure}:{model}", value))  # a figure the case printed
            stack = report.case_stack.get(result.name)
            if stack is not None:  # deepest stack of the case, bytes from the top (stores through SP)
                self.user_properties.append(("stack_bytes", stack))
            return
        if self.case not in self.compiled_cases():
            pytest.skip(f"{self.case} is not compiled into {self.binary} for {self.board.name} "
                        "(removed by the preprocessor; not in the binary's case list)")
        dead = next((c for c in report.cases if c.outcome in (Outcome.CRASHED, Outcome.TIMEOUT)), None)
        if report.outcome in (Outcome.CRASHED, Outcome.TIMEOUT):
            verb = "crashed" if report.outcome == Outcome.CRASHED else "timed out"
            where = f"in {dead.name}" if dead is not None else "before its first test"
            pytest.fail(f"not reached: binary {verb} {where} ({report.summary})", pytrace=False)

    def compiled_cases(self) -> list[str]:
        """The binary's own case list (its ELF), else the source's."""
        assert self.outcome is not None
        declared = declared_tests(self.outcome.elf) if self.outcome.elf is not None else None
        return list(declared.cases) if declared is not None else self.source_cases

    def runtest(self) -> None:
        assert self.outcome is not None
        report = self.outcome
        result = case_result(report, self.case)
        if result is None:
            raise MicroTestFailure(
                f"{self.case} is in {self.path.name} but the binary never ran it "
                f"(binary: {report.summary})\n{self._context()}"
            )
        if result.outcome == Outcome.CRASHED:
            raise MicroTestFailure(f"{self.case} crashed on {self.board.name}: {report.summary}\n{self._context()}")
        if result.outcome == Outcome.TIMEOUT:
            raise MicroTestFailure(f"{self.case} timed out on {self.board.name}: {report.summary}\n{self._context()}")
        if result.outcome == Outcome.SKIPPED:
            lines = "; ".join(m.strip() for m in result.messages[-3:]) or "skipped by the test"
            pytest.skip(f"{self.case} skipped on {self.board.name}: {lines}")
        if result.outcome != Outcome.PASSED:
            lines = "\n".join(result.messages) or "(the case printed no failure message)"
            raise MicroTestFailure(f"{self.case} failed on {self.board.name}:\n{lines}")


class MicroBinaryItem(MicroItem):
    """Checks that belong to the binary, not to one case: it fails whenever the binary did not
    end cleanly (crash, hang, no exit, inconsistent log, broken record stream), ran no test, ran
    names not in its case list, or has compiled cases that were not collected as items."""

    def _setup_build_error(self, message: str) -> None:
        pytest.fail(message, pytrace=False)  # the full compiler output, once per binary

    def setup(self) -> None:
        super().setup()
        build = self.outcome.build if self.outcome is not None else None
        if build is not None and build.warnings:  # a project with warnings-as-errors = false: shown, not lost
            import warnings

            warnings.warn_explicit(pytest.PytestWarning(f"{self.binary} built for {self.board.name} with compiler "
                                                        "warnings:\n" + "\n".join(build.warnings)),
                                   pytest.PytestWarning, str(self.path), 1)

    def runtest(self) -> None:
        assert self.outcome is not None
        report = self.outcome
        problems = []
        declared = declared_tests(report.elf) if report.elf is not None else None
        ran = [c.name for c in report.cases]
        if declared is None:
            unknown = [name for name in dict.fromkeys(ran) if name not in self.source_cases]
            if unknown:
                problems.append(f"ran tests not found in {self.case_origin()}: {', '.join(unknown)}")
        else:
            uncollected = [name for name in dict.fromkeys(declared.cases) if name not in self.source_cases]
            if uncollected:
                problems.append(f"cases compiled into the binary have no item (collection scanned the source before "
                                f"the binary existed): {', '.join(uncollected)}; run pytest again to collect them "
                                "from the binary")
        cases = list(declared.cases) if declared is not None else self.source_cases
        duplicates = sorted({c for c in cases if cases.count(c) > 1})
        if duplicates:
            problems.append(f"test names defined twice in {self.path.name}: {', '.join(duplicates)}")
        not_a_case = report.outcome == Outcome.FAILED and not any(c.outcome == Outcome.FAILED for c in report.cases)
        if report.outcome in (Outcome.NO_TESTS, Outcome.CRASHED, Outcome.TIMEOUT) or not_a_case:
            problems.append(report.summary)
        problems += [p for p in report.problems if p not in problems]
        if problems:
            raise MicroTestFailure(f"{self.binary} on {self.board.name}:\n" + "\n".join(problems)
                                   + "\n" + self._context())


_SEVERITY = {Outcome.PASSED: 0, Outcome.SKIPPED: 1, Outcome.FAILED: 2, Outcome.TIMEOUT: 3, Outcome.CRASHED: 4}


def case_result(report: RunReport, name: str | None) -> CaseResult | None:
    """The result of case ``name``; a name that ran twice (defined twice) reports its worst run."""
    runs = [c for c in report.cases if c.name == name]
    return max(runs, key=lambda c: _SEVERITY.get(Outcome(c.outcome), 5)) if runs else None


