"""The ztest reader on recorded logs of every outcome, whole and fed in random chunk sizes."""

from __future__ import annotations

import pytest

from harness.formats.reader import parse_log
from harness.formats.ztest import ZtestReader
from harness.testing.recorded_logs import LOGS, Expectation, check_recorded
from harness.testing.recorded_logs import run_result as _run

LINE = b"=" * 67 + b"\n"


# log -> (run, binary outcome, [(case, outcome)], words the summary contains)
CASES: dict[str, Expectation] = {
    "ztest_pass.log": (
        _run(0, end="end-marker", backend="serial"),
        "passed",
        [("kernels_add.test_add_simple", "passed"), ("kernels_add.test_add_broadcast", "passed")],
        ["2/2"],
    ),
    "ztest_fail.log": (
        _run(0, end="end-marker", backend="serial"),
        "failed",
        [
            ("kernels_conv.test_conv_simple", "passed"),
            ("kernels_conv.test_conv_per_channel", "failed"),
            ("kernels_relu.test_relu", "passed"),
        ],
        ["1 of 3", "kernels_conv.test_conv_per_channel"],
    ),
    "ztest_skip.log": (
        _run(0, end="end-marker", backend="serial"),
        "passed",
        [("kernels_softmax.test_softmax_float", "passed"), ("kernels_softmax.test_softmax_int16", "skipped")],
        ["1/2", "1 skipped"],
    ),
    "ztest_truncated.log": (
        None,
        "crashed",
        [("kernels_add.test_add_simple", "passed"), ("kernels_add.test_add_broadcast", "crashed")],
        ["kernels_add.test_add_broadcast", "before the end"],
    ),
    "ztest_crash.log": (
        _run(None, timed_out=True, end="timeout"),
        "timeout",
        [("interpreter.test_allocates_tensors", "passed"), ("interpreter.test_invoke", "timeout")],
        ["interpreter.test_invoke"],
    ),
    # A test printing its suite's end, a summary and the end of the run inside its open case.
    "ztest_forged_end.log": (
        _run(0, end="end-marker", backend="serial"),
        "crashed",
        [("kernels_add.test_add_simple", "passed"), ("kernels_add.test_add_broadcast", "crashed")],
        ["kernels_add.test_add_broadcast"],
    ),
    # The end of the run printed inside a suite (by its setup/teardown code), then silence.
    "ztest_forged_in_suite.log": (
        _run(0, end="end-marker", backend="serial"),
        "crashed",
        [("kernels_add.test_add_simple", "passed")],
        ["inside test suite kernels_add"],
    ),
    "ztest_inconsistent.log": (
        _run(0),
        "failed",
        [("kernels_add.test_add_simple", "passed"), ("kernels_add.test_add_broadcast", "skipped")],
        ["inconsistent"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_log(name: str) -> None:
    check_recorded(name, "ztest", CASES[name])


def test_assertion_is_a_message_of_its_case_and_the_duration_is_ztests() -> None:
    report = parse_log((LOGS / "ztest_fail.log").read_bytes(), _run(0))
    case = report.cases[1]
    assert any("Assertion failed at" in m for m in case.messages)
    assert case.duration_s == pytest.approx(0.004)


def test_project_successful_with_a_failed_suite_fails() -> None:
    data = (LOGS / "ztest_fail.log").read_bytes().replace(b"PROJECT EXECUTION FAILED", b"PROJECT EXECUTION SUCCESSFUL")
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"


def test_project_failed_with_all_tests_passed_fails() -> None:
    """E.g. CONFIG_ZTEST_VERIFY_RUN_ALL found a suite that did not run."""
    data = (LOGS / "ztest_pass.log").read_bytes().replace(b"SUCCESSFUL", b"FAILED")
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"
    assert "reports failure" in report.summary


def test_end_without_summary_is_a_problem() -> None:
    data = (
        b"Running TESTSUITE s\n"
        + LINE
        + b"START - test_a\n PASS - test_a in 0.001 seconds\n"
        + LINE
        + b"TESTSUITE s succeeded\n"
        + LINE
        + b"PROJECT EXECUTION SUCCESSFUL\n"
    )
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"
    assert "SUMMARY" in report.summary


def test_summary_verbose_line_disagreeing_with_the_run() -> None:
    data = (
        (LOGS / "ztest_pass.log")
        .read_bytes()
        .replace(b" - PASS - [kernels_add.test_add_broadcast]", b" - FAIL - [kernels_add.test_add_broadcast]")
    )
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"


def test_suite_end_disagreeing_with_its_cases() -> None:
    data = (
        (LOGS / "ztest_fail.log")
        .read_bytes()
        .replace(b"TESTSUITE kernels_conv failed.", b"TESTSUITE kernels_conv succeeded")
    )
    report = parse_log(data, _run(0))
    assert any("succeeded although" in p for p in report.problems)


def test_assertion_outside_a_test_fails_the_run() -> None:
    data = (
        (LOGS / "ztest_pass.log")
        .read_bytes()
        .replace(
            b"TESTSUITE kernels_add succeeded\n",
            b"TESTSUITE kernels_add succeeded\n ERROR: cannot fail in test phase 'teardown()', bailing\n",
        )
    )
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"
    assert "outside any test" in report.summary


def test_output_after_the_end_is_a_problem() -> None:
    data = (LOGS / "ztest_pass.log").read_bytes() + b"START - test_late\n"
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"
    assert "after the end" in report.summary


def test_repeated_and_parameterized_cases_count_once_in_the_summary() -> None:
    data = (
        b"Running TESTSUITE p\n"
        + LINE
        + b"START - test_v[ints/0]\n PASS - test_v[ints/0] in 0.000 seconds\n"
        + LINE
        + b"START - test_v[ints/1]\n PASS - test_v[ints/1] in 0.000 seconds\n"
        + LINE
        + b"TESTSUITE p succeeded\n\n------ TESTSUITE SUMMARY START ------\n\n"
        + b"SUITE PASS - 100.00% [p]: pass = 1, fail = 0, skip = 0, total = 1 duration = 0.000 seconds\n"
        + b" - PASS - [p.test_v] duration = 0.000 seconds\n\n------ TESTSUITE SUMMARY END ------\n\n"
        + LINE
        + b"PROJECT EXECUTION SUCCESSFUL\n"
    )
    report = parse_log(data, _run(0))
    assert report.outcome == "passed", report.summary
    assert [c.name for c in report.cases] == ["p.test_v[ints/0]", "p.test_v[ints/1]"]


def test_unittest_build_suite_crash() -> None:
    data = (
        b"Running TESTSUITE s\n"
        + LINE
        + b"START - test_a\n ERROR: cannot fail in test phase 'after()', bailing\n"
        + b"TESTSUITE crashed.\n\n------ TESTSUITE SUMMARY START ------\n\n"
        + b"SUITE FAIL -   0.00% [s]: pass = 0, fail = 1, skip = 0, total = 1 duration = 0.000 seconds\n"
        + b"\n------ TESTSUITE SUMMARY END ------\n\n"
        + LINE
        + b"PROJECT EXECUTION FAILED\n"
    )
    report = parse_log(data, _run(1, backend="host"))
    assert report.outcome == "failed"
    assert [(c.name, c.outcome) for c in report.cases] == [("s.test_a", "failed")]


@pytest.mark.parametrize(
    "line, detected",
    [
        ("Running TESTSUITE kernels_add", True),
        ("------ TESTSUITE SUMMARY START ------", True),
        ("START - test_a", False),
        ("PROJECT EXECUTION SUCCESSFUL", False),
        ("Running test suite legacy", False),
    ],
)
def test_detects(line: str, detected: bool) -> None:
    assert ZtestReader.detects(line) is detected
