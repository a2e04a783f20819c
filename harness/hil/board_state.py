"""Boards taken out of service: the hardware map's state file, shared by every worker and run.

A board that failed a run with an infrastructure error where another board ran the same binary is
quarantined: ``<map>.state.toml`` beside the map (``harness.hil.lease.map_state_dir``) records why,
since when and how often, and the pool leaves the board out until ``harness devices clear`` lifts it.
(The farm's *test* quarantine, cases that may fail without failing a night, is ``harness.farm.quarantine``.)
"""

from __future__ import annotations

import time
import tomllib
from typing import Any

from harness.hil.devices import HardwareMap, atomic_write, toml_dumps
from harness.hil.lease import file_lock

_STATE_HEADER = (
    "# Written by the harness: boards taken out of service after an infrastructure error.\n"
    "# Fix the board, then: harness devices clear --hardware-map <map> [ID...]\n"
)


def quarantined(hardware_map: HardwareMap) -> dict[str, dict[str, Any]]:
    """Device id -> {reason, since, last, count} of the boards out of service (empty when none or unreadable)."""
    path = hardware_map.state_path
    if path is None or not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, OSError):
        return {}
    table = data.get("quarantine", {})
    return table if isinstance(table, dict) else {}


def quarantine(hardware_map: HardwareMap, device_id: str, reason: str) -> None:
    """Takes ``device_id`` out of service (the state file, shared by all workers)."""
    path = hardware_map.state_path
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(path.with_suffix(".lock")):
        current = quarantined(hardware_map)
        entry = current.get(device_id, {})
        current[device_id] = {
            "reason": reason[:500],
            "since": entry.get("since", time.strftime("%Y-%m-%dT%H:%M:%S")),
            "last": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "count": int(entry.get("count", 0)) + 1,
        }
        atomic_write(path, _STATE_HEADER + toml_dumps({"quarantine": current}))


def clear(hardware_map: HardwareMap, device_ids: list[str] | None = None) -> list[str]:
    """Lifts the quarantine of ``device_ids`` (all when None); returns the ids cleared."""
    path = hardware_map.state_path
    if path is None or not path.is_file():
        return []
    with file_lock(path.with_suffix(".lock")):
        current = quarantined(hardware_map)
        ids = list(current) if device_ids is None else [i for i in device_ids if i in current]
        for device_id in ids:
            current.pop(device_id, None)
        atomic_write(path, _STATE_HEADER + toml_dumps({"quarantine": current}))
    return ids

