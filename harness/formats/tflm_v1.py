"""TFLM's original ``micro_test.h`` (``TF_LITE_MICRO_TEST``): plain lines, no case end line.

::

    Testing <name>
    <expr> failed at <file>:<line> (...)      | FAIL: <message>
    <passed>/<total> tests passed
    ~~~ALL TESTS PASSED~~~                    | ~~~SOME TESTS FAILED~~~

A case lasts from its ``Testing`` line to the next ``Testing`` line or the summary. The run
ends only at a sentinel line that follows the summary; a sentinel anywhere else (inside a
case, or inside a longer line) is just text. When the source's case names are known, a
``Testing <word>`` that is not one of them (or not the next use of a name) is just text too,
so an application line cannot open a case that does not exist.
"""

from __future__ import annotations

import re

from harness.formats.base import FAILED, PASSED, FormatReader

PASS_SENTINEL = "~~~ALL TESTS PASSED~~~"
FAIL_SENTINEL = "~~~SOME TESTS FAILED~~~"

_TESTING = re.compile(r"^Testing (?P<name>[\w$]+)$")
_TESTING_TAIL = re.compile(r"Testing (?P<name>[\w$]+)$")
_FAILURE = re.compile(r"\bfailed at \S+:\d+|^FAIL: ")
_COUNTS = re.compile(r"^(?P<passed>\d+)/(?P<total>\d+) tests passed$")


class TflmV1Reader(FormatReader):
    name = "tflm_v1"
    description = "TFLM micro_test.h (Testing / failed at / N/M tests passed / ~~~ALL TESTS PASSED~~~)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.summary: tuple[int, int] | None = None

    @classmethod
    def detects(cls, line: str) -> bool:
        return _TESTING.match(line) is not None or _COUNTS.match(line) is not None

    def line(self, text: str, raw: str, now: float) -> None:
        match = _TESTING.match(text)
        if match is None and self.expected is not None:
            # Noise without a newline before the start line: accept only a known case name.
            tail = _TESTING_TAIL.search(text)
            if tail is not None and tail["name"] in self.expected:
                self.message(raw[: raw.rfind("Testing ")])
                match = tail
        if match is not None and self.expected_case(match["name"]):
            if self.ended:
                self.after_end(text)
                return
            if self.summary is not None:
                self.problems.append(f"case {match['name']} started after the summary")
            self.start_case(match["name"], now)
            return
        if _FAILURE.search(text):
            if self.ended:
                self.after_end(text)
            else:
                self.fail_current(raw)
            return
        counts = _COUNTS.match(text)
        if counts is not None and not self.ended:
            self.close_case(now)
            if self.summary is not None:
                self.problems.append(f"second summary: {text}")
            self.summary = (int(counts["passed"]), int(counts["total"]))
            self.count_problem(*self.summary)
            return
        if text in (PASS_SENTINEL, FAIL_SENTINEL) and self.summary is not None and self.current is None:
            if self.ended:
                return  # a repeated sentinel changes nothing
            self.ended = True
            self.claimed = PASSED if text == PASS_SENTINEL else FAILED
            return
        self.message(raw)
