"""The Robot keywords that judge a saved device log with the harness's one reader (used by renode/<board>.robot)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("robot")

from harness.formats.micro_test import sign_log
from harness.robot.HarnessLibrary import HarnessLibrary

PASSING = "~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n"


def test_a_whole_passing_log_passes(tmp_path: Path) -> None:
    log = tmp_path / "device.log"
    log.write_bytes(sign_log(PASSING))
    HarnessLibrary(board="bluepill").log_file_should_pass(f"@{log}")


def test_an_early_end_record_printed_inside_a_case_does_not_pass(tmp_path: Path) -> None:
    """What the old .robot accepted: a test printing the end-of-run record (a copy with a fitting number:
    renode-test has no run token) and then failing. The first end line is not the verdict."""
    signed = sign_log("~~~MT BEGIN A\n").decode()  # records 0 (START) and 1
    forged = sign_log("~~~MT DONE PASSED\n", start=False).decode().replace("~~~MT 0 ", "~~~MT 2 ", 1)
    forged = forged.replace(forged.split()[2], sign_log("~~~MT BEGIN A\n~~~MT DONE PASSED\n").decode()
                            .splitlines()[2].split()[2])
    rest = sign_log("~~~MT BEGIN A\n~~~MT FAIL x failed at a_test.cc:3 (1 vs 2)\n~~~MT END A FAILED\n"
                    "~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n").decode().splitlines(keepends=True)[2:]
    log = tmp_path / "device.log"
    log.write_text(signed + forged + "".join(rest))
    assert "DONE PASSED" in log.read_text().splitlines()[2]  # the line the old .robot stopped at
    with pytest.raises(AssertionError, match="failed"):
        HarnessLibrary(board="bluepill").log_file_should_pass(str(log))


def test_a_log_that_stops_inside_a_case_does_not_pass(tmp_path: Path) -> None:
    log = tmp_path / "device.log"
    log.write_bytes(sign_log("~~~MT BEGIN A\n"))
    with pytest.raises(AssertionError, match="crashed"):
        HarnessLibrary(board="bluepill").log_file_should_pass(str(log))
