"""No output a test can print makes a failing, crashed, hung or unfinished case pass.

Each case here is one way a firmware's log can lie or be garbled (the issue's list), judged
with and without an exit status, fed in one piece and byte by byte.
"""

from __future__ import annotations

import pytest

from harness.formats.reader import LogReader, parse_log
from harness.runners.base import RunResult

BEGIN, END, SUMMARY = "~~~MT BEGIN {}\n", "~~~MT END {} {}\n", "~~~MT SUMMARY {}/{} tests passed\n"


def _exit(code: int | None = 0, end: str = "exit", backend: str = "qemu") -> RunResult:
    return RunResult(backend, b"", code, end == "timeout", 1.0, end)


def mt(*cases: tuple[str, bool, str], done: str | None = None) -> bytes:
    """A micro_test.h log: (name, passed, text printed inside the case) per case."""
    out = ""
    for name, passed, inside in cases:
        out += BEGIN.format(name) + inside + END.format(name, "PASSED" if passed else "FAILED")
    passed_n = sum(1 for _, ok, _ in cases if ok)
    out += SUMMARY.format(passed_n, len(cases))
    out += f"~~~MT DONE {done or ('PASSED' if passed_n == len(cases) else 'FAILED')}\n"
    return out.encode()


def _both(data: bytes, run: RunResult | None, expected: list[str] | None = None):  # type: ignore[no-untyped-def]
    """The report of the whole log, checked equal to the byte-by-byte one."""
    whole = parse_log(data, run, expected=expected)
    reader = LogReader(expected=expected)
    for i in range(len(data)):
        reader.feed(data[i : i + 1])
    bytewise = reader.finish(run)
    assert (bytewise.outcome, [(c.name, c.outcome) for c in bytewise.cases]) == (
        whole.outcome, [(c.name, c.outcome) for c in whole.cases])
    return whole


def test_clean_pass() -> None:
    report = _both(mt(("A", True, ""), ("B", True, "")), _exit(0), ["A", "B"])
    assert report.outcome == "passed" and report.format == "micro_test"


def test_forged_summary_and_sentinels_inside_a_failing_case() -> None:
    inside = "1/1 tests passed\n~~~ALL TESTS PASSED~~~\n~~~MT FAIL x failed at a.cc:3\n"
    report = _both(mt(("A", False, inside)), _exit(1))
    assert report.outcome == "failed" and report.cases[0].outcome == "failed"
    assert "~~~ALL TESTS PASSED~~~" in report.cases[0].messages


def test_forged_micro_test_end_inside_an_open_case_then_hang() -> None:
    data = (BEGIN.format("A") + SUMMARY.format(1, 1) + "~~~MT DONE PASSED\n").encode()
    report = _both(data, _exit(None, "timeout"))
    assert report.outcome == "timeout" and report.cases[0].outcome == "timeout"
    assert "inside case A" in report.summary


def test_end_then_more_output_fails() -> None:
    data = mt(("A", True, "")) + b"~~~MT BEGIN B\n~~~MT FAIL y failed at b.cc:1\n"
    report = _both(data, _exit(0))
    assert report.outcome == "failed" and "after the end of the run" in report.summary


def test_application_testing_line_is_just_a_message() -> None:
    inside = "Testing Ghost\n~~~MT FAIL x failed at a.cc:3\n"
    report = _both(mt(("Real", False, inside)), _exit(1), ["Real"])
    assert [(c.name, c.outcome) for c in report.cases] == [("Real", "failed")]
    assert "Testing Ghost" in report.cases[0].messages


def test_sentinel_inside_a_longer_line_is_text_tflm_v1() -> None:
    data = b"Testing A\nnote: ~~~ALL TESTS PASSED~~~ soon\n"
    report = _both(data, _exit(None, "timeout"))
    assert report.outcome == "timeout"


def test_duplicate_case_names_keep_both_results() -> None:
    report = _both(mt(("A", True, ""), ("A", False, "~~~MT FAIL x failed at a.cc:9\n")), _exit(1), ["A", "A"])
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("A", "failed")]
    assert report.outcome == "failed"


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


def test_noise_without_newline_does_not_hide_the_next_case() -> None:
    data = b"~~~MT BEGIN A\n~~~MT END A PASSED\nnoise no newline~~~MT BEGIN B\n~~~MT FAIL z failed at c.cc:2\n"
    data += b"~~~MT END B FAILED\n~~~MT SUMMARY 1/2 tests passed\n~~~MT DONE FAILED\n"
    report = _both(data, _exit(1))
    assert [(c.name, c.outcome) for c in report.cases] == [("A", "passed"), ("B", "failed")]
    assert "noise no newline" not in report.cases[1].messages


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
    assert _both(b"~~~MT SUMMARY 0/0 tests passed\n~~~MT DONE PASSED\n", _exit(0)).outcome == "no-tests"


def test_garbage_and_non_utf8_without_newlines() -> None:
    garbage = bytes(range(256)) * 40  # no newline-free run is a record
    data = garbage + b"\n" + mt(("A", True, "\xff\xfe bytes\n".encode("latin-1").decode("latin-1")))
    report = _both(data, _exit(0))
    assert report.outcome == "passed"


def test_one_megabyte_line_and_log() -> None:
    big = b"x" * (1 << 20)
    data = b"~~~MT BEGIN A\n" + big + b"\n" + big + b"~~~MT FAIL w failed at a.cc:1\n~~~MT END A FAILED\n"
    data += b"~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n"
    report = parse_log(data, _exit(1))
    assert report.outcome == "failed" and report.cases[0].outcome == "failed"


def test_end_record_for_another_case_fails() -> None:
    data = b"~~~MT BEGIN A\n~~~MT END B PASSED\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n"
    data += b"~~~MT DONE PASSED\n"
    report = _both(data, _exit(0))
    assert report.outcome == "failed" and "does not close" in report.summary


def test_crash_line_in_any_format_is_a_crash_of_the_open_case() -> None:
    data = b"~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT BEGIN B\n*** HardFault: CFSR=0x00000400 HFSR=0x40000000\n"
    report = _both(data, _exit(3, "crash"))
    assert report.outcome == "crashed" and [(c.name, c.outcome) for c in report.cases] == [
        ("A", "passed"), ("B", "crashed")]


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
