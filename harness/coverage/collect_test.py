"""A binary without coverage is reported with why, never dropped: not built (with the fix when it does not fit),
crashed before its exit dump, a stream cut short; the host's GCOV_PREFIX is set for its run only."""

from __future__ import annotations

import os
from pathlib import Path

from harness.board.boards import load_board
from harness.coverage.collect import CoverageRun, load_results, stream_path, summary_lines
from harness.coverage.stream import encode
from harness.outcome import Outcome
from harness.session import RunReport


def _report(board: str, outcome: Outcome, summary: str, elf: Path | None = None, log: bytes = b"") -> RunReport:
    return RunReport(board=load_board(board), backend="qemu", outcome=outcome, summary=summary, elf=elf, log=log)


def test_a_binary_that_does_not_fit_names_the_boards_with_room(tmp_path: Path) -> None:
    run = CoverageRun(tmp_path)
    found = run.collect(load_board("bluepill"), "abs_test", _report(
        "bluepill", Outcome.BUILD_ERROR, "abs_test needs 22,704 B RAM but bluepill has 20,480 B; try --board=x"))
    assert not found.ok and found.reason.startswith("not run (build-error): abs_test needs 22,704 B RAM")
    assert "measure coverage on a board with room (--board=netduinoplus2, --board=mps2_an505" in found.reason
    assert load_results(tmp_path) == [found]


def test_a_crash_before_the_dump_and_a_stream_cut_short_are_missing(tmp_path: Path) -> None:
    run = CoverageRun(tmp_path / "cov")
    board = load_board("netduinoplus2")
    elf = tmp_path / "crashes_test"
    elf.write_bytes(b"")
    with run.running(board, "crashes_test", elf):
        pass
    crashed = run.collect(board, "crashes_test", _report("netduinoplus2", Outcome.CRASHED, "crashed in test X", elf))
    assert not crashed.ok and "before the binary's exit wrote it: crashed in test X" in crashed.reason
    stream_path(elf).write_bytes(encode({"/o/a.gcda": b"x"}, end=False))
    cut = run.collect(board, "cut_test", _report("netduinoplus2", Outcome.TIMEOUT, "timed out", elf))
    assert not cut.ok and cut.via == "semihosting" and "incomplete coverage data" in cut.reason
    assert not stream_path(elf).exists()  # read once: a later run cannot pass it off as its own
    lines = summary_lines(run.folder, load_results(run.folder), [])
    assert lines[0] == f"coverage: 0 of 2 binaries with coverage, per binary in {run.folder}/<board>/<binary>/"
    assert any(line.startswith("coverage MISSING for crashes_test on netduinoplus2: ") for line in lines)


def test_the_hosts_gcov_prefix_is_set_for_its_run_only(tmp_path: Path) -> None:
    run = CoverageRun(tmp_path)
    before = os.environ.get("GCOV_PREFIX")
    with run.running(load_board("host"), "abs_test", None):
        assert os.environ["GCOV_PREFIX"] == str(tmp_path / "host" / "abs_test" / "gcda")
        assert os.environ["GCOV_PREFIX_STRIP"] == "0"
    assert os.environ.get("GCOV_PREFIX") == before
