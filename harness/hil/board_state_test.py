"""Boards out of service: kept beside the map, seen by every process, lifted by clear."""

from __future__ import annotations

import tomllib
from pathlib import Path

from harness.hil import board_state
from harness.hil.devices import (
    load_hardware_map,
)
from harness.hil.pool import HilRunner, select_runner_for
from harness.testing.hil_maps import BLUEPILL, RACK, write_map


def test_quarantine_is_persisted_beside_the_map_and_can_be_cleared(tmp_path: Path) -> None:
    path = write_map(tmp_path, RACK)
    rack = load_hardware_map(path)
    board_state.quarantine(rack, "bluepill-2", "serial port read failed: device disconnected")
    board_state.quarantine(rack, "bluepill-2", "again")
    state = tomllib.loads((tmp_path / "rack.state.toml").read_text())
    assert state["quarantine"]["bluepill-2"]["count"] == 2
    assert state["quarantine"]["bluepill-2"]["reason"] == "again"
    # Another process reading the same map sees it; the runner skips the board.
    runner = select_runner_for(path)
    assert isinstance(runner, HilRunner)
    assert [d.id for d in runner._candidates(BLUEPILL)] == ["bluepill-1", "emu-1"]
    assert board_state.clear(rack, ["bluepill-2"]) == ["bluepill-2"]
    assert board_state.quarantined(load_hardware_map(path)) == {}
