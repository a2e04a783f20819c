"""harness farm baseline: by default the latest night that finished and passed, never a night of errors."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pytest

from harness.cli.farm import cmd_baseline
from harness.farm.history import History, Measure, RunInfo


def _night(history: History, night: str, exitstatus: int | None, size: float) -> None:
    run_id = f"run-{night}"
    history.begin_run(RunInfo(run_id=run_id, night=night, started_at=time.time(), commit_sha="c" * 40, host="h",
                              label=""))
    history.add_measures([Measure(run_id=run_id, figure="flash_bytes", board="bluepill", binary="a_test",
                                  subject="", value=size)])
    if exitstatus is not None:
        history.finish_run(run_id, exitstatus)


def _args(tmp_path: Path, night: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(history=tmp_path / "farm.db", night=night, output=tmp_path / "baseline.json")


def test_the_default_is_the_last_good_night(tmp_path: Path) -> None:
    with History(tmp_path / "farm.db") as history:
        _night(history, "2026-03-01", 0, 1000.0)
        _night(history, "2026-03-02", 1, 2000.0)  # every result an error: the night failed
        _night(history, "2026-03-03", None, 3000.0)  # killed
    assert cmd_baseline(_args(tmp_path)) == 0
    data = json.loads((tmp_path / "baseline.json").read_text())
    assert data["source"] == "night 2026-03-01" and [f["value"] for f in data["figures"]] == [1000.0]
    assert cmd_baseline(_args(tmp_path, night="2026-03-02")) == 0  # asked for: taken anyway
    assert json.loads((tmp_path / "baseline.json").read_text())["figures"][0]["value"] == 2000.0


def test_no_good_night_is_an_error_naming_the_way_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with History(tmp_path / "farm.db") as history:
        _night(history, "2026-03-02", 1, 2000.0)
    assert cmd_baseline(_args(tmp_path)) != 0
    assert "no night" in capsys.readouterr().err and not (tmp_path / "baseline.json").exists()
