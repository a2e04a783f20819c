"""Zephyr's ztest (the ``ZTEST_SUITE``/``ZTEST`` API; ``subsys/testsuite/ztest/src/ztest.c``, ``tc_util.h``).

::

    Running TESTSUITE <suite>
    ===================================================================
    START - <test>                                  (CONFIG_ZTEST_VERBOSE_OUTPUT, the default)
        Assertion failed at <file>:<line>: <func>: <condition>
    <message>
     PASS - <test> in 0.001 seconds               | FAIL - ... | SKIP - ...
    ===================================================================
    TESTSUITE <suite> succeeded                     | TESTSUITE <suite> failed.
    ...                                             (further suites)
    ------ TESTSUITE SUMMARY START ------           (CONFIG_ZTEST_SUMMARY, the default)
    SUITE PASS - 100.00% [<suite>]: pass = 2, fail = 0, skip = 1, total = 3 duration = 0.002 seconds
     - PASS - [<suite>.<test>] duration = 0.001 seconds   (CONFIG_ZTEST_VERBOSE_SUMMARY; also FLAKY)
    ------ TESTSUITE SUMMARY END ------
    ===================================================================
    PROJECT EXECUTION SUCCESSFUL                    | PROJECT EXECUTION FAILED

A case (``<suite>.<test>``; value-parameterized ones ``<suite>.<test>[<instance>/<i>]``) is
open from its ``START`` line to its result line, a suite from ``Running TESTSUITE`` to its
``TESTSUITE ... succeeded/failed.`` line (or ``TESTSUITE crashed.``, ztest's unit-test build).
The run ends at ``PROJECT EXECUTION ...`` printed outside every suite, after the summary;
printed inside a case it is that case's message, inside a suite (setup, teardown) a problem.

The summary lists every suite of the binary, also those that did not run, and counts
distinct tests (a repeated test passes only if every run passed); a test that did not run
counts as skipped there. The reader checks every figure and verbose line against the cases
seen. Without ``CONFIG_ZTEST_VERBOSE_OUTPUT`` ztest prints no per-test lines at all, and
without ``CONFIG_ZTEST_SUMMARY`` the run has nothing to check: both make the run fail here
(the summary's counts disagree with no cases seen; the end of run lacks its summary). The
legacy API (``ztest_test_suite``, "Running test suite x") is not this format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.formats.base import FAILED, PASSED, SKIPPED, CaseResult, FormatReader

LINE = "=" * 67
SUMMARY_START = "------ TESTSUITE SUMMARY START ------"
SUMMARY_END = "------ TESTSUITE SUMMARY END ------"

_SUITE_START = re.compile(r"^Running TESTSUITE (?P<suite>\S+)$")
_SUITE_END = re.compile(r"^TESTSUITE (?P<suite>\S+) (?:(?P<ok>succeeded)|failed\.)$")
_SUITE_CRASHED = "TESTSUITE crashed."
_START = re.compile(r"^START - (?P<test>\S+)$")
_END = re.compile(r"^(?P<tag>PASS|FAIL|SKIP) - (?P<test>\S+) in (?P<s>\d+)\.(?P<ms>\d{3}) seconds$")
_SUITE_SUMMARY = re.compile(
    r"^SUITE (?P<tag>PASS|FAIL|SKIP) - +\d+\.\d{2}% \[(?P<suite>[^\]]+)\]: pass = (?P<pass>\d+), "
    r"fail = (?P<fail>\d+), skip = (?P<skip>\d+), total = (?P<total>\d+) duration = \d+\.\d{3} seconds$"
)
_TEST_SUMMARY = re.compile(r"^- (?P<tag>PASS|FAIL|SKIP|FLAKY) - \[(?P<name>[^\]]+)\] ")
_PROJECT = re.compile(r"^PROJECT EXECUTION (?P<result>SUCCESSFUL|FAILED)$")
# Failures the framework reports outside a test's own result: an assertion (in a test it is
# a message: an expected failure, ZTEST_EXPECT_FAIL, still ends PASS), a fault in a phase
# that cannot fail, a suite that did not run (CONFIG_ZTEST_VERIFY_RUN_ALL), bad statistics.
_ASSERTION = re.compile(r"^Assertion failed at ")
_FRAMEWORK_ERROR = re.compile(
    r"^(?:ERROR: cannot (?:fail|pass|skip) in test phase|ERROR: Test suite '.*' did not run\.$"
    r"|ERROR: Test '.*' assigned to test suite|Bad stats for )"
)
_TAGS = {"PASS": PASSED, "FAIL": FAILED, "SKIP": SKIPPED}


@dataclass
class _SuiteSummary:
    tag: str
    counts: dict[str, int]
    tests: dict[str, str] = field(default_factory=dict)  # name -> PASS/FAIL/SKIP/FLAKY


def _distinct(outcomes: list[str]) -> str:
    """A test's summary result over its runs (ztest: skipped if all were, passed if no run failed)."""
    if all(o == SKIPPED for o in outcomes):
        return "SKIP"
    if all(o in (PASSED, SKIPPED) for o in outcomes):
        return "PASS"
    return "FLAKY" if PASSED in outcomes else "FAIL"


class ZtestReader(FormatReader):
    name = "ztest"
    description = "Zephyr ztest (Running TESTSUITE / START - / PASS - / PROJECT EXECUTION SUCCESSFUL)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.suite: str | None = None  # the running suite
        self.suites_run: list[str] = []
        self.case_suite: dict[int, str] = {}  # id(case) -> suite
        self.in_summary = False
        self.summary: dict[str, _SuiteSummary] | None = None
        self.last_summary: _SuiteSummary | None = None

    @classmethod
    def detects(cls, line: str) -> bool:
        return _SUITE_START.match(line) is not None or line == SUMMARY_START

    # -- lines ----------------------------------------------------------------------------
    def line(self, text: str, raw: str, now: float) -> None:
        if self.current is not None:
            self._in_case(text, raw, now)
            return
        if self.ended:
            if self._protocol(text):
                self.after_end(text)
            return
        if self.in_summary:
            self._summary_line(text, raw)
            return
        if match := _START.match(text):
            self._start(match["test"], now)
        elif match := _SUITE_START.match(text):
            self._suite_start(match["suite"])
        elif match := _SUITE_END.match(text):
            self._suite_end(match["suite"], match["ok"] is not None)
        elif text == _SUITE_CRASHED:
            self._suite_crashed(raw)
        elif text == SUMMARY_START:
            self._summary_start()
        elif match := _PROJECT.match(text):
            self._project(match["result"])
        elif match := _END.match(text):
            self.problems.append(f"'{text}' ends a test that is not running")
        elif _ASSERTION.match(text) or _FRAMEWORK_ERROR.match(text):
            self.stray_failures.append(raw.strip())
        # anything else between tests (boot banner, separators, suite setup output) is not a test's

    def _in_case(self, text: str, raw: str, now: float) -> None:
        case = self.current
        assert case is not None
        match = _END.match(text)
        if match is None:
            if _FRAMEWORK_ERROR.match(text):
                self.fail_current(raw)
            elif text == _SUITE_CRASHED:  # ztest's unit-test build: a fault it cannot recover from
                self.fail_current(raw)
                self.close_case(now, FAILED)
                self._suite_crashed(raw)
            else:
                self.message(raw)
            return
        suite = self.case_suite.get(id(case), "")
        test = case.name[len(suite) + 1 :] if suite else case.name
        if match["test"] != test:
            # Output of the running test, not its end: the framework names the running test.
            self.message(raw)
            return
        seconds = int(match["s"]) + int(match["ms"]) / 1000.0
        self.close_case(now, _TAGS[match["tag"]], seconds)
        if match["tag"] == "SKIP" and case.outcome == PASSED:
            case.outcome = SKIPPED

    @staticmethod
    def _protocol(text: str) -> bool:
        return any(
            p.match(text) for p in (_START, _END, _SUITE_START, _SUITE_END, _SUITE_SUMMARY, _PROJECT)
        ) or text in (SUMMARY_START, SUMMARY_END, _SUITE_CRASHED)

    # -- suites and cases -----------------------------------------------------------------
    def _start(self, test: str, now: float) -> None:
        if self.suite is None:
            self.problems.append(f"test {test} started outside a test suite")
        name = f"{self.suite}.{test}" if self.suite else test
        case = self.start_case(name, now)
        self.case_suite[id(case)] = self.suite or ""

    def _suite_start(self, suite: str) -> None:
        if self.suite is not None:
            self.problems.append(f"test suite {suite} started while {self.suite} had not ended")
        if self.summary is not None:
            self.problems.append(f"test suite {suite} started after the summary")
        self.suite = suite
        self.suites_run.append(suite)

    def _suite_end(self, suite: str, ok: bool) -> None:
        if suite != self.suite:
            self.problems.append(f"'TESTSUITE {suite}' ended, but the running suite is {self.suite or 'none'}")
            return
        failed = [c.name for c in self._suite_cases(suite) if c.outcome == FAILED]
        if ok and failed:
            self.problems.append(f"inconsistent log: test suite {suite} succeeded although {failed[0]} failed")
        elif not ok and not failed:
            self.problems.append(f"inconsistent log: test suite {suite} failed but none of its tests did")
        if not ok:
            self.claimed = FAILED
        self.suite = None

    def _suite_crashed(self, raw: str) -> None:
        self.stray_failures.append(raw.strip())
        self.claimed = FAILED
        self.suite = None

    def _suite_cases(self, suite: str) -> list[CaseResult]:
        return [c for c in self.cases if self.case_suite.get(id(c)) == suite]

    # -- summary and end ------------------------------------------------------------------
    def _summary_start(self) -> None:
        if self.suite is not None:
            self.problems.append(f"the summary started inside test suite {self.suite}")
        if self.summary is not None:
            self.problems.append("a second summary")
        self.summary = {}
        self.in_summary = True

    def _summary_line(self, text: str, raw: str) -> None:
        assert self.summary is not None
        if text == SUMMARY_END:
            self.in_summary = False
            self.last_summary = None
        elif match := _SUITE_SUMMARY.match(text):
            counts = {k: int(match[k]) for k in ("pass", "fail", "skip", "total")}
            self.last_summary = self.summary[match["suite"]] = _SuiteSummary(match["tag"], counts)
        elif (match := _TEST_SUMMARY.match(text)) and self.last_summary is not None:
            self.last_summary.tests[match["name"]] = match["tag"]
        elif self._protocol(text):
            self.problems.append(f"'{text}' inside the summary")
            self.in_summary = False
        elif _FRAMEWORK_ERROR.match(text):
            self.stray_failures.append(raw.strip())

    def _project(self, result: str) -> None:
        if self.suite is not None:
            self.problems.append(f"end of run printed inside test suite {self.suite}")
            return
        if self.summary is None:
            self.problems.append("end of run without the TESTSUITE SUMMARY (needs CONFIG_ZTEST_SUMMARY=y)")
        self.claimed = FAILED if result == "FAILED" or self.claimed == FAILED else PASSED
        self.ended = True
        self._check_summary()

    def _check_summary(self) -> None:
        if self.summary is None:
            return
        for suite in dict.fromkeys(self.suites_run):
            if suite not in self.summary:
                self.problems.append(f"inconsistent log: test suite {suite} ran but is not in the summary")
        for suite, claimed in self.summary.items():
            by_test: dict[str, list[str]] = {}
            for case in self._suite_cases(suite):
                test = case.name[len(suite) + 1 :].split("[", 1)[0]
                by_test.setdefault(test, []).append(case.outcome)
            seen = {test: _distinct(outcomes) for test, outcomes in by_test.items()}
            have = {
                "pass": sum(1 for r in seen.values() if r == "PASS"),
                "fail": sum(1 for r in seen.values() if r in ("FAIL", "FLAKY")),
            }
            counts = claimed.counts
            if counts["pass"] != have["pass"] or counts["fail"] != have["fail"] or counts["total"] < len(seen):
                self.problems.append(
                    f"inconsistent log: the summary of {suite} says pass = {counts['pass']}, fail = "
                    f"{counts['fail']}, total = {counts['total']} but {have['pass']} passed and "
                    f"{have['fail']} failed of {len(seen)} seen"
                )
            elif counts["pass"] + counts["fail"] + counts["skip"] != counts["total"]:
                self.problems.append(f"inconsistent log: the summary of {suite} does not add up")
            want = "SKIP" if counts["skip"] == counts["total"] else ("FAIL" if counts["fail"] else "PASS")
            if claimed.tag != want:
                self.problems.append(f"inconsistent log: suite {suite} is {claimed.tag} in the summary")
            for name, tag in claimed.tests.items():
                prefix = f"{suite}."
                test = name[len(prefix) :] if name.startswith(prefix) else name
                if seen.get(test, "SKIP") != tag:
                    self.problems.append(
                        f"inconsistent log: the summary says {name} {tag} but the run says {seen.get(test, 'not run')}"
                    )
            missing = [t for t in seen if claimed.tests and f"{suite}.{t}" not in claimed.tests]
            if missing:
                self.problems.append(f"inconsistent log: {suite}.{missing[0]} ran but is not in the summary")
            if claimed.tag == "FAIL":
                self.claimed = FAILED
        if len(self.problems) > 10:
            del self.problems[10:]
