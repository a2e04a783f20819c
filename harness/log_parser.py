"""Turns a test binary's log into per-test results: the one place that knows the protocol.

Two formats are recognized automatically (docs/log_protocol.md has the full rules):

micro_test (micro_runtime/micro_test.h, TFLM v1)::

    Testing <name>
    <expr> failed at <file>:<line> (<a> vs <b>)
    <passed>/<total> tests passed
    ~~~ALL TESTS PASSED~~~  |  ~~~SOME TESTS FAILED~~~

gtest-style (newer TFLM)::

    [==========] Running N tests from M test suites.
    [ RUN      ] Suite.Name
    <file>:<line>: Failure
    [       OK ] Suite.Name (0 ms)  |  [  FAILED  ] Suite.Name (0 ms)
    [  PASSED  ] N tests.  |  [  FAILED  ] N tests, listed below:

Plus, in any format, the boards' HardFault line (``harness.crash``). The parser is
streaming: ``feed`` takes any chunking; ``finish`` combines the log with how the
run ended (``RunResult``) into a ``BinaryReport``.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.crash import CrashReport, parse_hardfault_line, symbolize
from harness.runners.base import FAIL_SENTINEL, HARDFAULT_PREFIX, PASS_SENTINEL, clean_line

if TYPE_CHECKING:
    from harness.boards import Board
    from harness.runners.base import RunResult

TAIL_LINES = 20
MAX_CASE_MESSAGES = 200
MAX_LINE_BYTES = 64 * 1024  # a chatty test must not eat memory; the tail still shows the end

_MT_TESTING = re.compile(r"^Testing (?P<name>\S+)$")
_MT_FAILURE = re.compile(r"\bfailed at (?P<file>[^\s:]+):(?P<line>\d+)")
_MT_COUNTS = re.compile(r"^(?P<passed>\d+)/(?P<total>\d+) tests passed$")
_GT_START = re.compile(r"^\[==========\] Running (?P<total>\d+) tests? from")
_GT_RAN = re.compile(r"^\[==========\] (?P<total>\d+) tests? from .* ran\.")
_GT_RUN = re.compile(r"^\[ RUN      \] (?P<name>\S+)")
_GT_OK = re.compile(r"^\[       OK \] (?P<name>\S+)(?: \((?P<ms>\d+) ms\))?")
_GT_SKIPPED = re.compile(r"^\[  SKIPPED \] (?P<name>\S+)(?: \((?P<ms>\d+) ms\))?")
_GT_FAILED_CASE = re.compile(r"^\[  FAILED  \] (?P<name>\S+) \((?P<ms>\d+) ms\)")
_GT_PASSED_END = re.compile(r"^\[  PASSED  \] (?P<n>\d+) tests?\.")
_GT_FAILED_END = re.compile(r"^\[  FAILED  \] (?P<n>\d+) tests?, listed below:")
_GT_FAILURE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): Failure")


@dataclass
class CaseResult:
    name: str
    outcome: str  # "passed" | "failed" | "crashed" | "timeout"
    messages: list[str] = field(default_factory=list)
    duration_s: float | None = None


@dataclass
class BinaryReport:
    outcome: str  # "passed" | "failed" | "crashed" | "timeout" | "no-tests" | "infra-error"
    cases: list[CaseResult]
    summary: str  # one-line human explanation
    log_tail: list[str]
    crash: CrashReport | None
    format: str  # "micro_test" | "gtest" | "unknown"


class LogParser:
    def __init__(self, tail_lines: int = TAIL_LINES) -> None:
        self._pending = b""
        self.format = "unknown"
        self.cases: list[CaseResult] = []
        self._current: CaseResult | None = None  # the case that started and has not ended
        self._dropped: dict[int, int] = {}  # id(case) -> messages beyond MAX_CASE_MESSAGES
        self.tail: deque[str] = deque(maxlen=tail_lines)
        self.stray_failures: list[str] = []  # failure lines outside any test case
        self.crash: CrashReport | None = None
        self.sentinel: str | None = None  # "passed" | "failed": the binary's own verdict
        self.counts: tuple[int, int] | None = None  # micro_test N/M, gtest (passed, total)
        self.gtest_declared: int | None = None  # "Running N tests"
        self.undecodable_fault: str | None = None  # a HardFault line cut short or garbled
        self._in_gtest_failure = False
        self._raw = ""  # the line being handled, as printed

    # -- input --------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for raw in lines:
            self._line(clean_line(raw))
        while len(self._pending) > MAX_LINE_BYTES:
            # Garbage without newlines (wrong baud rate, binary dump) must not grow without bound;
            # cutting at fixed offsets keeps the result independent of the chunking.
            raw, self._pending = self._pending[:MAX_LINE_BYTES], self._pending[MAX_LINE_BYTES:]
            self._line(clean_line(raw))

    def _flush(self) -> None:
        if self._pending:
            raw, self._pending = self._pending, b""
            self._line(clean_line(raw))

    def _line(self, raw_line: str) -> None:
        # Match on the stripped text; keep the line as printed (indentation) for messages.
        line = raw_line.strip()
        if not line:
            return
        self._raw = raw_line
        self.tail.append(raw_line)
        if HARDFAULT_PREFIX in line:
            report = parse_hardfault_line(line)
            if report is None:
                self.undecodable_fault = self.undecodable_fault or line
            elif self.crash is None:
                self.crash = report
            self._message()
            return
        if self.format != "gtest" and self._micro_test_line(line):
            return
        if self.format != "micro_test" and self._gtest_line(line):
            return
        self._message()

    def _message(self) -> None:
        """Attaches the current line, as printed, to the running case."""
        case = self._current
        if case is None:
            return
        if len(case.messages) < MAX_CASE_MESSAGES:
            case.messages.append(self._raw)
        else:
            self._dropped[id(case)] = self._dropped.get(id(case), 0) + 1

    def _start_case(self, name: str) -> None:
        self._end_current()
        self._current = CaseResult(name=name, outcome="passed")
        self.cases.append(self._current)

    def _end_current(self) -> None:
        case = self._current
        if case is not None and id(case) in self._dropped:
            case.messages.append(f"... {self._dropped.pop(id(case))} more lines (see the full log)")
        self._current = None

    def _fail_current(self, line: str) -> None:
        if self._current is None:
            self.stray_failures.append(line)
        else:
            self._current.outcome = "failed"
            self._message()

    def _micro_test_line(self, line: str) -> bool:
        match = _MT_TESTING.match(line)
        if match:
            self.format = "micro_test"
            self._start_case(match["name"])
            return True
        if line in (PASS_SENTINEL, FAIL_SENTINEL) or line.endswith((PASS_SENTINEL, FAIL_SENTINEL)):
            self.format = "micro_test"
            self._end_current()
            if self.sentinel is None:
                self.sentinel = "passed" if line.endswith(PASS_SENTINEL) else "failed"
            return True
        match = _MT_COUNTS.match(line)
        if match:
            self.format = "micro_test"
            self._end_current()
            self.counts = (int(match["passed"]), int(match["total"]))
            return True
        if self.format == "micro_test" and _MT_FAILURE.search(line):
            self._fail_current(line)
            return True
        return False

    def _gtest_line(self, line: str) -> bool:
        if not line.startswith("[") and not (self.format == "gtest" and _GT_FAILURE.match(line)):
            if self._in_gtest_failure:
                self._message()  # the expectation text under "file:line: Failure"
                return True
            return False
        if match := _GT_START.match(line):
            self.format = "gtest"
            self.gtest_declared = int(match["total"])
        elif match := _GT_RUN.match(line):
            self.format = "gtest"
            self._start_case(match["name"])
        elif match := _GT_OK.match(line):
            self._close_gtest_case(match["name"], None, match["ms"])
        elif match := _GT_SKIPPED.match(line):
            self._close_gtest_case(match["name"], "skipped", match["ms"])
        elif match := _GT_FAILED_CASE.match(line):
            self._close_gtest_case(match["name"], "failed", match["ms"])
        elif match := _GT_FAILURE.match(line):
            self._in_gtest_failure = True
            self._fail_current(line)
            return True
        elif match := _GT_PASSED_END.match(line):
            self._end_current()
            if self.sentinel is None:
                self.sentinel = "passed"
            passed = int(match["n"])
            total = self.counts[1] if self.counts else len(self.cases)
            self.counts = (passed, total)
        elif match := _GT_FAILED_END.match(line):
            self._end_current()
            self.sentinel = "failed"
        elif match := _GT_RAN.match(line):
            self._end_current()
            self.counts = (self.counts[0] if self.counts else -1, int(match["total"]))
        elif self.format == "gtest" and line.startswith("[  FAILED  ]"):
            pass  # the list of failed tests after "listed below:"; already known per case
        else:
            if self._in_gtest_failure:
                self._message()
                return True
            return False
        if self.format == "unknown":
            self.format = "gtest"
        self._in_gtest_failure = False
        return True

    def _close_gtest_case(self, name: str, outcome: str | None, ms: str | None) -> None:
        case = self._current
        if case is None or case.name != name:
            # An end line without its RUN line (lost to a truncated log): still a real result.
            case = CaseResult(name=name, outcome="passed")
            self.cases.append(case)
        if outcome == "failed":
            case.outcome = "failed"
        elif outcome == "skipped":
            case.messages.append("[skipped]")
        if ms is not None:
            case.duration_s = int(ms) / 1000.0
        self._current = case
        self._end_current()

    # -- verdict --------------------------------------------------------------------------
    def finish(
        self,
        run: RunResult | None = None,
        elf: Path | None = None,
        board: Board | None = None,
    ) -> BinaryReport:
        self._flush()
        if self.crash is not None:
            addr2line = board.tool("addr2line") if board is not None and board.toolchain_prefix else None
            symbolize(self.crash, elf, addr2line or "arm-none-eabi-addr2line")
        outcome, summary = self._verdict(run)
        return BinaryReport(
            outcome=outcome,
            cases=list(self.cases),
            summary=summary,
            log_tail=list(self.tail),
            crash=self.crash,
            format=self.format,
        )

    def _running(self) -> str:
        case = self._current
        return f" in test {case.name}" if case is not None else ""

    def _died(self, outcome: str) -> None:
        if self._current is not None:
            self._current.outcome = outcome
            self._end_current()

    def _verdict(self, run: RunResult | None) -> tuple[str, str]:
        if run is not None and run.infra_error:
            return "infra-error", f"could not run the binary on {run.backend}: {run.infra_error}"
        if self.crash is not None:
            where = self._running()
            self._died("crashed")
            return "crashed", f"crashed{where}: {self.crash.summary()}"
        if self.undecodable_fault is not None:
            where = self._running()
            self._died("crashed")
            return "crashed", f"crashed{where}: HardFault line could not be decoded: {self.undecodable_fault}"
        exit_code = run.exit_code if run is not None else None
        if self.sentinel is None:
            where = self._running()
            if run is not None and run.timed_out:
                self._died("timeout")
                return "timeout", f"timed out after {run.duration_s:.1f} s{where} without an end marker"
            self._died("crashed")
            if run is None:
                return "crashed", f"log ended{where} without an end marker (truncated, or the device died)"
            if exit_code is not None and exit_code < 0 and run.backend == "host":
                return "crashed", f"killed by signal {_signal_name(-exit_code)}{where}"
            if run.end_reason == "crash":
                last = f"; last line: {self.tail[-1]}" if self.tail else ""
                return (
                    "crashed",
                    f"crashed{where} (the {run.backend} run ended in a crash without a HardFault line{last})",
                )
            status = f"exit status {exit_code}" if exit_code is not None else f"end: {run.end_reason}"
            return "crashed", f"died{where} without an end marker ({status})"
        return self._judge_complete(exit_code)

    def _judge_complete(self, exit_code: int | None) -> tuple[str, str]:
        ran = len(self.cases)
        failed = [c.name for c in self.cases if c.outcome != "passed"]
        declared_total = self.counts[1] if self.counts else None
        if ran == 0 or declared_total == 0:
            return "no-tests", "no tests ran (0 tests): the binary defines no test cases, or they were compiled out"
        if failed:
            names = ", ".join(failed[:5]) + (", ..." if len(failed) > 5 else "")
            return "failed", f"{len(failed)} of {ran} tests failed: {names}"
        if self.stray_failures:
            return "failed", f"failure reported outside any test: {self.stray_failures[0]}"
        if self.sentinel == "failed":
            return "failed", f"binary reported failure ({self._sentinel_text()}) although all {ran} tests passed"
        problem = self._count_problem(ran)
        if problem is not None:
            return "failed", problem
        if exit_code is not None and exit_code != 0:
            return "failed", f"exit status {exit_code} contradicts pass sentinel ({ran} tests passed)"
        return "passed", f"{ran}/{ran} tests passed"

    def _sentinel_text(self) -> str:
        return FAIL_SENTINEL if self.format == "micro_test" else "[  FAILED  ] summary"

    def _count_problem(self, ran: int) -> str | None:
        passed_cases = ran  # only reached when no case failed
        if self.format == "micro_test":
            if self.counts is None:
                return f"inconsistent log: pass sentinel without the '<passed>/<total> tests passed' line ({ran} ran)"
            passed, total = self.counts
            if total != ran or passed != passed_cases:
                return f"inconsistent log: '{passed}/{total} tests passed' but {ran} tests ran, {passed_cases} passed"
            return None
        if self.gtest_declared is not None and self.gtest_declared != ran:
            return f"inconsistent log: gtest announced {self.gtest_declared} tests but {ran} ran"
        if self.counts is not None:
            passed, total = self.counts
            if (passed >= 0 and passed != passed_cases) or total != ran:
                return f"inconsistent log: gtest summary says {passed} passed of {total} but {ran} tests ran"
        return None


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def parse_log(
    data: bytes, run: RunResult | None = None, elf: Path | None = None, board: Board | None = None
) -> BinaryReport:
    """One-shot helper: feed a whole log and judge it."""
    parser = LogParser()
    parser.feed(data)
    return parser.finish(run, elf, board)
