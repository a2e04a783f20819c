"""ThrowTheSwitch Unity (``src/unity.c``), plain and with ``extras/fixture`` in verbose mode.

Unity prints one result line per test when the test has ended (``UnityConcludeTest``), and
a summary at ``UnityEnd``::

    <file>:<line>:<test>:PASS[ (N ms)]
    <file>:<line>:<test>:FAIL[:<detail>][ (N ms)]        (Unity < 2.6: "FAIL: <detail>")
    <file>:<line>:<test>:IGNORE[: <message>][ (N ms)]
    <file>:<line>:<test>:INFO: <message>                 (TEST_MESSAGE: a message, not a result)

    -----------------------
    <tests> Tests <failures> Failures <ignored> Ignored
    OK | FAIL | FAILED                                   (FAILED: UNITY_DIFFERENTIATE_FINAL_FAIL)

The " (N ms)" figure appears with ``UNITY_INCLUDE_EXEC_TIME``; colour (``UNITY_OUTPUT_COLOR``)
is ANSI escapes, removed before matching. The location prefixes of
``UNITY_OUTPUT_FOR_ECLIPSE`` / ``_IAR_WORKBENCH`` / ``_QT_CREATOR`` are not supported.

**Plain Unity has no start line.** A test is known only once it has ended, so a case opens
and closes at its result line; the lines printed since the previous result line are taken
as its messages. When the output stops before the summary, the test that was running has
no name in the log: the reader then opens a case for it at the end of the stream, named
after the next not yet reported case of the source when the source's cases are known
(``expected``), else ``<unnamed test after X>``, so that it is the one marked crashed or
timed out. For the same reason a test that prints a complete, consistent summary itself
cannot be told from the real end unless the source's cases are known (the reader then
finds the tests that never ran) or more output follows; plain Unity cannot do better.

**unity_fixture** (``UnityMain``) announces ``Unity test run <i> of <n>``. With ``-v`` it
prints ``TEST(group, name)`` when a test starts, so a case is really open until its
`` PASS`` / ``...::FAIL...`` / ``...::IGNORE...`` ends it, and the summary or verdict
printed inside an open case are just messages; ``IGNORE_TEST(group, name)`` is a skipped
case. Fixture cases are named ``group.name``. Without ``-v`` a passing fixture test prints
only ``.``: its cases cannot be seen, and the summary's count then disagrees (a problem) —
run fixture binaries with ``-v``. Repeated runs (``-r N``) end at the N-th summary.
"""

from __future__ import annotations

import re

from harness.formats.base import FAILED, MAX_CASE_MESSAGES, PASSED, SKIPPED, CaseResult, FormatReader

BREAKER = "-" * 23
_TAGS = {"PASS": PASSED, "FAIL": FAILED, "IGNORE": SKIPPED}

_RESULT = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<name>[^:]*):(?P<tag>PASS|FAIL|IGNORE)(?P<rest>(?:[: ].*)?)$")
_EXEC_TIME = re.compile(r" \((?P<ms>\d+) ms\)$")
_COUNTS = re.compile(r"^(?P<tests>\d+) Tests (?P<failures>\d+) Failures (?P<ignored>\d+) Ignored$")
_VERDICTS = {"OK": PASSED, "FAIL": FAILED, "FAILED": FAILED}
_FIXTURE_RUN = re.compile(r"^Unity test run (?P<run>\d+) of (?P<runs>\d+)$")
_FIXTURE_START = re.compile(r"^(?P<ignore>IGNORE_)?TEST\((?P<group>\w+), (?P<name>\w+)\)(?P<rest>.*)$")
_FIXTURE_PASS = re.compile(r"^PASS(?: \(\d+ ms\))?$")
_FIXTURE_NAME = re.compile(r"^TEST\((?P<group>\w+), (?P<name>\w+)\)$")


def _case_name(name: str) -> str:
    """``TEST(group, name)`` (a fixture test) is ``group.name``; anything else as printed."""
    match = _FIXTURE_NAME.match(name)
    return f"{match['group']}.{match['name']}" if match else name


def _result(text: str) -> re.Match[str] | None:
    """A result line, with a ``rest`` that fits its tag (PASS takes no text, only a time)."""
    match = _RESULT.match(text)
    if match is None:
        return None
    rest = match["rest"]
    if match["tag"] == "PASS" and rest and _EXEC_TIME.fullmatch(rest) is None:
        return None
    return match


class UnityReader(FormatReader):
    name = "unity"
    description = "ThrowTheSwitch Unity (<file>:<line>:<test>:PASS / N Tests M Failures K Ignored / OK)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.pending: list[str] = []  # lines since the last result (plain Unity: the next test's)
        self.pending_dropped = 0
        self.pending_since: float | None = None
        self.stage: str | None = None  # "breaker" / "counts": inside the end-of-run block
        self.held: list[tuple[str, float]] = []  # its lines, test output if it does not complete
        self.counts: tuple[int, int, int] | None = None
        self.runs = 1  # unity_fixture -r N
        self.runs_ended = 0
        self.run_start = 0  # index in cases of the current run's first case
        self.fixture = False

    @classmethod
    def detects(cls, line: str) -> bool:
        return _result(line) is not None or _FIXTURE_RUN.match(line) is not None

    # -- lines ----------------------------------------------------------------------------
    def line(self, text: str, raw: str, now: float) -> None:
        if self.current is not None:  # unity_fixture -v: a test is running
            self._in_case(text, raw, now)
            return
        stage, self.stage = self.stage, None
        if stage == "breaker" and (counts := _COUNTS.match(text)):
            self.counts = (int(counts["tests"]), int(counts["failures"]), int(counts["ignored"]))
            self.stage = "counts"
            self.held.append((raw, now))
            return
        if stage == "counts" and text in _VERDICTS:
            self.held = []
            self._end_of_run(_VERDICTS[text])
            return
        held, self.held = self.held, []
        for line in held:  # not the end of the run after all: test output
            self._pending(*line)
        if text == BREAKER:
            if self.ended:
                self.after_end(text)
            else:
                self.stage = "breaker"
                self.held = [(raw, now)]
            return
        if match := _FIXTURE_RUN.match(text):
            self._fixture_run(int(match["run"]), int(match["runs"]), text)
            return
        if self.fixture and (match := _FIXTURE_START.match(text)):
            self._fixture_start(match, raw, now)
            return
        if match := _result(text):
            self._result(match, raw, now)
            return
        self._pending(raw, now)

    def _in_case(self, text: str, raw: str, now: float) -> None:
        case = self.current
        assert case is not None
        if _FIXTURE_PASS.match(text):
            self._close(now, PASSED, text)
            return
        match = _result(text)
        if match is None:
            self.message(raw)
            return
        name = _case_name(match["name"])
        if name and name != case.name:
            self.problems.append(f"result of {name} printed while {case.name} was running")
        self.message(raw)
        self._close(now, _TAGS[match["tag"]], text)

    # -- cases ----------------------------------------------------------------------------
    def _pending(self, raw: str, now: float) -> None:
        if self.ended:
            return
        if self.pending_since is None:
            self.pending_since = now
        if len(self.pending) < MAX_CASE_MESSAGES:
            self.pending.append(raw)
        else:
            self.pending_dropped += 1

    def _open(self, name: str, now: float) -> CaseResult:
        case = self.start_case(name, now)
        if self.pending_since is not None:
            case.started_at = self.pending_since
        case.messages, case.dropped = self.pending, self.pending_dropped
        self.pending, self.pending_dropped, self.pending_since = [], 0, None
        return case

    def _close(self, now: float, outcome: str, text: str) -> None:
        ms = _EXEC_TIME.search(text)
        self.close_case(now, outcome, int(ms["ms"]) / 1000.0 if ms else None)

    def _result(self, match: re.Match[str], raw: str, now: float) -> None:
        """Plain Unity: a test that has just ended (its result line opens and closes it)."""
        if self.ended:
            self.after_end(match.group(0))
            return
        name = _case_name(match["name"])
        if not name:
            if match["tag"] == "FAIL":
                self.stray_failures.append(raw.strip())
            else:
                self._pending(raw, now)
            return
        self._open(name, now)
        self.message(raw)
        self._close(now, _TAGS[match["tag"]], match.group(0))

    def _fixture_run(self, run: int, runs: int, text: str) -> None:
        if self.ended:
            self.after_end(text)
            return
        if run != self.runs_ended + 1 or (self.fixture and runs != self.runs):
            self.problems.append(f"unexpected '{text}' after {self.runs_ended} of {self.runs} runs")
        self.fixture = True
        self.runs = runs

    def _fixture_start(self, match: re.Match[str], raw: str, now: float) -> None:
        if self.ended:
            self.after_end(match.group(0))
            return
        self._open(f"{match['group']}.{match['name']}", now)
        rest = match["rest"]
        if match["ignore"]:
            self._close(now, SKIPPED, rest)
        elif rest.strip():
            self._in_case(rest.strip(), raw, now)

    # -- the end --------------------------------------------------------------------------
    def _end_of_run(self, verdict: str) -> None:
        assert self.counts is not None
        tests, failures, ignored = self.counts
        run = self.cases[self.run_start :]
        failed = sum(1 for c in run if c.outcome == FAILED)
        skipped = sum(1 for c in run if c.outcome == SKIPPED)
        if tests != len(run):
            self.problems.append(f"inconsistent log: the summary says {tests} tests but {len(run)} reported a result")
        elif failures != failed or ignored != skipped:
            self.problems.append(
                f"inconsistent log: the summary says {failures} failed and {ignored} ignored "
                f"but {failed} failed and {skipped} were ignored"
            )
        if (verdict == PASSED) != (failures == 0):
            self.problems.append(f"inconsistent log: {failures} failures but the verdict is {verdict}")
        self.claimed = FAILED if FAILED in (verdict, self.claimed) else PASSED
        self.runs_ended += 1
        self.run_start = len(self.cases)
        self.pending, self.pending_dropped, self.pending_since = [], 0, None
        if self.runs_ended >= self.runs:
            self.ended = True

    def finish(self) -> None:
        if self.ended or self.current is not None:
            return
        # Plain Unity: the test that was running when the output stopped has not printed its
        # name; give it the next name of the source, if known, so it can be marked.
        reported = [c.name for c in self.cases]
        expected = self.expected or []
        name = next((n for n in expected if reported.count(n) < expected.count(n)), None)
        if name is None:
            name = f"<unnamed test after {reported[-1]}>" if reported else "<unnamed first test>"
        since = self.pending_since
        case = self._open(name, since if since is not None else 0.0)
        case.started_at = since
