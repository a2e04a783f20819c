"""GoogleTest's console output, and TFLM's ``micro_test_v2.h`` which imitates it.

GoogleTest::

    [==========] Running N tests from M test suites.
    [ RUN      ] Suite.Name
    <file>:<line>: Failure                      (or "unknown file: Failure": an exception)
    [       OK ] Suite.Name (0 ms)   | [  FAILED  ] Suite.Name (0 ms) | [  SKIPPED ] Suite.Name (0 ms)
    [==========] N tests from M test suites ran. (0 ms total)
    [  PASSED  ] P tests.
    [  SKIPPED ] S tests, listed below:   + one "[  SKIPPED ] Suite.Name" line each
    [  FAILED  ] F tests, listed below:   + one "[  FAILED  ] Suite.Name" line each

TFLM v2 prints ``[==========] Running tests.``, case end lines without durations,
``[==========] N tests ran.``, ``[  PASSED  ] P tests.`` (also when some failed), then the
failed list or ``~~~ALL TESTS PASSED~~~``.

The run ends at the "ran." line (every case closed); the summary lines after it are checked
against the cases seen. The listed names after "listed below:" are a list, not new cases.
"""

from __future__ import annotations

import re

from harness.formats.base import FAILED, PASSED, SKIPPED, CaseResult, FormatReader

_START = re.compile(r"^\[==========\] Running (?:(?P<total>\d+) tests? from|tests\.)")
_RAN = re.compile(r"^\[==========\] (?P<total>\d+) tests? (?:from .* )?ran\.")
_RUN = re.compile(r"^\[ RUN      \] (?P<name>\S+)$")
# Value-parameterized and typed tests add ", where GetParam() = ..." after the name.
_CASE_END = re.compile(
    r"^\[ +(?P<tag>OK|FAILED|SKIPPED) +\] (?P<name>[^\s,]+)(?P<where>, where .*?)?(?: \((?P<ms>\d+) ms\))?$"
)
_PASSED = re.compile(r"^\[  PASSED  \] (?P<n>\d+) tests?\.")
_LISTED = re.compile(r"^\[ +(?P<tag>FAILED|SKIPPED) +\] (?P<n>\d+) tests?, listed below:")
_FAILURE = re.compile(r"^(?:[^\s:][^:]*:\d+|unknown file): (?:Failure|error:)")
_TFLM_V2_END = "~~~ALL TESTS PASSED~~~"


class GTestReader(FormatReader):
    name = "gtest"
    description = "GoogleTest and TFLM micro_test_v2.h ([ RUN      ] / [       OK ] ...)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.declared: int | None = None
        self.ran_total: int | None = None
        self.passed_count: int | None = None
        self.listing: str | None = None  # "FAILED" / "SKIPPED" while a listing follows
        self.listed: dict[str, list[str]] = {"FAILED": [], "SKIPPED": []}
        self.list_sizes: dict[str, int] = {}
        self.just_closed: CaseResult | None = None  # until the next protocol line
        self.strays_at_close = 0

    @classmethod
    def detects(cls, line: str) -> bool:
        return _START.match(line) is not None or _RUN.match(line) is not None

    def line(self, text: str, raw: str, now: float) -> None:
        if not text.startswith("["):
            self.listing = None
            if _FAILURE.match(text):
                if self.ended:
                    self.after_end(text)
                else:
                    self.fail_current(raw)
            elif text == _TFLM_V2_END and self.ended and self.current is None:
                self.claimed = self.claimed or PASSED
            else:
                self.message(raw)
            return
        if not _CASE_END.match(text):
            self.just_closed = None
        if match := _START.match(text):
            if self.cases or self.declared is not None:
                self.problems.append(f"a second test run started: {text}")
            self.declared = int(match["total"]) if match["total"] else None
        elif match := _RUN.match(text):
            self.listing = None
            if self.ended:
                self.after_end(text)
            elif self.current is not None:
                self.problems.append(f"{match['name']} started while {self.current.name} had not ended")
                self.close_case(now, FAILED)
                self.start_case(match["name"], now)
            else:
                self.start_case(match["name"], now)
        elif match := _LISTED.match(text):
            self.listing = match["tag"]
            self.list_sizes[match["tag"]] = int(match["n"])
            if match["tag"] == "FAILED":
                self.claimed = FAILED
        elif match := _CASE_END.match(text):
            self._case_end(match["tag"], match["name"], match["ms"], text, now)
        elif match := _RAN.match(text):
            if self.current is not None:
                self.problems.append(f"run ended while {self.current.name} had not ended")
            self.ran_total = int(match["total"])
            self.ended = True
        elif match := _PASSED.match(text):
            self.passed_count = int(match["n"])
            if self.claimed is None:
                self.claimed = PASSED
        else:
            self.message(raw)

    def _case_end(self, tag: str, name: str, ms: str | None, text: str, now: float) -> None:
        if self.listing is not None and tag == self.listing:
            self.listed[tag].append(name)
            return
        case = self.current
        again = self.just_closed
        if case is None and again is not None and again.name == name and not self.ended:
            self._end_again(again, tag, text)
            return
        if case is None or case.name != name:
            if self.ended:
                self.after_end(text)
            else:
                self.problems.append(f"'{text}' ends a case that is not running")
            return
        outcome = {"OK": None, "FAILED": FAILED, "SKIPPED": SKIPPED}[tag]
        if tag == "OK" and case.outcome != PASSED:
            self.problems.append(f"{name} reported a failure but ended OK")
        if tag == "SKIPPED" and case.outcome == PASSED:
            case.outcome = SKIPPED
        self.close_case(now, outcome, int(ms) / 1000.0 if ms is not None else None)
        self.just_closed, self.strays_at_close = case, len(self.stray_failures)

    def _end_again(self, case: CaseResult, tag: str, text: str) -> None:
        """A second end line of the case that just ended: the first was the test's own output.

        GoogleTest ends a case once, with its last line; a test that prints ``[       OK ] X``
        and then fails is failed, with the failures printed after its forged end.
        """
        late = self.stray_failures[self.strays_at_close :]
        del self.stray_failures[self.strays_at_close :]
        case.messages.extend(late)
        if tag == "FAILED" or late:
            if tag != "FAILED":
                self.problems.append(f"{case.name} reported a failure but ended OK")
            case.outcome = FAILED
        elif tag == "SKIPPED" and case.outcome == PASSED:
            case.outcome = SKIPPED

    def finish(self) -> None:
        ran = len(self.cases)
        if self.declared is not None and self.declared != ran:
            self.problems.append(f"inconsistent log: announced {self.declared} tests but {ran} ran")
        if self.ran_total is not None and self.ran_total != ran:
            self.problems.append(f"inconsistent log: the summary says {self.ran_total} tests ran but {ran} did")
        passed = sum(1 for c in self.cases if c.outcome == PASSED)
        if self.passed_count is not None and self.passed_count != passed:
            self.problems.append(f"inconsistent log: the summary says {self.passed_count} passed but {passed} did")
        for tag, outcome in (("FAILED", FAILED), ("SKIPPED", SKIPPED)):
            have = sorted(c.name for c in self.cases if c.outcome == outcome)
            listed = sorted(self.listed[tag])
            if tag in self.list_sizes and (listed != have or self.list_sizes[tag] != len(have)):
                self.problems.append(f"inconsistent log: {tag.lower()} list {listed} but {have} {tag.lower()}")
            elif tag not in self.list_sizes and have and self.passed_count is not None and tag == "FAILED":
                self.problems.append("inconsistent log: tests failed but the summary has no failed list")
