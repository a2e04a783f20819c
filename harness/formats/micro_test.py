"""Our ``micro_runtime/micro_test.h``: every protocol line carries the prefix ``~~~MT ``.

::

    ~~~MT BEGIN <name>
    ~~~MT FAIL <expr> failed at <file>:<line> (<a> vs <b>)
    ~~~MT END <name> PASSED|FAILED
    ~~~MT SUMMARY <passed>/<total> tests passed
    ~~~MT DONE PASSED|FAILED

Nothing an application logs in plain text (``Testing x``, ``~~~ALL TESTS PASSED~~~``,
``1/1 tests passed``) is protocol here: it is a message of the open case. The prefix is
found anywhere in a line, so noise without a newline before it cannot hide a record.
"""

from __future__ import annotations

import re

from harness.formats.base import FAILED, PASSED, FormatReader

PREFIX = "~~~MT "
DONE_PASSED = PREFIX + "DONE PASSED"
DONE_FAILED = PREFIX + "DONE FAILED"

_RECORD = re.compile(r"^~~~MT (?P<kind>[A-Z]+)(?: (?P<rest>.*))?$")
_END = re.compile(r"^(?P<name>\S+) (?P<result>PASSED|FAILED)$")
_SUMMARY = re.compile(r"^(?P<passed>\d+)/(?P<total>\d+) tests passed$")


class MicroTestReader(FormatReader):
    name = "micro_test"
    description = "micro_runtime/micro_test.h (prefixed ~~~MT records)"
    split_marker = PREFIX

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.summary: tuple[int, int] | None = None

    @classmethod
    def detects(cls, line: str) -> bool:
        return line.startswith(PREFIX + "BEGIN ") or line.startswith(PREFIX + "DONE ")

    def line(self, text: str, raw: str, now: float) -> None:
        match = _RECORD.match(text)
        if match is None:
            self.message(raw)
            return
        kind, rest = match["kind"], (match["rest"] or "").strip()
        if self.ended:
            self.after_end(text)
            return
        handler = getattr(self, f"_{kind.lower()}", None)
        if handler is None:
            self.problems.append(f"unknown micro_test record: {text}")
            return
        handler(rest, raw, now)

    def _begin(self, name: str, raw: str, now: float) -> None:
        if self.current is not None:
            self.problems.append(f"case {name} began while {self.current.name} had not ended")
            self.close_case(now, FAILED)
        self.start_case(name, now)

    def _fail(self, rest: str, raw: str, now: float) -> None:
        self.fail_current(raw)

    def _end(self, rest: str, raw: str, now: float) -> None:
        match = _END.match(rest)
        case = self.current
        if match is None or case is None or case.name != match["name"]:
            open_name = case.name if case is not None else "no case"
            self.problems.append(f"end record '{rest}' does not close the open case ({open_name})")
            return
        if match["result"] == "PASSED" and case.outcome != PASSED:
            self.problems.append(f"case {case.name} reported failures but ended PASSED")
        self.close_case(now, PASSED if match["result"] == "PASSED" else FAILED)

    def _summary(self, rest: str, raw: str, now: float) -> None:
        match = _SUMMARY.match(rest)
        if match is None:
            self.problems.append(f"malformed summary: {rest}")
            return
        if self.current is not None:
            self.problems.append(f"summary printed inside case {self.current.name}")
            return
        self.summary = (int(match["passed"]), int(match["total"]))
        self.count_problem(*self.summary)

    def _done(self, rest: str, raw: str, now: float) -> None:
        if self.current is not None:
            self.problems.append(f"end of run printed inside case {self.current.name}")
            return
        if rest not in ("PASSED", "FAILED"):
            self.problems.append(f"malformed end of run: {rest}")
            return
        if self.summary is None:
            self.problems.append("end of run without its summary")
        self.claimed = PASSED if rest == "PASSED" else FAILED
        self.ended = True
