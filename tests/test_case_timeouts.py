"""Per-case time limits: the ``// harness: timeout=S`` comment, the board's ``[run] case_timeout_s``,
the run loop that enforces them, and a verdict that never passes a case that ran past its limit.

The plugin-level check (case1 PASSED, the hanging case FAILED naming its limit, the next ERROR, in a
few seconds, on host and bluepill) is ``case_timeout_test`` of the fault matrix (tests/fault_matrix).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest
from harness_helpers import mcu_unavailable, plugin_args

from harness import REPO_ROOT
from harness.board.boards import Board, load_board
from harness.formats.case_limits import CaseLimitError, board_case_timeout, case_limits, source_case_timeouts
from harness.formats.micro_test import sign_parts
from harness.formats.micro_test import source_cases as scan_cases
from harness.formats.reader import parse_log
from harness.runners import get_runner
from harness.runners.base import RunResult
from harness.runners.control import CaseLimits, CaseTimeout, RunControl
from harness.runners.stream import DeviceStream

MATRIX_FW = REPO_ROOT / "tests" / "fault_matrix" / "fw"


# -- the comment ---------------------------------------------------------------------------------
def test_comment_above_the_case_or_at_the_end_of_its_line() -> None:
    source = (
        "TF_LITE_MICRO_TESTS_BEGIN\n"
        "TF_LITE_MICRO_TEST(Plain) {}\n"
        "// harness: timeout=5\n"
        "TF_LITE_MICRO_TEST(Above) {}\n"
        "TF_LITE_MICRO_TEST(Trailing) {  // harness:timeout=0.25s\n"
        "}\n"
        "  //   harness:  timeout = 7\n"
        "  TF_LITE_MICRO_TEST(Indented) {}\n"
    )
    found = source_case_timeouts(source, Path("x_test.cc"))
    assert found == {
        "Above": (5.0, "// harness: timeout=5 at x_test.cc:3"),
        "Trailing": (0.25, "// harness: timeout=0.25s at x_test.cc:5"),
        "Indented": (7.0, "// harness: timeout=7 at x_test.cc:7"),
    }


@pytest.mark.parametrize(("source", "words"), [
    ("// harness: timeout=5\n\nTF_LITE_MICRO_TEST(A) {}\n", "not beside a TF_LITE_MICRO_TEST"),
    ("int x;  // harness: timeout=5\nTF_LITE_MICRO_TEST(A) {}\n", "not beside"),
    ("// harness: timeout=5\n// TF_LITE_MICRO_TEST(Commented) {}\n", "not beside"),
    ("// harness: timeuot=5\nTF_LITE_MICRO_TEST(A) {}\n", "unknown harness setting 'timeuot=5'"),
    ("// harness: timeout=abc\nTF_LITE_MICRO_TEST(A) {}\n", "timeout=abc is not a number of seconds > 0"),
    ("// harness: timeout=0\nTF_LITE_MICRO_TEST(A) {}\n", "timeout=0 is not a number"),
    ("// harness: timeout=-1\nTF_LITE_MICRO_TEST(A) {}\n", "not a number"),
    ("// harness: timeout=1\nTF_LITE_MICRO_TEST(A) {  // harness: timeout=2\n", "already has a timeout"),
    ("// harness: max_instructions=1.5\nTF_LITE_MICRO_TEST(A) {}\n", "max_instructions=1.5 is not a whole number"),
    ("// harness: timeout=1, max_instr=9\nTF_LITE_MICRO_TEST(A) {}\n", "unknown harness setting 'max_instr=9'"),
])
def test_a_malformed_comment_is_an_error_naming_the_line(source: str, words: str) -> None:
    with pytest.raises(CaseLimitError, match=words) as error:
        source_case_timeouts(source, Path("y_test.cc"))
    assert "y_test.cc:1" in str(error.value)


def test_cases_found_like_the_plugin_finds_them() -> None:
    """The limits are keyed by the names the plugin's items have: comments hide cases from both alike."""
    source = ("/* TF_LITE_MICRO_TEST(Hidden) { */\n"
              "// harness: timeout=2\n"
              "TF_LITE_MICRO_TEST(Slow) {}\n"
              "// TF_LITE_MICRO_TEST(Commented) {}\n"
              "  TF_LITE_MICRO_TEST( Fast ) {}  // harness: timeout=0.5\n")
    assert scan_cases(source) == ["Slow", "Fast"]
    limits = source_case_timeouts(source, Path("x_test.cc"))
    assert list(limits) == ["Slow", "Fast"] and limits["Fast"][0] == 0.5


# -- the board default -----------------------------------------------------------------------------
def _with_run(board: Board, **run: object) -> Board:
    raw = dict(board.raw)
    raw["run"] = {**board.section("run"), **run}
    return dataclasses.replace(board, raw=raw)


def test_board_default_and_the_comment_wins() -> None:
    board = _with_run(load_board("host"), case_timeout_s=3)
    limits = case_limits(MATRIX_FW / "case_timeout_test.cc", board)
    assert limits.limit_for("Hangs") == (2.0, "// harness: timeout=2 at case_timeout_test.cc:14")
    assert limits.limit_for("Third") == (3.0, "[run] case_timeout_s = 3 in boards/host/board.toml")


@pytest.mark.parametrize("value", [0, -2, "5", True])
def test_a_bad_board_default_is_an_error(value: object) -> None:
    with pytest.raises(CaseLimitError, match=r"boards/host/board.toml: \[run\] case_timeout_s must be a number"):
        board_case_timeout(_with_run(load_board("host"), case_timeout_s=value))


# -- the run loop ----------------------------------------------------------------------------------
def _feed(stream: DeviceStream, chunks: list[tuple[float, bytes]]) -> None:
    def run() -> None:
        for delay, data in chunks:
            time.sleep(delay)
            stream.put(data)

    threading.Thread(target=run, daemon=True).start()


def _run_stream(chunks: list[tuple[float, bytes]], limits: CaseLimits, deadline_s: float = 20.0,
                exit_status: bool = False) -> tuple[RunResult, RunControl, float]:
    control = RunControl(case_limits=limits)
    with control.active():
        stream = DeviceStream(exit_status=exit_status)
    start = time.monotonic()  # before the producer starts: its sleeps are then all inside `took`
    _feed(stream, chunks)
    end = stream.finish(stream.follow(start + deadline_s))
    took = time.monotonic() - start
    run = RunResult("serial", end.log, end.exit_code, end.timed_out, end.duration_s, end.end_reason,
                    case_timeout=control.case_timeout, notes=end.notes)
    return run, control, took


def signed(*parts: str) -> list[bytes]:
    """The parts of one micro_test run's log as the framework prints them (key 0: no run token here)."""
    return sign_parts(*parts)


# First passes, Hangs begins (and, where a test says so, ends after all with the run).
FIRST, HANGS_BEGINS, HANGS_ENDS = signed("~~~MT BEGIN First\n~~~MT END First PASSED\n", "~~~MT BEGIN Hangs\n",
                                         "~~~MT END Hangs PASSED\n~~~MT SUMMARY 2/2 tests passed\n~~~MT DONE PASSED\n")
CASES = FIRST + HANGS_BEGINS
LIMIT = CaseLimits(per_case={"Hangs": (0.6, "// harness: timeout=0.6 at t_test.cc:9")})


def test_a_case_past_its_limit_ends_the_run_as_its_timeout() -> None:
    run, control, took = _run_stream([(0.0, CASES)], LIMIT)
    assert 0.6 <= took < 1.6  # the binary's deadline is 20 s
    assert run.timed_out and run.end_reason == "timeout"
    assert control.case_timeout == CaseTimeout("Hangs", 0.6, "// harness: timeout=0.6 at t_test.cc:9")
    report = parse_log(run.log, run, expected=["First", "Hangs", "Third"])
    assert report.outcome == "timeout"
    assert report.summary.startswith("Hangs ran longer than its case timeout of 0.6 s "
                                     "(// harness: timeout=0.6 at t_test.cc:9)")
    assert [(c.name, c.outcome) for c in report.cases] == [("First", "passed"), ("Hangs", "timeout")]
    assert "[harness] Hangs ran longer than its case timeout" in run.annotated_log.decode()
    assert b"[harness]" not in run.log


def test_the_limit_counts_from_the_case_start_not_the_run_start() -> None:
    """A slow start and a quick first case do not eat into the next case's limit."""
    begin, end, hangs = signed("~~~MT BEGIN First\n", "~~~MT END First PASSED\n", "~~~MT BEGIN Hangs\n")
    run, control, took = _run_stream([(0.5, begin), (0.0, end), (0.4, hangs)], LIMIT)
    assert control.case_timeout is not None and 0.9 + 0.6 <= took < 2.6


def test_cases_within_their_limits_pass() -> None:
    parts = signed("~~~MT BEGIN First\n", "~~~MT END First PASSED\n~~~MT BEGIN Hangs\n",
                   "~~~MT END Hangs PASSED\n~~~MT SUMMARY 2/2 tests passed\n~~~MT DONE PASSED\n")
    slow = list(zip((0.0, 0.4, 0.4), parts, strict=True))
    limits = CaseLimits(per_case={"Hangs": (0.6, "comment")}, default_s=0.6, default_source="board")
    run, control, _ = _run_stream(slow, limits)
    assert control.case_timeout is None and not run.timed_out
    assert parse_log(run.log, run).outcome == "passed"


def test_the_board_default_applies_to_every_other_case() -> None:
    limits = CaseLimits(default_s=0.5, default_source="[run] case_timeout_s = 0.5 in boards/x/board.toml")
    run, control, took = _run_stream([(0.0, signed("~~~MT BEGIN Anything\n")[0])], limits)
    assert control.case_timeout is not None and control.case_timeout.case == "Anything" and took < 1.5
    assert "[run] case_timeout_s = 0.5" in parse_log(run.log, run).summary


def test_no_limits_leave_the_whole_binary_deadline() -> None:
    run, control, took = _run_stream([(0.0, CASES)], CaseLimits(), deadline_s=1.0)
    assert control.case_timeout is None and run.timed_out and 1.0 <= took < 2.0
    assert parse_log(run.log, run).summary.startswith("timed out after")


def test_a_case_timeout_is_never_a_pass_even_if_the_end_came_with_the_stop() -> None:
    """The end lines of the hanging case (even the whole end of the run) arriving as the run is being
    stopped do not make it pass: it took its whole limit."""
    log = CASES + HANGS_ENDS
    run = RunResult("host", log, 0, True, 0.7, "timeout", case_timeout=CaseTimeout("Hangs", 0.6, "comment"))
    report = parse_log(run.log, run)
    assert report.outcome == "timeout"
    assert {c.name: c.outcome for c in report.cases} == {"First": "passed", "Hangs": "timeout"}


def test_a_crash_is_still_a_crash_when_the_limit_passes_in_its_grace() -> None:
    crash = b"*** HardFault: CFSR=0x00008200 HFSR=0x40000000 PC=0x08000100 LR=0x08000101\n"
    run, _, _ = _run_stream([(0.0, CASES), (0.55, crash)], LIMIT)
    assert parse_log(run.log, run).outcome == "crashed"


# -- through a real runner: the board default end to end ----------------------------------------------
@pytest.mark.parametrize("board_name", ["host", "bluepill"])
def test_board_default_stops_a_hanging_case_on_a_real_backend(board_name: str) -> None:
    if board_name != "host" and mcu_unavailable() is not None:
        pytest.skip(str(mcu_unavailable()))
    from harness.build.driver import build_program

    board = _with_run(load_board(board_name), case_timeout_s=1.5)
    built = build_program(board, MATRIX_FW / "hang_test.cc", "harness_fx_hang", progress=None)
    assert built.elf is not None, built.error
    control = RunControl(case_limits=case_limits(MATRIX_FW / "hang_test.cc", board))
    runner = get_runner("host" if board.is_host else "qemu")
    start = time.monotonic()
    with control.active():
        run = runner.run(built.elf, board, 60.0)
    assert time.monotonic() - start < 8
    run.case_timeout = control.case_timeout
    report = parse_log(run.log, run, built.elf, board, expected=["Before", "Hangs", "After"])
    assert report.outcome == "timeout"
    assert report.summary.startswith(f"Hangs ran longer than its case timeout of 1.5 s ([run] case_timeout_s = "
                                     f"1.5 in boards/{board_name}/board.toml)")
    assert {c.name: c.outcome for c in report.cases} == {"Before": "passed", "Hangs": "timeout"}


def test_a_bad_comment_does_not_collect(pytester: pytest.Pytester) -> None:
    pytester.path.joinpath("bad_test.cc").write_text(
        '#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\n// harness: timeout=soon\n'
        "TF_LITE_MICRO_TEST(A) {}\nTF_LITE_MICRO_TESTS_END\n")
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", "-p", "no:cacheprovider",
                                           "--board=host", timeout=120)
    output = result.stdout.str()
    assert result.ret != 0
    assert "ERROR collecting bad_test.cc" in output
    assert "bad_test.cc:3: timeout=soon is not a number of seconds > 0" in output


def test_harness_run_applies_the_case_limits() -> None:
    from harness_helpers import run_cli

    start = time.monotonic()
    done = run_cli("run", str(MATRIX_FW / "case_timeout_test.cc"), "--board", "host", "-q", "--timeout", "30")
    assert done.returncode == 3, done.stdout + done.stderr  # timeout
    assert time.monotonic() - start < 25
    assert ("TIMEOUT: case_timeout_test on host" in done.stdout
            and "Hangs ran longer than its case timeout of 2 s (// harness: timeout=2 at case_timeout_test.cc:14)"
            in done.stdout), done.stdout


def test_harness_run_refuses_a_bad_comment(tmp_path: Path) -> None:
    from harness_helpers import run_cli

    source = tmp_path / "bad_comment_test.cc"
    source.write_text('#include "micro_runtime/micro_test.h"\nTF_LITE_MICRO_TESTS_BEGIN\n'
                      "TF_LITE_MICRO_TEST(A) {}  // harness: timeout=5m\nTF_LITE_MICRO_TESTS_END\n")
    done = run_cli("run", str(source), "--board", "host", "-q")
    assert done.returncode == 5, done.stdout + done.stderr
    assert "bad_comment_test.cc:3: timeout=5m is not a number of seconds > 0" in done.stderr


def test_load_board_rejects_a_bad_board_default() -> None:
    from harness.board.boards import BoardError, _check

    board = _with_run(load_board("bluepill"), case_timeout_s="10")
    with pytest.raises(BoardError, match=r"boards/bluepill/board.toml: \[run\] case_timeout_s must be a number"):
        _check(board, board.path / "board.toml")
    _check(_with_run(load_board("bluepill"), case_timeout_s=10), board.path / "board.toml")


def test_a_case_can_have_a_timeout_and_an_instruction_budget() -> None:
    from harness.formats.case_limits import source_case_settings

    source = ("TF_LITE_MICRO_TESTS_BEGIN\n// harness: timeout=5, max_instructions=250000\nTF_LITE_MICRO_TEST(Both) {}\n"
              "TF_LITE_MICRO_TEST(Budget) {  // harness: max_instructions=10\n}\n")
    found = source_case_settings(source, Path("z_test.cc"))
    assert found == {"Both": {"timeout": (5.0, "// harness: timeout=5 at z_test.cc:2"),
                              "max_instructions": (250000.0, "// harness: max_instructions=250000 at z_test.cc:2")},
                     "Budget": {"max_instructions": (10.0, "// harness: max_instructions=10 at z_test.cc:4")}}
    assert source_case_timeouts(source, Path("z_test.cc")) == {"Both": (5.0, "// harness: timeout=5 at z_test.cc:2")}
