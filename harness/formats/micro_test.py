"""Our ``micro_runtime/micro_test.h``: authenticated, sequenced records.

Every framework record is one line ``~~~MT <seq> <mac> <text>``: ``seq`` counts the binary's
records from 0, ``mac`` is 8 hex digits of ``harness.core.run_token.record_mac(key, seq, text)``
under the run's token, and ``text`` is one of::

    START micro_test 2
    BEGIN <name>
    FAIL <expr> failed at <file>:<line> (<a> vs <b>)
    END <name> PASSED|FAILED
    SUMMARY <passed>/<total> tests passed
    DONE PASSED|FAILED

``find_record`` finds an authentic record anywhere in a raw line (application text without a
newline may precede it); everything else — including any copy or imitation of a record a
test prints — is application output and reaches this reader as ``line``: a message of the
open case. ``harness.formats.reader.LogReader`` checks the sequence (a gap, a repeat or a
reordering is a broken stream) and hands authentic records to ``record``.

The framework's source syntax is here too: ``source_cases`` lists the ``TF_LITE_MICRO_TEST(Name)``
cases of a ``*_test.cc`` (for items before a first build; a built binary's own list comes from its
ELF, ``harness.core.binary_info``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.core.run_token import UNKEYED, record_mac
from harness.formats.base import FormatReader
from harness.outcome import Outcome

PREFIX = "~~~MT "
PREFIX_BYTES = PREFIX.encode()
FRAMEWORK = "micro_test"
VERSION = "2"

_HEAD = re.compile(rb"~~~MT (0|[1-9][0-9]{0,9}) ([0-9a-f]{8}) ")
_KIND = re.compile(r"^(?P<kind>[A-Z]+)(?: (?P<rest>.*))?$")
_END = re.compile(r"^(?P<name>\S+) (?P<result>PASSED|FAILED)$")
_SUMMARY = re.compile(r"^(?P<passed>\d+)/(?P<total>\d+) tests passed$")

# Lines a test prints to report a figure of a model (a measurement, never a verdict): "<model>
# arena_used_bytes=<n>", "<model> instructions_per_invoke=<n>"; names as the history records them. The model
# name starts where no name character precedes it, so a long run of such characters is tried once, not from
# every position in it (linear, whatever a test prints).
FIGURE_RE = re.compile(rb"(?<![\w.+-])(?P<model>[\w.+-]{1,200})[ \t]+"
                       rb"(?P<figure>arena_used_bytes|instructions_per_invoke)=(?P<n>\d{1,20})")
FIGURE_NAMES = {b"arena_used_bytes": "arena_bytes", b"instructions_per_invoke": "instructions_per_invoke"}


def model_figures(text: bytes) -> list[tuple[str, str, int]]:
    """(figure, model, value) of the figure lines in ``text`` (``FIGURE_RE``), in order; only the lines that
    name a figure are searched."""
    found = []
    for line in text.splitlines():
        if b"arena_used_bytes=" in line or b"instructions_per_invoke=" in line:
            found += [(FIGURE_NAMES[m["figure"]], m["model"].decode(), int(m["n"])) for m in FIGURE_RE.finditer(line)]
    return found


# The case macro in a source (comments blanked first, lines kept).
CASE_RE = re.compile(r"^[ \t]*TF_LITE_MICRO_TEST\s*\(\s*([\w$]+)\s*\)", re.MULTILINE)
_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def blank_comments(source: str) -> str:
    """``source`` with C/C++ comments blanked (their newlines kept, so nothing shifts onto a case's line)."""
    return _COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), source)


def source_cases(source: str) -> list[str]:
    """``TF_LITE_MICRO_TEST`` names of a source in order, commented-out cases ignored (the preprocessor is
    not run: a built binary's own list comes from its ELF, ``harness.core.binary_info``)."""
    return CASE_RE.findall(blank_comments(source))


@dataclass(frozen=True)
class Record:
    at: int  # where the record starts in the raw line (text before it is application output)
    sequence: int
    text: str


@dataclass
class Lookalikes:
    """Lines that imitate records: signed with key 0 although the run had a token (``unkeyed``: the firmware
    did not get the token), or not authentic at all (``forged``)."""

    unkeyed: int = 0
    forged: int = 0
    first_unkeyed: str | None = None
    first_forged: str | None = None


def sign(sequence: int, text: str, key: tuple[int, int] = UNKEYED) -> str:
    """The record line (without newline) micro_test.h prints for ``text`` as record ``sequence``."""
    return f"{PREFIX}{sequence} {record_mac(key, sequence, text):08x} {text}"


def sign_log(text: str | bytes, key: tuple[int, int] = UNKEYED, start: bool = True) -> bytes:
    """``text`` with every plain record ``~~~MT <text>`` (at the start of a line, or after text without a newline)
    signed as the framework prints it, numbered from 0 (after a START record when ``start``): how tests and
    fakes write a micro_test log. Lines without the prefix stay as they are."""
    raw = text.encode() if isinstance(text, str) else text
    out: list[bytes] = []
    sequence = 0
    if start:
        out.append(sign(0, f"START {FRAMEWORK} {VERSION}", key).encode() + b"\n")
        sequence = 1
    for line in raw.splitlines(keepends=True):
        at = line.find(PREFIX_BYTES)
        if at < 0:
            out.append(line)
            continue
        body = line[at + len(PREFIX_BYTES):]
        ending = body[len(body.rstrip(b"\r\n")):]
        body = body[: len(body) - len(ending)]
        out.append(line[:at] + sign(sequence, body.decode("utf-8", errors="surrogateescape"), key).encode(
            "utf-8", errors="surrogateescape") + ending)
        sequence += 1
    return b"".join(out)


def sign_parts(*parts: str, key: tuple[int, int] = UNKEYED) -> list[bytes]:
    """``sign_log`` of the parts (whole lines each) of one run's log, kept as separate chunks: the records
    numbered across the parts, the START record with the first (how fakes feed a log in pieces)."""
    lines = sign_log("".join(parts), key).splitlines(keepends=True)
    chunks, at = [], 1
    for index, part in enumerate(parts):
        count = len(part.splitlines())
        chunks.append(b"".join(lines[0 if index == 0 else at : at + count]))
        at += count
    return chunks


def find_record(raw: bytes, key: tuple[int, int], seen: Lookalikes | None = None) -> Record | None:
    """The first authentic record in ``raw`` (one line, newline removed), trying every place the prefix
    occurs; lookalikes are counted in ``seen``."""
    at = raw.find(PREFIX_BYTES)
    while at >= 0:
        head = _HEAD.match(raw, at)
        if head is not None:
            sequence, mac = int(head[1]), int(head[2], 16)
            body = raw[head.end():]
            if record_mac(key, sequence, body) == mac:
                return Record(at, sequence, body.decode("utf-8", errors="replace"))
            if seen is not None:
                shown = raw[at:].decode("utf-8", errors="replace")[:200]
                if key != UNKEYED and record_mac(UNKEYED, sequence, body) == mac:
                    seen.unkeyed += 1
                    seen.first_unkeyed = seen.first_unkeyed or shown
                else:
                    seen.forged += 1
                    seen.first_forged = seen.first_forged or shown
        elif seen is not None:
            seen.forged += 1
            seen.first_forged = seen.first_forged or raw[at:].decode("utf-8", errors="replace")[:200]
        at = raw.find(PREFIX_BYTES, at + 1)
    return None


class MicroTestReader(FormatReader):
    name = FRAMEWORK
    description = "micro_runtime/micro_test.h (authenticated ~~~MT records)"

    def __init__(self, expected: list[str] | None = None) -> None:
        super().__init__(expected)
        self.summary: tuple[int, int] | None = None
        self.started = False
        self.early = False  # records came before START

    @classmethod
    def detects(cls, line: str) -> bool:
        return False  # only an authentic record (LogReader) makes a log micro_test's

    def line(self, text: str, raw: str, now: float) -> None:
        self.message(raw)  # application output, whatever it says

    def record(self, text: str, now: float) -> None:
        """One authentic record's text (in sequence)."""
        match = _KIND.match(text)
        if match is None:
            self.problems.append(f"malformed micro_test record: {text}")
            return
        kind, rest = match["kind"], (match["rest"] or "").strip()
        if self.ended:
            self.after_end(text)
            return
        handler = getattr(self, f"_{kind.lower()}", None)
        if handler is None:
            self.problems.append(f"unknown micro_test record: {text}")
            return
        if kind != "START" and not self.started and not self.early:
            self.problems.append(f"record before the START record (printed before main, e.g. by a static "
                                 f"constructor): {text}")
            self.early = True
        handler(rest, text, now)

    def _start(self, rest: str, text: str, now: float) -> None:
        if self.started:
            self.problems.append(f"a second START record: {text} (the binary started again)")
        self.started = True
        if rest != f"{FRAMEWORK} {VERSION}":
            self.problems.append(f"START record of another framework version: {rest} (expected {FRAMEWORK} {VERSION})")

    def _begin(self, name: str, text: str, now: float) -> None:
        if self.current is not None:
            self.problems.append(f"case {name} began while {self.current.name} had not ended")
            self.close_case(now, Outcome.FAILED)
        if self.expected is not None and not self.expected_case(name):
            if name in self.expected:
                times = sum(1 for c in self.cases if c.name == name) + 1
                self.problems.append(f"case {name} ran {times} times but the binary's compiled case list has it "
                                     f"{self.expected.count(name)} time(s) (did the binary restart?)")
            else:
                self.problems.append(f"case {name} ran but is not in the binary's compiled case list")
        self.start_case(name, now)

    def _fail(self, rest: str, text: str, now: float) -> None:
        self.fail_current(text)

    def _end(self, rest: str, text: str, now: float) -> None:
        match = _END.match(rest)
        case = self.current
        if match is None or case is None or case.name != match["name"]:
            open_name = case.name if case is not None else "no case"
            self.problems.append(f"end record '{rest}' does not close the open case ({open_name})")
            return
        if match["result"] == "PASSED" and case.outcome != Outcome.PASSED:
            self.problems.append(f"case {case.name} reported failures but ended PASSED")
        if match["result"] == "FAILED" and case.outcome == Outcome.PASSED:
            case.messages.append("(the framework marked the case failed)")
        self.close_case(now, Outcome.PASSED if match["result"] == "PASSED" else Outcome.FAILED)

    def _summary(self, rest: str, text: str, now: float) -> None:
        match = _SUMMARY.match(rest)
        if match is None:
            self.problems.append(f"malformed summary: {rest}")
            return
        if self.current is not None:
            self.problems.append(f"summary printed inside case {self.current.name}")
            return
        self.summary = (int(match["passed"]), int(match["total"]))
        self.count_problem(*self.summary)

    def _done(self, rest: str, text: str, now: float) -> None:
        if self.current is not None:
            self.problems.append(f"end of run printed inside case {self.current.name}")
            return
        if rest not in ("PASSED", "FAILED"):
            self.problems.append(f"malformed end of run: {rest}")
            return
        if self.summary is None:
            self.problems.append("end of run without its summary")
        self.claimed = Outcome.PASSED if rest == "PASSED" else Outcome.FAILED
        self.ended = True


__all__ = ["FRAMEWORK", "PREFIX", "VERSION", "Lookalikes", "MicroTestReader", "Record", "find_record", "sign",
           "sign_log", "sign_parts"]
