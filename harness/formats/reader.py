"""The stream side of every format: lines, crash lines, format detection, the end rule, the verdict.

``LogReader`` is fed raw bytes in any chunking (``feed``). It splits lines, cleans them
(``clean_line``), watches for the boards' HardFault line (``harness.crash``), hands every
line to the format reader (fixed, or detected from the first line only one framework
prints; lines before detection are replayed into it), and exposes the end rule the run loop
uses: ``crash_seen`` and ``complete`` (the framework's own end, every case closed).
``finish`` combines all that with how the run ended (``RunResult``) into a ``BinaryReport``.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.crash import HARDFAULT_PREFIX, CrashReport, parse_hardfault_line, symbolize
from harness.formats import FormatReader, detection_order, reader_class
from harness.formats.base import CRASHED, FAILED, PASSED, SKIPPED, TIMEOUT, CaseResult

if TYPE_CHECKING:
    from harness.boards import Board
    from harness.runners.base import RunResult

TAIL_LINES = 20
MAX_LINE_BYTES = 64 * 1024  # a chatty device must not eat memory; the tail still shows the end
_REPLAY_LINES = 200  # lines kept before a format is recognised, replayed into it

_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Line noise a UART emits at reset (NULs, 0xFF decoded as U+FFFD, stray control bytes);
# indentation (spaces, tabs) is kept.
_LEAD_NOISE = "".join(chr(c) for c in range(0x20) if chr(c) not in "\t\n") + "\x7f\ufffd"

# Seconds a device that can report an exit status (host process, semihosting) gets to exit
# after its framework printed the end of the run; past that the run did not end there.
EXIT_AFTER_END_S = 3.0
# Seconds the loop keeps listening after the end of the run where no exit status exists
# (UART, RTT, Renode): output that follows the end still changes the verdict.
END_GRACE_S = 0.3
# Seconds after a HardFault line: the handler's exit status and last bytes.
CRASH_GRACE_S = 0.2


def clean_line(raw: bytes) -> str:
    """Decoded text of one raw line: tolerant of non-UTF-8, \\r, escapes and reset noise."""
    text = raw.decode("utf-8", errors="replace")
    text = _ANSI_RE.sub("", text).replace("\x00", "")
    return text.lstrip(_LEAD_NOISE).rstrip()


@dataclass
class BinaryReport:
    outcome: str  # passed | failed | crashed | timeout | no-tests | infra-error
    cases: list[CaseResult]
    summary: str  # one-line human explanation
    log_tail: list[str]
    crash: CrashReport | None
    format: str  # a name of harness.formats, or "unknown"
    problems: list[str] = field(default_factory=list)


def board_format(board: Board | None) -> str | None:
    """The log format a board file fixes (``[run] log_format``), else None (detect)."""
    if board is None:
        return None
    name = board.section("run").get("log_format")
    return str(name) if name else None


class LogReader:
    def __init__(
        self,
        fmt: str | None = None,
        expected: Sequence[str] | None = None,
        on_line: Callable[[str], None] | None = None,
        tail_lines: int = TAIL_LINES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.expected = list(expected) if expected is not None else None
        self.reader: FormatReader | None = reader_class(fmt)(self.expected) if fmt else None
        self._on_line = on_line
        self._clock = clock
        self._pending = b""
        self._before: deque[tuple[str, str, float]] = deque(maxlen=_REPLAY_LINES)
        self.tail: deque[str] = deque(maxlen=tail_lines)
        self.crash: CrashReport | None = None
        self.undecodable_fault: str | None = None
        self.lines = 0

    # -- input --------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for raw in lines:
            self._line(raw)
        while len(self._pending) > MAX_LINE_BYTES:
            # Garbage without newlines (wrong baud rate, binary dump) must not grow without bound;
            # cutting at fixed offsets keeps the result independent of the chunking.
            raw, self._pending = self._pending[:MAX_LINE_BYTES], self._pending[MAX_LINE_BYTES:]
            self._line(raw)

    def flush(self) -> None:
        """End of stream: a last line without a newline still counts."""
        if self._pending:
            raw, self._pending = self._pending, b""
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        if self._on_line is not None:
            self._on_line(raw.rstrip(b"\r").decode("utf-8", errors="replace"))
        printed = clean_line(raw)
        now = self._clock()
        for piece in self._split(printed):
            self._piece(piece, now)

    def _split(self, printed: str) -> list[str]:
        """Noise without a newline before a prefixed record is a line of its own."""
        markers = [self.reader.split_marker] if self.reader is not None else [
            cls.split_marker for cls in detection_order()
        ]
        for marker in markers:
            if marker and marker in printed:
                at = printed.index(marker)
                if at > 0 and printed[:at].strip():
                    return [printed[:at], printed[at:]]
        return [printed]

    def _piece(self, printed: str, now: float) -> None:
        text = printed.strip()
        if not text:
            return
        self.lines += 1
        self.tail.append(printed)
        if HARDFAULT_PREFIX in text:
            report = parse_hardfault_line(text)
            if report is None:
                self.undecodable_fault = self.undecodable_fault or text
            elif self.crash is None:
                self.crash = report
            if self.reader is not None:
                self.reader.message(printed)
            return
        if self.reader is None:
            found = next((cls for cls in detection_order() if cls.detects(text)), None)
            if found is None:
                self._before.append((text, printed, now))
                return
            self.reader = found(self.expected)
            for before in self._before:
                self.reader.line(*before)
            self._before.clear()
        self.reader.line(text, printed, now)

    # -- the end rule ---------------------------------------------------------------------
    @property
    def format(self) -> str:
        return self.reader.name if self.reader is not None else "unknown"

    @property
    def open_case(self) -> CaseResult | None:
        """The case started and not yet ended (None before the format is known)."""
        return self.reader.current if self.reader is not None else None

    @property
    def crash_seen(self) -> bool:
        return self.crash is not None or self.undecodable_fault is not None

    @property
    def complete(self) -> bool:
        """The framework's own end of run was printed, with every case closed."""
        return self.reader is not None and self.reader.complete

    def end_grace(self, exit_status: bool) -> tuple[float, str] | None:
        """(seconds to keep following, end reason) once the device said it is done, else None.

        ``exit_status``: the transport reports the device's exit (host process, semihosting);
        then the end of the run only opens a window for that exit, it never stops the device.
        """
        if self.crash_seen:
            return CRASH_GRACE_S, "crash"
        if self.complete:
            return (EXIT_AFTER_END_S, "no-exit") if exit_status else (END_GRACE_S, "end-marker")
        return None

    def case_seconds(self) -> dict[str, float]:
        """Duration of each closed case (first of a name): the framework's own figure where the log has
        one (gtest's ms), else the span between its start and end lines as they arrived. Only the reader
        that followed the live stream knows the arrival times; a log parsed afterwards does not."""
        seconds: dict[str, float] = {}
        for case in self.reader.cases if self.reader is not None else []:
            if case.ended_at is not None and case.duration_s is not None:
                seconds.setdefault(case.name, case.duration_s)
        return seconds

    # -- verdict --------------------------------------------------------------------------
    def finish(self, run: RunResult | None = None, elf: Path | None = None, board: Board | None = None) -> BinaryReport:
        self.flush()
        if self.reader is not None:
            self.reader.finish()
        if self.crash is not None:
            addr2line = board.tool("addr2line") if board is not None and board.toolchain_prefix else None
            symbolize(self.crash, elf, addr2line or "arm-none-eabi-addr2line")
        outcome, summary = self._verdict(run)
        reader = self.reader
        return BinaryReport(
            outcome=outcome,
            cases=list(reader.cases) if reader is not None else [],
            summary=summary,
            log_tail=list(self.tail),
            crash=self.crash,
            format=self.format,
            problems=list(reader.problems) if reader is not None else [],
        )

    def _open_case(self) -> CaseResult | None:
        return self.reader.current if self.reader is not None else None

    def _died(self, outcome: str) -> str:
        """Marks the open case with how the run died; returns " in test X" (or "")."""
        case = self._open_case()
        if case is None:
            return ""
        case.outcome = outcome
        assert self.reader is not None
        self.reader.close_case(self._clock(), outcome)
        case.outcome = outcome
        return f" in test {case.name}"

    def _verdict(self, run: RunResult | None) -> tuple[str, str]:
        if run is not None and run.infra_error:
            return "infra-error", f"could not run the binary on {run.backend}: {run.infra_error}"
        if self.crash is not None:
            where = self._died(CRASHED)
            return "crashed", f"crashed{where}: {self.crash.summary()}"
        if self.undecodable_fault is not None:
            where = self._died(CRASHED)
            return "crashed", f"crashed{where}: HardFault line could not be decoded: {self.undecodable_fault}"
        exit_code = run.exit_code if run is not None else None
        if run is not None and exit_code is not None and exit_code < 0 and run.backend == "host":
            where = self._died(CRASHED)
            return "crashed", f"killed by signal {_signal_name(-exit_code)}{where}"
        if run is not None and run.case_timeout is not None:
            return self._case_timed_out(run)
        if not self.complete:
            return self._unfinished(run)
        if run is not None and run.end_reason == "no-exit":
            return "timeout", (
                f"printed the end of its run but did not exit within {EXIT_AFTER_END_S:.0f} s "
                "(hung or kept running after its tests)"
            )
        return self._judge_complete(exit_code)

    def _case_timed_out(self, run: RunResult) -> tuple[str, str]:
        """A case ran past its own limit and the run was stopped there: never a pass, even when its
        end line (or the whole end of the run) arrived as the run was being stopped."""
        limit = run.case_timeout
        assert limit is not None
        case = self._open_case()
        if case is not None and case.name == limit.case:
            self._died(TIMEOUT)
            return "timeout", f"{limit.describe()}; stopped after {run.duration_s:.1f} s, before the end of the run"
        ended = [c for c in self.reader.cases if c.name == limit.case] if self.reader is not None else []
        if ended:  # its end line came in with the stop: it still took its whole limit
            ended[-1].outcome = TIMEOUT
            ended[-1].messages.append(f"[harness] {limit.describe()}")
        where = self._died(TIMEOUT)
        return "timeout", f"{limit.describe()}; stopped after {run.duration_s:.1f} s{where}"

    def _unfinished(self, run: RunResult | None) -> tuple[str, str]:
        reader = self.reader
        problem = f" ({reader.problems[0]})" if reader is not None and reader.problems else ""
        if run is not None and run.timed_out:
            where = self._died(TIMEOUT)
            return "timeout", f"timed out after {run.duration_s:.1f} s{where} before the end of the run{problem}"
        where = self._died(CRASHED)
        if reader is None:
            what = "no test framework output recognised"
            if self.lines == 0:
                what = "no output at all"
        else:
            what = f"{reader.name} output ended{where} before the end of the run"
        if run is None:
            return "crashed", f"{what} (log truncated, or the device died){problem}"
        if run.end_reason == "crash":
            last = f"; last line: {self.tail[-1]}" if self.tail else ""
            return "crashed", f"{what}: the {run.backend} run ended in a crash without a HardFault line{last}{problem}"
        status = f"exit status {run.exit_code}" if run.exit_code is not None else f"end: {run.end_reason}"
        return "crashed", f"{what} ({status}){problem}"

    def _judge_complete(self, exit_code: int | None) -> tuple[str, str]:
        reader = self.reader
        assert reader is not None
        ran = len(reader.cases)
        if ran == 0:
            return "no-tests", "no tests ran (0 tests): the binary defines no test cases, or they were compiled out"
        failed = [c.name for c in reader.cases if c.outcome not in (PASSED, SKIPPED)]
        if failed:
            names = ", ".join(failed[:5]) + (", ..." if len(failed) > 5 else "")
            return "failed", f"{len(failed)} of {ran} tests failed: {names}"
        if reader.stray_failures:
            return "failed", f"failure reported outside any test: {reader.stray_failures[0]}"
        if reader.problems:
            more = f" (+{len(reader.problems) - 1} more)" if len(reader.problems) > 1 else ""
            return "failed", reader.problems[0] + more
        if reader.claimed == FAILED:
            return "failed", f"the {reader.name} summary reports failure although all {ran} tests passed"
        if reader.claimed is None:
            return "failed", f"the {reader.name} run ended without its verdict line"
        if self.expected is not None:
            ran_names = [c.name for c in reader.cases]
            missing = [n for n in dict.fromkeys(self.expected) if ran_names.count(n) < self.expected.count(n)]
            unknown = [n for n in dict.fromkeys(ran_names) if n not in self.expected]
            if missing:
                return "failed", f"the run ended without running {', '.join(missing[:5])} (in the source)"
            if unknown:
                return "failed", f"ran tests not in the source: {', '.join(unknown[:5])}"
        if exit_code is not None and exit_code != 0:
            return "failed", f"exit status {exit_code} although the log says all {ran} tests passed"
        skipped = sum(1 for c in reader.cases if c.outcome == SKIPPED)
        note = f" ({skipped} skipped)" if skipped else ""
        return "passed", f"{ran - skipped}/{ran} tests passed{note}"


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def parse_log(
    data: bytes,
    run: RunResult | None = None,
    elf: Path | None = None,
    board: Board | None = None,
    expected: Sequence[str] | None = None,
    fmt: str | None = None,
) -> BinaryReport:
    """One-shot helper: feed a whole log and judge it."""
    reader = LogReader(fmt or board_format(board), expected)
    reader.feed(data)
    return reader.finish(run, elf, board)


__all__ = ["BinaryReport", "CaseResult", "LogReader", "board_format", "clean_line", "parse_log"]
