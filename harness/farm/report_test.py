"""The report's status: never green for a night that did not finish."""

from __future__ import annotations

import time
from pathlib import Path

from harness.farm.history import CaseRecord, History, RunInfo
from harness.farm.report import render


def _night(history: History, run_id: str, exitstatus: int | None) -> None:
    history.begin_run(RunInfo(run_id=run_id, night="2026-03-01", started_at=time.time(), commit_sha="c" * 40,
                              host="h", label=""))
    history.add_results([CaseRecord(run_id=run_id, case_id="a_test.cc::A", board="host", outcome="passed")])
    if exitstatus is not None:
        history.finish_run(run_id, exitstatus)


def _status(html: str) -> str:
    return html.split('id="status">', 1)[1].split("<", 1)[0]


def test_a_finished_passing_night_is_green(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        _night(history, "r1", 0)
        assert _status(render(history)) == "GREEN"


def test_a_killed_night_is_not_green(tmp_path: Path) -> None:
    """SIGKILL of the night: the run has no exit status and only some results, all of them passing."""
    with History(tmp_path / "farm.db") as history:
        _night(history, "r1", None)
        html = render(history)
    assert _status(html) == "INCOMPLETE" and "never finished" in html and ">GREEN<" not in html
