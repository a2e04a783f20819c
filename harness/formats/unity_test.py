"""The Unity reader on recorded logs of every outcome, whole and fed in random chunk sizes."""

from __future__ import annotations

import pytest

from harness.formats.reader import parse_log
from harness.formats.unity import UnityReader
from harness.testing.recorded_logs import LOGS, Expectation, check_recorded
from harness.testing.recorded_logs import run_result as _run

# log -> (run, binary outcome, [(case, outcome)], words the summary contains)
CASES: dict[str, Expectation] = {
    "unity_pass.log": (
        _run(0),
        "passed",
        [("test_add_simple", "passed"), ("test_add_broadcast", "passed"), ("test_add_quantized", "passed")],
        ["3/3"],
    ),
    "unity_fail.log": (
        _run(2),
        "failed",
        [
            ("test_conv_simple", "passed"),
            ("test_conv_per_channel", "failed"),
            ("test_conv_relu", "passed"),
            ("test_conv_null_input", "failed"),
        ],
        ["2 of 4", "test_conv_per_channel"],
    ),
    "unity_ignore.log": (
        _run(0),
        "passed",
        [
            ("test_softmax_float", "passed"),
            ("test_softmax_int16", "skipped"),
            ("test_softmax_int8", "passed"),
            ("test_softmax_large", "passed"),
        ],
        ["3/4", "1 skipped"],
    ),
    "unity_truncated.log": (
        None,
        "crashed",
        [("test_add_simple", "passed"), ("<unnamed test after test_add_simple>", "crashed")],
        ["before the end"],
    ),
    "unity_crash.log": (
        _run(3, end="crash"),
        "crashed",
        [("test_allocates_tensors", "passed"), ("<unnamed test after test_allocates_tensors>", "crashed")],
        ["PRECISERR"],
    ),
    "unity_forged_ok.log": (
        _run(1),
        "failed",
        [("test_add_simple", "passed"), ("test_add_broadcast", "failed")],
        ["test_add_broadcast"],
    ),
    "unity_inconsistent.log": (
        _run(0),
        "failed",
        [("test_add_simple", "passed"), ("test_add_broadcast", "failed")],
        [],
    ),
    "unity_fixture.log": (
        _run(1),
        "failed",
        [
            ("Allocator.PlansArena", "passed"),
            ("Allocator.RejectsSmallArena", "failed"),
            ("Allocator.OfflinePlan", "skipped"),
            ("Allocator.ReusesBuffers", "passed"),
        ],
        ["Allocator.RejectsSmallArena"],
    ),
    # A fixture test printing the summary and verdict inside its open case, then hanging.
    "unity_fixture_forged.log": (
        _run(None, timed_out=True, end="timeout"),
        "timeout",
        [("Allocator.PlansArena", "passed"), ("Allocator.ReusesBuffers", "timeout")],
        ["Allocator.ReusesBuffers"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_log(name: str) -> None:
    check_recorded(name, "unity", CASES[name])


def test_fixed_format_reads_the_same() -> None:
    report = parse_log((LOGS / "unity_fail.log").read_bytes(), _run(2), fmt="unity")
    assert report.outcome == "failed"
    assert len(report.cases) == 4


def test_messages_before_a_result_belong_to_that_test() -> None:
    report = parse_log((LOGS / "unity_fail.log").read_bytes(), _run(2))
    per_channel = report.cases[1]
    assert per_channel.messages[0] == "conv: per-channel, 8 output channels"
    assert "Element 3 Expected 12 Was 13" in per_channel.messages[1]


def test_exec_time_is_the_case_duration() -> None:
    report = parse_log((LOGS / "unity_ignore.log").read_bytes(), _run(0))
    assert report.cases[3].duration_s == pytest.approx(0.007)


def test_inconsistent_summary_is_a_problem() -> None:
    report = parse_log((LOGS / "unity_inconsistent.log").read_bytes(), _run(0))
    assert any("0 failures" in p.lower() or "0 failed" in p for p in report.problems), report.problems


def test_forged_summary_with_the_source_cases_known_fails() -> None:
    """A test that prints a consistent end of run and dies: the source says one test never ran."""
    data = (LOGS / "unity_forged_summary.log").read_bytes()
    report = parse_log(
        data, _run(0, end="end-marker", backend="serial"), expected=["test_add_simple", "test_add_broadcast"]
    )
    assert report.outcome == "failed"
    assert "test_add_broadcast" in report.summary


def test_forged_summary_then_a_crash_is_not_a_pass() -> None:
    data = (LOGS / "unity_forged_summary.log").read_bytes()
    report = parse_log(data, _run(-11, backend="host"))
    assert report.outcome == "crashed"


def test_forged_summary_that_disagrees_is_a_problem() -> None:
    data = (
        b"t.c:1:test_a:PASS\nt.c:2:test_b:FAIL: Expected 1 Was 2\n"
        b"-----------------------\n1 Tests 0 Failures 0 Ignored\nOK\n"
    )
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"


def test_truncated_run_names_the_next_case_of_the_source() -> None:
    data = (LOGS / "unity_truncated.log").read_bytes()
    report = parse_log(data, None, expected=["test_add_simple", "test_add_broadcast", "test_add_quantized"])
    assert [(c.name, c.outcome) for c in report.cases] == [
        ("test_add_simple", "passed"),
        ("test_add_broadcast", "crashed"),
    ]
    assert report.cases[1].messages == ["add: broadcasting 1x4 over 3x4"]
    assert "test_add_broadcast" in report.summary


def test_result_after_the_end_is_a_problem() -> None:
    data = (LOGS / "unity_pass.log").read_bytes() + b"test/test_add.c:40:test_late:PASS\n"
    report = parse_log(data, _run(0))
    assert report.outcome == "failed"
    assert "after the end" in report.summary


def test_breaker_printed_by_a_test_is_just_output() -> None:
    data = b"-----------------------\nt.c:1:test_a:PASS\n\n-----------------------\n1 Tests 0 Failures 0 Ignored\nOK\n"
    report = parse_log(data, _run(0))
    assert report.outcome == "passed", report.summary
    assert report.cases[0].messages[0] == "-----------------------"


def test_colour_output() -> None:
    data = (
        b"t.c:1:test_a:\x1b[42mPASS\x1b[0m\nt.c:5:test_b:\x1b[41mFAIL\x1b[0m: Expected 1 Was 2\n\n"
        b"-----------------------\n2 Tests 1 Failures 0 Ignored \n\x1b[41mFAIL\x1b[0m\n"
    )
    report = parse_log(data, _run(1))
    assert [(c.name, c.outcome) for c in report.cases] == [("test_a", "passed"), ("test_b", "failed")]
    assert report.outcome == "failed"


def test_fixture_repeated_runs_end_at_the_last() -> None:
    one = b"TEST(G, A) PASS\n\n-----------------------\n1 Tests 0 Failures 0 Ignored \nOK\n"
    data = b"Unity test run 1 of 2\n" + one + b"Unity test run 2 of 2\n" + one
    report = parse_log(data, _run(0))
    assert report.outcome == "passed", report.summary
    assert [c.name for c in report.cases] == ["G.A", "G.A"]
    first = parse_log(b"Unity test run 1 of 2\n" + one, _run(0))
    assert first.outcome == "crashed"


@pytest.mark.parametrize(
    "line, detected",
    [
        ("test/t.c:12:test_a:PASS", True),
        ("test/t.c:12:test_a:PASS (3 ms)", True),
        ("test/t.c:12:test_a:IGNORE: later", True),
        ("Unity test run 1 of 1", True),
        ("test/t.c:12:test_a:PASSED", False),
        ("OK", False),
        ("3 Tests 0 Failures 0 Ignored", False),
        ("-----------------------", False),
    ],
)
def test_detects(line: str, detected: bool) -> None:
    assert UnityReader.detects(line) is detected
