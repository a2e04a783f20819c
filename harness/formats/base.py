"""What every log format reader is: per-case results, the run's own end, its consistency problems.

A reader sees one cleaned line at a time (``line``), with the time it arrived. It owns the
framework's protocol and nothing else: crash lines, exit statuses, timeouts and the verdict
are the stream's (``harness.formats.reader``), the same for every format.

The contract a reader keeps, so that no output can make a failing run pass:

* a case is ``open`` from its start line to its end line; lines in between that are not
  the framework's own are messages of that case (never protocol, whatever they say);
* ``ended`` is set only by the framework's own end of run, and only counts when no
  case is open (``complete``); anything the framework prints after its end that looks
  like protocol is a ``problem``;
* every disagreement between what the framework claims (counts, summaries) and the
  cases seen is a ``problem``; a problem fails the run.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_CASE_MESSAGES = 200

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"
CRASHED = "crashed"
TIMEOUT = "timeout"


@dataclass
class CaseResult:
    name: str
    outcome: str  # passed | failed | skipped | crashed | timeout
    messages: list[str] = field(default_factory=list)
    duration_s: float | None = None  # the framework's own figure, else the arrival-time span
    started_at: float | None = None  # arrival time (time.monotonic) of the start line
    ended_at: float | None = None
    dropped: int = 0  # messages beyond MAX_CASE_MESSAGES


class FormatReader(abc.ABC):
    """Base of the per-format readers in this package (see the module doc for the contract)."""

    name = ""
    description = ""

    def __init__(self, expected: Sequence[str] | None = None) -> None:
        self.expected = list(expected) if expected is not None else None
        self.cases: list[CaseResult] = []
        self.current: CaseResult | None = None
        self.ended = False  # the framework's own end of run was seen
        self.claimed: str | None = None  # the framework's own verdict: passed | failed
        self.problems: list[str] = []
        self.stray_failures: list[str] = []  # failure lines outside any case

    # -- detection ------------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def detects(cls, line: str) -> bool:
        """True when ``line`` (stripped) is this framework's unmistakable own line."""

    # -- input ----------------------------------------------------------------------------
    @abc.abstractmethod
    def line(self, text: str, raw: str, now: float) -> None:
        """One line: ``text`` stripped for matching, ``raw`` as printed (kept in messages)."""

    # -- shared helpers -------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        return self.ended and self.current is None

    def message(self, raw: str) -> None:
        case = self.current
        if case is None:
            return
        if len(case.messages) < MAX_CASE_MESSAGES:
            case.messages.append(raw)
        else:
            case.dropped += 1

    def start_case(self, name: str, now: float) -> CaseResult:
        if self.current is not None:
            self.close_case(now)
        case = CaseResult(name=name, outcome=PASSED, started_at=now)
        self.cases.append(case)
        self.current = case
        return case

    def close_case(self, now: float, outcome: str | None = None, duration_s: float | None = None) -> None:
        case = self.current
        if case is None:
            return
        if outcome is not None and case.outcome == PASSED:
            case.outcome = outcome
        case.ended_at = now
        if duration_s is not None:
            case.duration_s = duration_s
        elif case.started_at is not None:
            case.duration_s = max(0.0, now - case.started_at)
        if case.dropped:
            case.messages.append(f"... {case.dropped} more lines (see the full log)")
        self.current = None

    def fail_current(self, raw: str) -> None:
        if self.current is None:
            self.stray_failures.append(raw.strip())
        else:
            self.current.outcome = FAILED
            self.message(raw)

    def after_end(self, text: str) -> None:
        """Protocol printed after the framework's own end of run: the run did not end there."""
        if len(self.problems) < 5:
            self.problems.append(f"test output after the end of the run: {text}")

    def count_problem(self, claimed_passed: int | None, claimed_total: int | None) -> None:
        """Compares a summary's counts with the cases seen (skipped cases count as run, not passed)."""
        ran = len(self.cases)
        passed = sum(1 for c in self.cases if c.outcome == PASSED)
        if claimed_total is not None and claimed_total != ran:
            self.problems.append(f"inconsistent log: the summary says {claimed_total} tests but {ran} ran")
        elif claimed_passed is not None and claimed_passed != passed:
            self.problems.append(
                f"inconsistent log: the summary says {claimed_passed} passed but {passed} of {ran} did"
            )

    def expected_case(self, name: str) -> bool:
        """Whether ``name`` can be a case start: always, unless the source's cases are known."""
        if self.expected is None:
            return True
        seen = sum(1 for c in self.cases if c.name == name)
        return seen < self.expected.count(name)

    def finish(self) -> None:  # noqa: B027 - an optional hook: formats without a summary check keep it
        """End of stream: nothing more will come (subclasses may check their summaries here)."""
