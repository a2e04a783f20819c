"""The stream side of every format: lines, records, crash lines, the format, the end rule, the verdict.

``LogReader`` is fed raw bytes in any chunking (``feed``) and is the one reader of a run: the
run loop asks it when the run is over (``end_grace``) and the same reader, after the run,
gives the verdict (``finish``); nothing parses the log a second time. It splits lines (cut
at ``MAX_LINE_BYTES`` by the bytes alone, so the chunking never matters), finds the
authentic micro_test records in them (``harness.formats.micro_test.find_record`` under the
run's key; the sequence is checked here), cleans the rest (``clean_line``), watches for the
boards' HardFault line (``harness.core.crash``) and hands every line to the format reader.

The format is, in this order: the one the binary declares (``harness.core.binary_info``: micro_test
with its compiled case list), the one a board file fixes (``[run] log_format``), or the
first framework whose unmistakable line appears (foreign binaries and logs only; every line
before it is kept and replayed, and a second framework's line afterwards fails the run).

Size: over 400 lines on purpose. This is the one reader every run goes through: line assembly,
record authentication, format detection and the verdict share state (the open case, the crash case,
the record sequence), and splitting them would put that state in two places.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.core.crash import HARDFAULT_PREFIX, CrashReport, parse_hardfault_line, symbolize
from harness.core.run_token import UNKEYED
from harness.formats import FormatReader, detection_order, reader_class
from harness.formats.base import CaseResult
from harness.formats.micro_test import PREFIX_BYTES, Lookalikes, MicroTestReader, find_record
from harness.outcome import Outcome
from harness.run_result import NOTE_PREFIX

CRASHED, FAILED, PASSED, SKIPPED, TIMEOUT = (Outcome.CRASHED, Outcome.FAILED, Outcome.PASSED, Outcome.SKIPPED,
                                             Outcome.TIMEOUT)

if TYPE_CHECKING:
    from harness.board.boards import Board
    from harness.run_result import RunResult

TAIL_LINES = 20
MAX_LINE_BYTES = 64 * 1024  # a chatty device must not eat memory; the tail still shows the end
# A line longer than MAX_LINE_BYTES is cut there, or before a record prefix that starts in the
# last _CUT_WINDOW bytes before it (so a record glued after long text is never cut in two).
_CUT_WINDOW = 512

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
    outcome: Outcome  # passed | failed | crashed | timeout | no-tests | infra-error
    cases: list[CaseResult]
    summary: str  # one-line human explanation
    log_tail: list[str]
    crash: CrashReport | None
    format: str  # a name of harness.formats, or "unknown"
    problems: list[str] = field(default_factory=list)
    # How the framework's records were trusted: "authenticated" (signed with this run's token),
    # "unauthenticated" (no token reached the device: key 0), or "" (a format without records).
    records: str = ""


def _cut_point(pending: bytes) -> int:
    """Where a line longer than MAX_LINE_BYTES is cut: before the last record prefix that starts in the
    last _CUT_WINDOW bytes before the limit — also one that runs past it, whose first bytes end the
    limit (``...~~~M`` | ``T 5 ...``) — else at the limit. A function of the first MAX_LINE_BYTES bytes
    only, so it is the same however the bytes arrived."""
    head = pending[:MAX_LINE_BYTES]
    for size in range(len(PREFIX_BYTES) - 1, 0, -1):  # a prefix cut short by the limit
        if head.endswith(PREFIX_BYTES[:size]):
            return MAX_LINE_BYTES - size
    at = head.rfind(PREFIX_BYTES, MAX_LINE_BYTES - _CUT_WINDOW)
    return at if at > 0 else MAX_LINE_BYTES


def board_format(board: Board | None) -> str | None:
    """The log format a board file fixes (``[run] log_format``), else None (detect)."""
    if board is None:
        return None
    name = board.section("run").get("log_format")
    return str(name) if name else None


class LogReader:
    """One run's reader (module doc). ``fmt``: the format, None to detect; ``expected``: the case list
    the run is held against (a binary's compiled cases); ``key``: the run token's key the records must
    be signed with (None: the run has no token; records signed with key 0 are taken, reported as
    unauthenticated)."""

    def __init__(
        self,
        fmt: str | None = None,
        expected: Sequence[str] | None = None,
        on_line: Callable[[str], None] | None = None,
        tail_lines: int = TAIL_LINES,
        clock: Callable[[], float] = time.monotonic,
        key: tuple[int, int] | None = None,
        expected_from: str = "the source",
    ) -> None:
        self.expected = list(expected) if expected is not None else None
        self.expected_from = expected_from
        self.fixed = fmt is not None
        self.reader: FormatReader | None = reader_class(fmt)(self.expected) if fmt else None
        self.key = key if key is not None else UNKEYED
        self.authenticated = key is not None and key != UNKEYED
        self._on_line = on_line
        self._clock = clock
        self._pending = b""
        self._before: list[tuple[str, str, float]] = []  # lines before the format is known (no limit)
        self.tail: deque[str] = deque(maxlen=tail_lines)
        self.crash: CrashReport | None = None
        self.undecodable_fault: str | None = None
        self.lines = 0
        self.records = 0  # authentic records seen
        self.next_sequence = 0
        self.stream_problems: list[str] = []  # sequence gaps, repeats; two frameworks in one log
        self.lookalikes = Lookalikes()
        self.crash_case: CaseResult | None = None  # the case open when the (first) HardFault line came

    def adopt_key(self, key: tuple[int, int]) -> None:
        """The run token reached the device only now (the UART start handshake, which comes before any
        record): from here on records must be signed with it. Records read before it fail the run (they
        could not have been the framework's, which starts after the handshake)."""
        if self.records:
            self.stream_problems.append(f"{self.records} micro_test record(s) came before the start handshake "
                                        "handed the firmware its run token")
        self.key = key
        self.authenticated = key != UNKEYED

    # -- input --------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        self._pending += data
        while True:
            newline = self._pending.find(b"\n")
            if newline < 0:
                # Garbage without newlines (wrong baud rate, binary dump) must not grow without bound;
                # the cut depends on the bytes alone, never on how they arrived.
                while len(self._pending) > MAX_LINE_BYTES:
                    cut = _cut_point(self._pending)
                    raw, self._pending = self._pending[:cut], self._pending[cut:]
                    self._line(raw)
                return
            raw, self._pending = self._pending[:newline], self._pending[newline + 1 :]
            while len(raw) > MAX_LINE_BYTES:
                cut = _cut_point(raw)
                self._line(raw[:cut])
                raw = raw[cut:]
            self._line(raw)

    def note(self, text: str) -> None:
        """A remark of the harness (``harness.run_result.Note``): shown live, kept in the log tail and in the
        open case's messages for the person reading the failure; never read as the device's output."""
        line = NOTE_PREFIX + text
        if self._on_line is not None:
            self._on_line(line)
        self.tail.append(line)
        case = self._open_case()
        if case is not None:
            case.messages.append(line)

    def flush(self) -> None:
        """End of stream: a last line without a newline still counts."""
        if self._pending:
            raw, self._pending = self._pending, b""
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        if self._on_line is not None:
            self._on_line(raw.rstrip(b"\r").decode("utf-8", errors="replace"))
        now = self._clock()
        line = raw[:-1] if raw.endswith(b"\r") else raw
        record = find_record(line, self.key, self.lookalikes) if PREFIX_BYTES in line else None
        if record is None:
            self._piece(clean_line(raw), now)
            return
        if record.at > 0:
            self._piece(clean_line(line[: record.at]), now)  # application text before the record
        self._record(record.sequence, record.text, now, clean_line(line[record.at :]))

    def _record(self, sequence: int, text: str, now: float, shown: str) -> None:
        self.records += 1
        self.tail.append(shown)
        if sequence != self.next_sequence:
            if sequence > self.next_sequence:
                lost = (f"record {self.next_sequence} is missing" if sequence == self.next_sequence + 1
                        else f"records {self.next_sequence}-{sequence - 1} are missing")
            else:
                lost = f"record {sequence} came again after record {self.next_sequence - 1}"
            self.stream_problems.append(f"broken record stream: {lost} (next came: {text})")
        self.next_sequence = sequence + 1
        if not isinstance(self.reader, MicroTestReader):
            if self.reader is not None:
                self._second_framework("micro_test", text)
                return
            self.reader = MicroTestReader(self.expected)
            self._replay()
        self.reader.record(text, now)

    def _replay(self) -> None:
        assert self.reader is not None
        for before in self._before:
            self.reader.line(*before)
        self._before.clear()

    def _second_framework(self, name: str, text: str) -> None:
        if len(self.stream_problems) < 5:
            self.stream_problems.append(
                f"two test frameworks in one log: a {name} line after {self.format} output: {text}")

    def _piece(self, printed: str, now: float) -> None:
        text = printed.strip()
        if not text:
            return
        self.lines += 1
        self.tail.append(printed)
        if HARDFAULT_PREFIX in text:
            if not self.crash_seen:  # the case running when the fault line came is the one that crashed
                self.crash_case = self.reader.current if self.reader is not None else None
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
            self._replay()
        elif not self.fixed and not isinstance(self.reader, MicroTestReader):
            other = next((cls for cls in detection_order() if cls.detects(text)), None)
            if other is not None and other is not type(self.reader):
                self._second_framework(other.name, text)
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
            self.crash.unmodelled = tuple(getattr(run, "unmodelled", None) or ())
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
            problems=self.all_problems(run),
            records=self.records_mode,
        )

    @property
    def records_mode(self) -> str:
        if not isinstance(self.reader, MicroTestReader):
            return ""
        return "authenticated" if self.authenticated else "unauthenticated"

    def all_problems(self, run: RunResult | None = None) -> list[str]:
        """What fails the run besides the cases: the record stream's, the format's and the harness's own."""
        found = list(self.stream_problems)
        if self.reader is not None:
            found += self.reader.problems
        if run is not None:
            found += list(getattr(run, "problems", None) or [])
        return found

    def _no_records_reason(self) -> str | None:
        """Why a micro_test run shows no authentic record although record-like lines were printed."""
        seen = self.lookalikes
        if self.records:
            return None
        if seen.unkeyed:
            return (f"its {seen.unkeyed} micro_test records are not signed with this run's token (first: "
                    f"{seen.first_unkeyed}): the firmware did not receive the token; its board port needs "
                    "MicroRunToken (docs/log_protocol.md, \"Run token\")")
        if seen.forged:
            return (f"{seen.forged} lines look like micro_test records but none is signed with this run's token "
                    f"(first: {seen.first_forged})")
        return None

    def _open_case(self) -> CaseResult | None:
        return self.reader.current if self.reader is not None else None

    def _crashed(self) -> str:
        """Marks the case that was open when the HardFault line came as crashed (whatever it printed
        afterwards); returns " in test X", or " before its first test" when none was open."""
        case = self.crash_case
        if case is None:
            self._died(CRASHED)  # a case begun after the fault line and never ended did not complete either
            return " outside any test"
        if self.reader is not None and self.reader.current is case:
            self.reader.close_case(self._clock(), CRASHED)
        case.outcome = CRASHED
        return f" in test {case.name}"

    def _died(self, outcome: Outcome) -> str:
        """Marks the open case with how the run died; returns " in test X" (or "")."""
        case = self._open_case()
        if case is None:
            return ""
        case.outcome = outcome
        assert self.reader is not None
        self.reader.close_case(self._clock(), outcome)
        case.outcome = outcome
        return f" in test {case.name}"

    def _verdict(self, run: RunResult | None) -> tuple[Outcome, str]:
        if run is not None and run.infra_error:
            return Outcome.INFRA_ERROR, f"could not run the binary on {run.backend}: {run.infra_error}"
        if self.crash is not None:
            where = self._crashed()
            return CRASHED, f"crashed{where}: {self.crash.summary()}"
        if self.undecodable_fault is not None:
            where = self._crashed()
            return CRASHED, f"crashed{where}: HardFault line could not be decoded: {self.undecodable_fault}"
        exit_code = run.exit_code if run is not None else None
        if run is not None and exit_code is not None and exit_code < 0 and run.backend == "host":
            where = self._died(CRASHED)
            return CRASHED, f"killed by signal {_signal_name(-exit_code)}{where}"
        if run is not None and run.case_timeout is not None:
            return self._case_timed_out(run)
        if not self.complete:
            return self._unfinished(run)
        if self.stream_problems:
            more = f" (+{len(self.stream_problems) - 1} more)" if len(self.stream_problems) > 1 else ""
            return FAILED, self.stream_problems[0] + more
        if run is not None and run.end_reason == "no-exit":
            return TIMEOUT, (
                f"printed the end of its run but did not exit within {EXIT_AFTER_END_S:.0f} s "
                "(hung or kept running after its tests; for a firmware that never exits, say so: exit-status = "
                "false in its [[tool.micro-harness.firmware]] entry, [run] exit_status = false in its board file, "
                "--no-exit-status on the command line)"
            )
        return self._judge_complete(exit_code, run)

    def _case_timed_out(self, run: RunResult) -> tuple[Outcome, str]:
        """A case ran past its own limit and the run was stopped there: never a pass, even when its
        end line (or the whole end of the run) arrived as the run was being stopped."""
        limit = run.case_timeout
        assert limit is not None
        case = self._open_case()
        if case is not None and case.name == limit.case:
            self._died(TIMEOUT)
            return TIMEOUT, f"{limit.describe()}; stopped after {run.duration_s:.1f} s, before the end of the run"
        ended = [c for c in self.reader.cases if c.name == limit.case] if self.reader is not None else []
        if ended:  # its end line came in with the stop: it still took its whole limit
            ended[-1].outcome = TIMEOUT
            ended[-1].messages.append(f"[harness] {limit.describe()}")
        where = self._died(TIMEOUT)
        return TIMEOUT, f"{limit.describe()}; stopped after {run.duration_s:.1f} s{where}"

    def _unfinished(self, run: RunResult | None) -> tuple[Outcome, str]:
        reader = self.reader
        problem = f" ({reader.problems[0]})" if reader is not None and reader.problems else ""
        if run is not None and run.timed_out:
            where = self._died(TIMEOUT)
            return TIMEOUT, (f"timed out after {run.duration_s:.1f} s{where} before the end of the run{problem}"
                             f"{self._imitations()}")
        where = self._died(CRASHED)
        if reader is None:
            what = "no test framework output recognised"
            if self.lines == 0:
                what = "no output at all"
            no_records = self._no_records_reason()
            if no_records is not None:
                what = f"no authentic micro_test record: {no_records}"
        elif isinstance(reader, MicroTestReader) and not self.records:
            what = "no authentic micro_test record"
            reason = self._no_records_reason()
            what += f": {reason}" if reason else (" (the binary declares micro_test but printed none of its records; "
                                                  "output: " + (f"{self.lines} lines" if self.lines else "none") + ")")
        else:
            what = f"{reader.name} output ended{where} before the end of the run"
        if run is None:
            return CRASHED, f"{what} (log truncated, or the device died){problem}"
        if run.end_reason == "crash":
            # Why the core stopped, when the harness or the emulator said (a note), else the last line.
            said = [note.text for note in getattr(run, "notes", None) or []]
            last = f" ({said[-1]})" if said else (f"; last line: {self.tail[-1]}" if self.tail else "")
            return CRASHED, f"{what}: the {run.backend} run ended in a crash without a HardFault line{last}{problem}"
        status = f"exit status {run.exit_code}" if run.exit_code is not None else f"end: {run.end_reason}"
        return CRASHED, f"{what} ({status}){problem}{self._imitations()}"

    def _imitations(self) -> str:
        """A remark on lines that imitated records (taken as text) when authentic records came too."""
        seen = self.lookalikes
        count = seen.unkeyed + seen.forged
        if not self.records or not count:
            return ""
        first = seen.first_unkeyed or seen.first_forged
        return f"; {count} line(s) imitated micro_test records and were taken as text (first: {first})"

    def _judge_complete(self, exit_code: int | None, run: RunResult | None) -> tuple[Outcome, str]:
        reader = self.reader
        assert reader is not None
        ran = len(reader.cases)
        if ran == 0:
            return Outcome.NO_TESTS, ("no tests ran (0 tests): the binary defines no test cases, or they were "
                                      "compiled out")
        failed = [c.name for c in reader.cases if c.outcome not in (PASSED, SKIPPED)]
        if failed:
            names = ", ".join(failed[:5]) + (", ..." if len(failed) > 5 else "")
            return FAILED, f"{len(failed)} of {ran} tests failed: {names}"
        if reader.stray_failures:
            return FAILED, f"failure reported outside any test: {reader.stray_failures[0]}"
        problems = reader.problems + list(getattr(run, "problems", None) or [])
        if problems:
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            return FAILED, problems[0] + more
        if reader.claimed == FAILED:
            return FAILED, f"the {reader.name} summary reports failure although all {ran} tests passed"
        if reader.claimed is None:
            return FAILED, f"the {reader.name} run ended without its verdict line"
        if self.expected is not None:
            ran_names = [c.name for c in reader.cases]
            missing = [n for n in dict.fromkeys(self.expected) if ran_names.count(n) < self.expected.count(n)]
            unknown = [n for n in dict.fromkeys(ran_names) if n not in self.expected]
            if missing:
                return FAILED, f"the run ended without running {', '.join(missing[:5])} ({self.expected_from})"
            if unknown:
                return FAILED, f"ran tests not in {self.expected_from}: {', '.join(unknown[:5])}"
        if exit_code is not None and exit_code != 0:
            return FAILED, f"exit status {exit_code} although the log says all {ran} tests passed"
        skipped = sum(1 for c in reader.cases if c.outcome == SKIPPED)
        note = f" ({skipped} skipped)" if skipped else ""
        return PASSED, f"{ran - skipped}/{ran} tests passed{note}"


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


@dataclass(frozen=True)
class ReaderSpec:
    """How a run's log is read: its format (None: detect), the case list it is held against, where that
    list came from, and the run token's key (None: no token)."""

    fmt: str | None = None
    expected: tuple[str, ...] | None = None
    expected_from: str = "the source"
    key: tuple[int, int] | None = None

    def reader(self, on_line: Callable[[str], None] | None = None) -> LogReader:
        return LogReader(self.fmt, self.expected, on_line=on_line, key=self.key, expected_from=self.expected_from)


def reader_spec(
    elf: Path | None = None,
    board: Board | None = None,
    key: tuple[int, int] | None = None,
    fmt: str | None = None,
    expected: Sequence[str] | None = None,
    expected_from: str = "the source",
) -> ReaderSpec:
    """The spec for a binary: what ``elf`` declares (micro_test, its compiled cases) wins; else ``fmt`` or
    the board's ``[run] log_format`` (else detection) with ``expected`` (e.g. a source scan; ``expected_from``
    says where the list came from, in messages)."""
    from harness.core.binary_info import declared_tests

    declared = declared_tests(elf) if elf is not None else None
    if declared is not None and declared.framework == MicroTestReader.name:
        return ReaderSpec("micro_test", declared.cases, "the binary's compiled case list", key)
    return ReaderSpec(fmt or board_format(board), tuple(expected) if expected is not None else None, expected_from,
                      key)


def parse_log(
    data: bytes,
    run: RunResult | None = None,
    elf: Path | None = None,
    board: Board | None = None,
    expected: Sequence[str] | None = None,
    fmt: str | None = None,
    key: tuple[int, int] | None = None,
) -> BinaryReport:
    """One-shot helper for a recorded log (a live run reads once, in its stream): feed it all and judge it."""
    reader = reader_spec(elf, board, key, fmt, expected).reader()
    reader.feed(data)
    return reader.finish(run, elf, board)


__all__ = ["BinaryReport", "CaseResult", "LogReader", "ReaderSpec", "board_format", "clean_line", "parse_log",
           "reader_spec"]
