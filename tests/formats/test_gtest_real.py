"""The gtest reader on the output of real GoogleTest programs (Debian's libgtest-dev), built here.

Each program in ``gtest_programs/`` is one situation a binary can be in: all pass, a
GTEST_SKIP, EXPECT/ASSERT failures (one after the test printed a forged ``[       OK ]``
line), an exception out of a test body, a global environment whose SetUp fails, value-
parameterized and typed tests, an abort in mid-test.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness.formats.reader import BinaryReport, parse_log
from harness.runners.base import RunResult

PROGRAMS = Path(__file__).resolve().parent / "gtest_programs"
NAMES = ["pass", "skip", "fail", "exception", "env_fail", "param", "death"]


def _gtest_missing() -> str | None:
    if shutil.which("g++") is None:
        return "g++ not found; install: apt-get install g++"
    probe = subprocess.run(
        ["g++", "-std=c++17", "-x", "c++", "-E", "-", "-o", "/dev/null"],
        input="#include <gtest/gtest.h>\n",
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        return "GoogleTest headers not found; install: apt-get install libgtest-dev"
    return None


@pytest.fixture(scope="session")
def gtest_programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    reason = _gtest_missing()
    if reason is not None:
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("gtest_programs")
    built = {}
    for name in NAMES:
        exe = out / name
        cmd = ["nice", "-n", "10", "g++", "-std=c++17", "-O0", str(PROGRAMS / f"{name}.cc"), "-o", str(exe)]
        result = subprocess.run(
            [*cmd, "-lgtest_main", "-lgtest", "-pthread"], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"building {name}.cc failed:\n{result.stderr}"
        built[name] = exe
    return built


def _run(exe: Path) -> BinaryReport:
    start = time.monotonic()
    proc = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60, check=False)
    run = RunResult(
        backend="host",
        log=proc.stdout,
        exit_code=proc.returncode,
        timed_out=False,
        duration_s=time.monotonic() - start,
        end_reason="exit",
    )
    report = parse_log(proc.stdout, run)
    assert report.format == "gtest", proc.stdout.decode(errors="replace")
    return report


def _cases(report: BinaryReport) -> list[tuple[str, str]]:
    return [(c.name, c.outcome) for c in report.cases]


def test_all_pass(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["pass"])
    assert report.outcome == "passed", report.summary
    assert _cases(report) == [
        ("Arith.Adds", "passed"),
        ("Arith.Multiplies", "passed"),
        ("VectorTest.HasThree", "passed"),
        ("VectorTest.SumsToSix", "passed"),
    ]
    assert report.problems == []


def test_skip_is_a_skipped_case_of_a_passing_binary(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["skip"])
    assert report.outcome == "passed", report.summary
    assert _cases(report) == [("Kernels.Float", "passed"), ("Kernels.Int16", "skipped"), ("Kernels.Int8", "passed")]
    assert "1 skipped" in report.summary
    assert any("int16 kernel not built" in m for m in report.cases[1].messages)


def test_expect_and_assert_failures(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["fail"])
    assert report.outcome == "failed"
    assert _cases(report) == [
        ("Conv.Simple", "passed"),
        ("Conv.PerChannel", "failed"),
        ("Conv.NullInput", "failed"),
        ("Conv.Relu", "failed"),  # printed a forged "[       OK ] Conv.Relu", then failed
    ]
    per_channel = report.cases[1].messages
    assert any("Which is: 13" in m for m in per_channel)
    assert not any("never printed" in m for m in report.cases[2].messages)
    assert any("fail.cc:23: Failure" in m for m in report.cases[3].messages)
    assert report.problems == []


def test_exception_in_a_test_body(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["exception"])
    assert report.outcome == "failed"
    assert _cases(report) == [("Interp.Allocates", "passed"), ("Interp.Invokes", "failed"), ("Interp.Resets", "passed")]
    assert any("C++ exception" in m and "arena too small" in m for m in report.cases[1].messages)


def test_failing_global_environment_fails_the_binary(gtest_programs: dict[str, Path]) -> None:
    """GoogleTest 1.12 skips every test after a failed environment SetUp and exits 1."""
    report = _run(gtest_programs["env_fail"])
    assert report.outcome == "failed", report.summary
    assert _cases(report) == [("Board.Blinks", "skipped"), ("Board.Reads", "skipped")]
    assert "outside any test" in report.summary


def test_parameterized_and_typed_tests(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["param"])
    assert report.outcome == "failed"
    assert _cases(report) == [
        ("Widths/0.NonZero", "passed"),
        ("Widths/1.NonZero", "passed"),
        ("Values/Quantize.FitsInt8/0", "passed"),
        ("Values/Quantize.FitsInt8/1", "passed"),
        ("Values/Quantize.FitsInt8/2", "failed"),
    ]
    assert report.problems == []


def test_abort_in_mid_test_crashes_that_case(gtest_programs: dict[str, Path]) -> None:
    report = _run(gtest_programs["death"])
    assert report.outcome == "crashed"
    assert _cases(report) == [("Runtime.DiesOnAbort", "passed"), ("Runtime.Aborts", "crashed")]
    assert "SIGABRT" in report.summary and "Runtime.Aborts" in report.summary
    assert report.cases[1].messages == ["about to abort"]
