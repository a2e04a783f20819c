"""No output a test can print makes a failing, crashed, hung or unfinished case pass.

Each case here is one way a firmware's log can lie or be garbled (the issue's list), judged
with and without an exit status, fed in one piece, byte by byte and in random chunks.

micro_test logs are written as the framework prints them: every ``~~~MT`` line of a test's
text is signed (``sign_log``: sequenced records after START, unkeyed, as a run without a
token). Text a test *case* prints that imitates the framework goes through ``printed``: it
stays unsigned application output inside the signed log, and is judged as such (a message of
the open case, never protocol).
"""

from __future__ import annotations

import random

import pytest

from harness.core.run_token import UNKEYED
from harness.formats.micro_test import PREFIX, sign, sign_log
from harness.formats.reader import MAX_LINE_BYTES, BinaryReport, LogReader, parse_log
from harness.outcome import Outcome
from harness.runners.base import RunResult

BEGIN, END, SUMMARY = "~~~MT BEGIN {}\n", "~~~MT END {} {}\n", "~~~MT SUMMARY {}/{} tests passed\n"
START = "START micro_test 2"
KEY = (0x1234ABCD, 0x5678EF01)  # a run token's key

# Stands for the record prefix in text a test case prints, so that ``sign_log`` leaves it unsigned.
_PRINTED = "\x00printed-prefix\x00"


def printed(text: str) -> str:
    """``text`` as a test case prints it: its imitations of records stay plain text in ``signed``'s log."""
    return text.replace(PREFIX, _PRINTED)


def signed(text: str, key: tuple[int, int] = UNKEYED) -> bytes:
    """``text`` as the framework prints it: its ``~~~MT`` lines are signed records after START;
    ``printed`` parts stay exactly as the case printed them."""
    return sign_log(text, key).replace(_PRINTED.encode(), PREFIX.encode())


def records(*texts: str, skip: tuple[int, ...] = (), key: tuple[int, int] = UNKEYED) -> list[str]:
    """The record lines of ``texts`` (START first), numbered from 0 but leaving out the numbers in ``skip``."""
    lines, sequence = [], 0
    for text in (START, *texts):
        while sequence in skip:
            sequence += 1
        lines.append(sign(sequence, text, key))
        sequence += 1
    return lines


def _exit(code: int | None = 0, end: str = "exit", backend: str = "qemu") -> RunResult:
    return RunResult(backend, b"", code, end == "timeout", 1.0, end)


def mt_text(*cases: tuple[str, bool, str], done: str | None = None) -> str:
    """A micro_test.h log before signing: (name, passed, text printed inside the case) per case."""
    out = ""
    for name, passed, inside in cases:
        out += BEGIN.format(name) + inside + END.format(name, "PASSED" if passed else "FAILED")
    passed_n = sum(1 for _, ok, _ in cases if ok)
    out += SUMMARY.format(passed_n, len(cases))
    out += f"~~~MT DONE {done or ('PASSED' if passed_n == len(cases) else 'FAILED')}\n"
    return out


def mt(*cases: tuple[str, bool, str], done: str | None = None, key: tuple[int, int] = UNKEYED) -> bytes:
    """The signed log of ``mt_text``."""
    return signed(mt_text(*cases, done=done), key)


def _chunkings(data: bytes, seed: int = 0) -> list[list[bytes]]:
    """The same bytes byte by byte and in random chunks (1 byte to 8 KiB)."""
    rng = random.Random(seed)
    chunks, at = [], 0
    while at < len(data):
        size = rng.choice((1, 2, 5, 7, 64, 511, 4096, 8192))
        chunks.append(data[at : at + size])
        at += size
    return [[data[i : i + 1] for i in range(len(data))], chunks]


def _judged(report: BinaryReport) -> tuple[Outcome, str, list[tuple[str, str]]]:
    return report.outcome, report.summary, [(c.name, c.outcome) for c in report.cases]


def _both(data: bytes, run: RunResult | None, expected: list[str] | None = None,
          key: tuple[int, int] | None = None) -> BinaryReport:
    """The report of the whole log, checked equal to the byte-by-byte and the random-chunk ones."""
    whole = parse_log(data, run, expected=expected, key=key)
    for chunks in _chunkings(data):
        reader = LogReader(expected=expected, key=key)
        for chunk in chunks:
            reader.feed(chunk)
        assert _judged(reader.finish(run)) == _judged(whole)
    return whole


# -- honest protocol: every ~~~MT line of these logs is the framework's own (signed) ----------------
def test_clean_pass() -> None:
    report = _both(mt(("A", True, ""), ("B", True, "")), _exit(0), ["A", "B"])
    assert report.outcome == "passed" and report.format == "micro_test"
    assert report.records == "unauthenticated"  # no run token: key 0


def test_clean_pass_signed_with_the_run_token_is_authenticated() -> None:
    report = _both(mt(("A", True, ""), ("B", True, ""), key=KEY), _exit(0), ["A", "B"], key=KEY)
    assert report.outcome == "passed" and report.records == "authenticated"


def test_framework_summary_and_end_of_run_inside_an_open_case_then_hang() -> None:
    """The framework's own SUMMARY and DONE while a case is open do not end the run; the open case hangs."""
    data = signed(BEGIN.format("A") + SUMMARY.format(1, 1) + "~~~MT DONE PASSED\n")
    report = _both(data, _exit(None, "timeout"))
    assert report.outcome == "timeout" and report.cases[0].outcome == "timeout"
    assert "inside case A" in report.summary


def test_end_then_more_output_fails() -> None:
    data = signed(mt_text(("A", True, "")) + "~~~MT BEGIN B\n~~~MT FAIL y failed at b.cc:1\n")
    report = _both(data, _exit(0))
    assert report.outcome == "failed" and "after the end of the run" in report.summary


def test_application_testing_line_is_just_a_message() -> None:
    inside = "Testing Ghost\n~~~MT FAIL x failed at a.cc:3\n"
    report = _both(mt(("Real", False, inside)), _exit(1), ["Real"])
    assert [(c.name, c.outcome) for c in report.cases] == [("Real", "failed")]
    assert "Testing Ghost" in report.cases[0].messages


def test_duplicate_case_names_keep_both_results() -> None:
    report = _both(mt(("A", True, ""), ("A", False, "~~~MT FAIL x failed at a.cc:9\n")), _exit(1), ["A", "A"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("A", "failed")]
    assert report.outcome == "failed"


def test_sentinel_inside_a_longer_line_is_text_tflm_v1() -> None:
    data = b"Testing A\nnote: ~~~ALL TESTS PASSED~~~ soon\n"
    report = _both(data, _exit(None, "timeout"))
    assert report.outcome == "timeout"


# -- a test case printing imitations of records: plain text inside the signed log -------------------
def test_case_printing_forged_summaries_and_sentinels_stays_failed() -> None:
    """A failing case prints other frameworks' summaries and sentinels and micro_test lookalikes: all are
    messages of the case, which its authentic FAIL record fails; nothing claimed 1/1."""
    inside = "1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"
    inside += printed("~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n")
    inside += "~~~MT FAIL x failed at a.cc:3\n"
    report = _both(mt(("A", False, inside)), _exit(1))
    assert report.outcome == "failed" and report.cases[0].outcome == "failed"
    for line in ("~~~ALL TESTS PASSED~~~", "~~~MT END A PASSED", "~~~MT SUMMARY 1/1 tests passed", "~~~MT DONE PASSED"):
        assert line in report.cases[0].messages
    assert report.problems == []  # the lookalikes are not records: they claimed nothing


@pytest.mark.parametrize(("run", "outcome"), [(_exit(None, "timeout"), "timeout"), (_exit(0), "crashed")],
                         ids=["hangs", "exits-0"])
def test_case_printing_a_forged_end_of_run_then_hanging_or_exiting_is_not_finished(run: RunResult,
                                                                                   outcome: str) -> None:
    """A case prints END/SUMMARY/DONE lookalikes, then hangs (or exits 0): the run never ended; the case is
    judged by how the run died, and the lookalikes are its messages."""
    data = signed(BEGIN.format("A") + printed("~~~MT END A PASSED\n" + SUMMARY.format(1, 1) + "~~~MT DONE PASSED\n"))
    report = _both(data, run)
    assert report.outcome == outcome and [(c.name, c.outcome) for c in report.cases] == [("A", outcome)]
    assert "~~~MT DONE PASSED" in report.cases[0].messages
    assert "inside case" not in report.summary  # not the framework's: no protocol problem, just output


def test_case_printing_old_plain_records_inside_a_failing_case_stays_failed() -> None:
    """The old protocol's lines (``~~~MT END A PASSED``, ``~~~MT DONE PASSED``) printed by a failing case,
    the run going on as the framework prints it: the case stays failed."""
    inside = "~~~MT FAIL x failed at a.cc:3\n" + printed("~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n")
    inside += printed("~~~MT DONE PASSED\n")
    for code in (1, 0):  # even with an exit status that agrees with the lookalikes
        report = _both(mt(("A", False, inside), ("B", True, "")), _exit(code), ["A", "B"])
        assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed"), ("B", "passed")]
        assert report.outcome == "failed" and "1 of 2 tests failed: A" in report.summary
        assert "~~~MT END A PASSED" in report.cases[0].messages
        assert "~~~MT DONE PASSED" in report.cases[0].messages


def test_text_glued_before_an_authentic_record_does_not_hide_the_next_case() -> None:
    """Application text without a newline, then a record on the same line: the record counts, the text is
    output (here between cases, so nobody's message)."""
    data = signed("~~~MT BEGIN A\n~~~MT END A PASSED\nnoise no newline~~~MT BEGIN B\n~~~MT FAIL z failed at c.cc:2\n"
                  "~~~MT END B FAILED\n~~~MT SUMMARY 1/2 tests passed\n~~~MT DONE FAILED\n")
    assert b"noise no newline~~~MT 3 " in data  # the record is glued to the text
    report = _both(data, _exit(1))
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "failed")]
    assert "noise no newline" not in report.cases[1].messages
    assert report.problems == []


def test_text_glued_before_a_fail_record_inside_a_case_is_its_message() -> None:
    data = signed("~~~MT BEGIN A\nvalue=3~~~MT FAIL v == 4 failed at a.cc:7 (3 vs 4)\n~~~MT END A FAILED\n"
                  "~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n")
    report = _both(data, _exit(1))
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed")]
    assert report.cases[0].messages[:2] == ["value=3", "FAIL v == 4 failed at a.cc:7 (3 vs 4)"]


@pytest.mark.parametrize(
    "failure",
    ["FAIL: unreachable", "FAIL: abc did not match abd", "x (1.000000) near y (2.000000) failed at t.cc:4"],
)
def test_tflm_v1_failure_forms_are_seen(failure: str) -> None:
    data = f"Testing A\n{failure}\nTesting B\n1/2 tests passed\n~~~SOME TESTS FAILED~~~\n".encode()
    report = _both(data, _exit(1), ["A", "B"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed"), ("B", "passed")]
    assert report.format == "tflm_v1" and report.outcome == "failed"


def test_tflm_v1_unknown_testing_line_does_not_steal_failures() -> None:
    data = b"Testing A\nTesting Bogus\nq failed at t.cc:1\n0/1 tests passed\n~~~SOME TESTS FAILED~~~\n"
    report = _both(data, _exit(1), ["A"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed")]


def test_tflm_v1_summary_that_hides_a_failure_fails() -> None:
    data = b"Testing A\nTesting B\n1/2 tests passed\n~~~SOME TESTS FAILED~~~\n"
    report = _both(data, _exit(1), ["A", "B"])
    assert report.outcome == "failed"


def test_tflm_v1_noise_before_a_known_case_start() -> None:
    data = b"Testing A\ngarbageTesting B\nq failed at t.cc:1\n1/2 tests passed\n~~~SOME TESTS FAILED~~~\n"
    report = _both(data, _exit(1), ["A", "B"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "failed")]


def test_exit_status_contradicting_a_pass_fails() -> None:
    assert _both(mt(("A", True, "")), _exit(1)).outcome == "failed"


def test_clean_log_that_did_not_exit_is_a_hang() -> None:
    report = _both(mt(("A", True, "")), _exit(None, "no-exit"))
    assert report.outcome == "timeout" and "did not exit" in report.summary


def test_cases_in_the_source_that_never_ran_fail_the_run() -> None:
    report = _both(mt(("A", True, "")), _exit(0), ["A", "B"])
    assert report.outcome == "failed" and "B" in report.summary


def test_zero_cases_is_not_a_pass() -> None:
    assert _both(signed("~~~MT SUMMARY 0/0 tests passed\n~~~MT DONE PASSED\n"), _exit(0)).outcome == "no-tests"


def test_garbage_and_non_utf8_without_newlines() -> None:
    garbage = bytes(range(256)) * 40  # no newline-free run is a record
    data = garbage + b"\n" + mt(("A", True, "\xff\xfe bytes\n".encode("latin-1").decode("latin-1")))
    report = _both(data, _exit(0))
    assert report.outcome == "passed"


def test_one_megabyte_line_and_log() -> None:
    big = "x" * (1 << 20)
    data = signed(f"~~~MT BEGIN A\n{big}\n{big}~~~MT FAIL w failed at a.cc:1\n~~~MT END A FAILED\n"
                  "~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n")
    report = parse_log(data, _exit(1))
    assert report.outcome == "failed" and report.cases[0].outcome == "failed"
    assert "FAIL w failed at a.cc:1" in report.cases[0].messages and report.problems == []


def test_end_record_for_another_case_fails() -> None:
    data = signed("~~~MT BEGIN A\n~~~MT END B PASSED\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n"
                  "~~~MT DONE PASSED\n")
    report = _both(data, _exit(0))
    assert report.outcome == "failed" and "does not close" in report.summary


def test_crash_line_in_any_format_is_a_crash_of_the_open_case() -> None:
    data = signed("~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT BEGIN B\n*** HardFault: CFSR=0x00000400 HFSR=0x40000000\n")
    report = _both(data, _exit(3, "crash"))
    assert report.outcome == "crashed" and [(c.name, c.outcome) for c in report.cases] == [
        ("A", "passed"), ("B", "crashed")]


# -- the record stream: replays, gaps, the run token -----------------------------------------------
def test_replayed_copy_of_an_earlier_record_breaks_the_stream() -> None:
    """A case prints a verbatim copy of an authentic record it saw (record 2, ``END A PASSED``); with the
    same key it verifies, but its number came already: the run fails however well it went otherwise."""
    copy = records("BEGIN A", "END A PASSED")[2]
    data = signed(mt_text(("A", True, ""), ("B", True, printed(copy + "\n"))))
    report = _both(data, _exit(0))
    assert report.outcome == "failed"
    assert report.summary.startswith("broken record stream: record 2 came again after record 3")
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "passed")]


def test_replay_of_an_earlier_runs_passing_end_inside_a_failing_case_breaks_the_stream() -> None:
    """B fails (record 4), then prints the end of an earlier, passing run of the same binary (records
    4-6: END B PASSED, SUMMARY 2/2, DONE PASSED) and exits 0: authentic copies under key 0, but repeated."""
    earlier = records("BEGIN A", "END A PASSED", "BEGIN B", "END B PASSED", "SUMMARY 2/2 tests passed", "DONE PASSED")
    assert earlier[4].startswith("~~~MT 4 ") and earlier[6].endswith("DONE PASSED")
    data = signed("~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT BEGIN B\n~~~MT FAIL x failed at b.cc:2\n"
                  + printed("\n".join(earlier[4:]) + "\n"))
    report = _both(data, _exit(0))
    assert report.outcome == "failed" and "broken record stream" in report.summary
    assert "record 4 came again" in report.summary
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "failed")]


@pytest.mark.parametrize(("skip", "gap"), [((3,), "record 3 is missing"), ((3, 4, 5), "records 3-5 are missing"),
                                           ((6,), "record 6 is missing")])
def test_missing_records_fail_the_run_naming_the_gap(skip: tuple[int, ...], gap: str) -> None:
    """Records consistent in every other way (two passing cases, right summary) with numbers missing."""
    lines = records("BEGIN A", "END A PASSED", "BEGIN B", "END B PASSED", "SUMMARY 2/2 tests passed",
                    "DONE PASSED", skip=skip)
    report = _both(("\n".join(lines) + "\n").encode(), _exit(0), ["A", "B"])
    assert report.outcome == "failed" and report.summary.startswith(f"broken record stream: {gap}")
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "passed")]


def test_lost_fail_record_is_a_gap_not_a_pass() -> None:
    data = mt(("A", False, "~~~MT FAIL x failed at a.cc:3\n"))
    lost = b"\n".join(line for line in data.split(b"\n") if b" FAIL x " not in line)
    report = _both(lost, _exit(1))
    assert report.outcome == "failed" and "record 2 is missing" in report.summary


def test_unkeyed_records_are_not_accepted_when_the_run_has_a_token() -> None:
    """Firmware that did not get the run's token signs with key 0: none of its records is taken, and the
    verdict says why."""
    data = mt(("A", True, ""), ("B", True, ""))
    report = _both(data, _exit(0), ["A", "B"], key=KEY)
    assert report.outcome == "crashed" and report.cases == [] and report.format == "unknown"
    assert "the firmware did not receive the token" in report.summary
    assert parse_log(data, _exit(0), expected=["A", "B"]).outcome == "passed"  # the same log without a token


def test_unkeyed_copies_printed_by_a_case_of_an_authenticated_run_are_messages() -> None:
    """A failing case of a run with a token prints a whole passing unkeyed run (say, from a host run's
    log): authentic-looking under key 0, but this run's records are signed with its key."""
    host_run = mt(("A", True, ""), done="PASSED").decode()
    data = mt(("A", False, "~~~MT FAIL x failed at a.cc:3\n" + printed(host_run)), key=KEY)
    report = _both(data, _exit(0), ["A"], key=KEY)
    assert report.outcome == "failed" and [(c.name, c.outcome) for c in report.cases] == [("A", "failed")]
    assert report.records == "authenticated" and report.problems == []
    assert any(m.endswith("DONE PASSED") for m in report.cases[0].messages)


@pytest.mark.parametrize("fragment", ["~", "~~", "~~~", "~~~M", "~~~MT", "~~~MT ", "value ~~~M", "value ~~~MT ",
                                      "~~~MT ~~~MT ", "~~~MT 2 ", "~~~MT 2 0badf00d ", "~~~MT 99999999999 "])
def test_prefix_fragment_glued_before_a_signed_fail_record_does_not_hide_it(fragment: str) -> None:
    """A case's text ends in (a piece of) the record prefix, and the framework's FAIL record follows on the
    same line: the FAIL counts (no gap in the stream), the fragment is the case's output."""
    lines = records("BEGIN A", "FAIL x failed at a.cc:3", "END A FAILED", "SUMMARY 0/1 tests passed", "DONE FAILED")
    lines[2] = fragment + lines[2]
    report = _both(("\n".join(lines) + "\n").encode(), _exit(1), ["A"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed")]
    assert report.outcome == "failed" and report.problems == []
    assert report.cases[0].messages[:2] == [fragment.strip(), "FAIL x failed at a.cc:3"]


def _long_line_log(length: int) -> bytes:
    """A failing case A whose FAIL record and a passing case B whose END record each come right after
    ``length`` bytes of text without a newline."""
    lines = records("BEGIN A", "FAIL x failed at a.cc:3", "END A FAILED", "BEGIN B", "END B PASSED",
                    "SUMMARY 1/2 tests passed", "DONE FAILED")
    lines[2] = "y" * length + lines[2]
    lines[5] = "z" * length + lines[5]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("length", [MAX_LINE_BYTES + 1, MAX_LINE_BYTES + 100, MAX_LINE_BYTES + 600,
                                    2 * MAX_LINE_BYTES, 2 * MAX_LINE_BYTES - 3, 3 * MAX_LINE_BYTES + 7])
def test_long_line_then_a_signed_record_gives_the_same_cases_in_any_chunking(length: int) -> None:
    """More than MAX_LINE_BYTES of text, no newline, then a record: the line is cut, and how the bytes
    arrive (one chunk, byte by byte, random chunks) changes nothing."""
    report = _both(_long_line_log(length), _exit(1), ["A", "B"])  # asserts the three chunkings agree
    assert report.outcome in ("failed", "crashed") and report.cases[0].outcome == "failed"


@pytest.mark.parametrize("length", [MAX_LINE_BYTES + 1, MAX_LINE_BYTES + 600, 3 * MAX_LINE_BYTES + 7,
                                    MAX_LINE_BYTES - 6, MAX_LINE_BYTES - 5, MAX_LINE_BYTES - 1,
                                    2 * MAX_LINE_BYTES - 3])
def test_record_after_long_text_is_never_cut_in_two(length: int) -> None:
    """reader.py's promise for the line cut: a record glued after long text is never cut in two, so the
    FAIL record counts and the stream has no gap, wherever the cut falls."""
    report = _both(_long_line_log(length), _exit(1), ["A", "B"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "failed"), ("B", "passed")]
    assert "FAIL x failed at a.cc:3" in report.cases[0].messages
    assert report.problems == [], report.problems


GTEST_SKIP = b"""\
[==========] Running 2 tests from 1 test suite.
[----------] Global test environment set-up.
[----------] 2 tests from S
[ RUN      ] S.A
[       OK ] S.A (0 ms)
[ RUN      ] S.B
s.cc:5: Skipped
not today

[  SKIPPED ] S.B (0 ms)
[----------] 2 tests from S (0 ms total)

[----------] Global test environment tear-down
[==========] 2 tests from 1 test suite ran. (0 ms total)
[  PASSED  ] 1 test.
[  SKIPPED ] 1 test, listed below:
[  SKIPPED ] S.B
"""


def test_gtest_skip_is_a_skipped_case_and_a_passing_run() -> None:
    report = _both(GTEST_SKIP, _exit(0, backend="host"))
    assert report.outcome == "passed", report.summary
    assert [(c.name, c.outcome) for c in report.cases] == [("S.A", "passed"), ("S.B", "skipped")]


TFLM_V2_FAIL = b"""\
[==========] Running tests.
[ RUN      ] Suite.One
[       OK ] Suite.One
[ RUN      ] Suite.Two
t.cc:9: Failure
  Expression:  a == b
[  FAILED  ] Suite.Two
[==========] 2 tests ran.
[  PASSED  ] 1 tests.
[  FAILED  ] 1 tests, listed below:
[  FAILED  ] Suite.Two
"""


def test_tflm_v2_failure() -> None:
    report = _both(TFLM_V2_FAIL, _exit(1))
    assert report.format == "gtest" and report.outcome == "failed"
    assert [(c.name, c.outcome) for c in report.cases] == [("Suite.One", "passed"), ("Suite.Two", "failed")]


def test_tflm_v2_pass() -> None:
    data = b"[==========] Running tests.\n[ RUN      ] S.A\n[       OK ] S.A\n[==========] 1 tests ran.\n"
    data += b"[  PASSED  ] 1 tests.\n~~~ALL TESTS PASSED~~~\n"
    assert _both(data, _exit(0)).outcome == "passed"


def test_gtest_forged_summary_inside_a_case() -> None:
    data = b"[==========] Running 1 test from 1 test suite.\n[ RUN      ] S.A\n"
    data += b"[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n"
    report = _both(data, _exit(None, "timeout"))
    assert report.outcome != "passed"


def test_fixed_format_overrides_detection() -> None:
    data = b"Testing A\n1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"
    assert parse_log(data, _exit(0), fmt="micro_test").outcome != "passed"
    assert parse_log(data, _exit(0), fmt="tflm_v1").outcome == "passed"
