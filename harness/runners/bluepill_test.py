"""QEMU runner + log parser + crash decoding on the real bluepill board port.

Builds the harness fixture programs (tests/fixtures/micro/pytester_*.cc) with the
board's own startup, fault handler and DebugLog, and runs them in QEMU.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError, load_board
from harness.formats.reader import parse_log
from harness.runners import get_runner

pytestmark = pytest.mark.emulator
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "micro"


@pytest.fixture(scope="module")
def bluepill() -> Board:
    try:
        board = load_board("bluepill")
    except BoardError as error:
        pytest.skip(str(error))
    reason = get_runner("qemu").unavailable_reason(board)
    if reason is not None:
        pytest.skip(reason)
    if shutil.which("arm-none-eabi-g++") is None:
        pytest.skip("arm-none-eabi-g++ not found; install it: apt-get install gcc-arm-none-eabi")
    return board


@pytest.fixture(scope="module")
def programs(bluepill: Board) -> dict[str, Path]:
    from harness.build.driver import build_program

    built = {}
    for name in ("pass", "fail", "crash", "hang"):
        result = build_program(bluepill, FIXTURES / f"pytester_{name}.cc", f"runners_fx_{name}_test", progress=None)
        assert result.error is None and result.elf is not None, result.error
        built[name] = result.elf
    return built


def _run(elf: Path, board: Board, timeout_s: float = 30.0):  # type: ignore[no-untyped-def]
    stamps: list[tuple[float, str]] = []
    run = get_runner("qemu").run(elf, board, timeout_s, on_line=lambda s: stamps.append((time.monotonic(), s)))
    return run, stamps, time.monotonic()


def test_pass(programs: dict[str, Path], bluepill: Board) -> None:
    run, _, _ = _run(programs["pass"], bluepill)
    report = parse_log(run.log, run, programs["pass"], bluepill)
    assert (run.exit_code, report.outcome, report.format) == (0, "passed", "micro_test"), report.summary
    assert report.cases and all(c.outcome == "passed" for c in report.cases)


def test_fail(programs: dict[str, Path], bluepill: Board) -> None:
    run, _, _ = _run(programs["fail"], bluepill)
    report = parse_log(run.log, run, programs["fail"], bluepill)
    assert (run.exit_code, report.outcome) == (1, "failed"), report.summary
    failed = [c for c in report.cases if c.outcome == "failed"]
    assert failed and all(any("failed at" in m for m in c.messages) for c in failed)


def test_crash_decoded_and_detected_fast(programs: dict[str, Path], bluepill: Board) -> None:
    elf = programs["crash"]
    run, stamps, end = _run(elf, bluepill)
    fault_at = next(t for t, line in stamps if line.startswith("*** HardFault:"))
    assert end - fault_at < 1.0
    report = parse_log(run.log, run, elf, bluepill)
    assert report.outcome == "crashed", report.summary
    assert [(c.name, c.outcome) for c in report.cases] == [("RunsFirst", "passed"), ("CrashesHere", "crashed")]
    crash = report.crash
    assert crash is not None and "UNDEFINSTR" in crash.fault_names
    pc = crash.frames[0]
    trap_line = next(
        i
        for i, text in enumerate((FIXTURES / "pytester_crash.cc").read_text().splitlines(), 1)
        if "__builtin_trap" in text
    )
    assert pc.function is not None and pc.function.startswith("HarnessFixtureCrashHere")
    assert pc.location is not None and pc.location.endswith(f"pytester_crash.cc:{trap_line}")
    assert "HarnessFixtureCrashHere" in crash.render()


def test_hang_times_out_in_the_right_case(programs: dict[str, Path], bluepill: Board) -> None:
    start = time.monotonic()
    run, _, end = _run(programs["hang"], bluepill, timeout_s=1.5)
    assert run.timed_out and 1.5 <= end - start < 3.0
    report = parse_log(run.log, run)
    assert report.outcome == "timeout"
    assert [(c.name, c.outcome) for c in report.cases] == [("Quick", "passed"), ("SpinsForever", "timeout")]
