"""Opening a history: a damaged file or one from a newer harness is an error naming the file and the fix,
and nothing is written to it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from harness.farm.history import SCHEMA_VERSION, History, HistoryError, RunInfo


def _history_with_rows(path: Path) -> None:
    with History(path) as history:
        for index in range(300):
            history.begin_run(RunInfo(run_id=f"run-{index}", night=f"2026-01-{index % 28 + 1:02d}",
                                      started_at=time.time(), commit_sha="c" * 40, host="h", label="x" * 200))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_pages_damaged_behind_a_valid_header_are_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "farm.db"
    _history_with_rows(path)
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * 4096 and data[:16] == b"SQLite format 3\x00"
    data[2 * 4096 : 3 * 4096] = b"\xa5" * 4096  # a page in the middle: the header stays valid
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(HistoryError) as error:
        History(path)
    assert str(path) in str(error.value) and "Move it aside" in str(error.value)
    assert path.read_bytes() == before  # nothing written


def test_a_newer_schema_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "farm.db"
    History(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(HistoryError, match=f"{path}: history file has schema version {SCHEMA_VERSION + 1}"):
        History(path)


def test_an_intact_history_opens(tmp_path: Path) -> None:
    path = tmp_path / "farm.db"
    _history_with_rows(path)
    with History(path) as history:
        assert history.query("SELECT COUNT(*) FROM runs")[0][0] == 300
