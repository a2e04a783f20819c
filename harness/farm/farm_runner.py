"""The runner for boards of a labgrid farm: acquire a place, run through its GDB server, release.

``FarmRunner`` is what ``harness.runners.resolve_runner`` gives for a hardware map whose
``[farm]`` table names a labgrid coordinator::

    [farm]
    coordinator = "farm.example.org:20408"   # labgrid-coordinator's address
    acquire_timeout_s = 600                  # optional: how long to wait for a free board

For each binary it acquires a healthy place tagged ``board=<board>`` (``harness.farm.places``),
loads and runs the ELF over the place's ``GDBServer`` resource with the log from its
``NetworkSerialPort`` (the gdbremote backend), and releases the place, also on errors and
signals. An infrastructure failure (no output at all, a GDB server or port that failed) tags
the place ``unhealthy`` farm-wide and the binary is retried on another place; a test failure is
never retried. The live log and the stored log start with a ``[harness]`` line naming the place.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.boards import Board
from harness.failure_classes import INFRA, classify_run
from harness.farm.places import Farm, FarmError
from harness.runners.base import RunResult

MAX_RETRIES = 2
ACQUIRE_TIMEOUT_S = 600.0

_FARMS: dict[str, Farm] = {}  # one client session per coordinator and process (an xdist worker)
_LOCK = threading.Lock()


def farm_session(coordinator: str) -> Farm:
    with _LOCK:
        farm = _FARMS.get(coordinator)
        if farm is None:
            farm = _FARMS[coordinator] = Farm(coordinator)
        return farm


def close_sessions() -> None:
    """Releases every place this process holds and closes its sessions (atexit, end of pytest)."""
    with _LOCK:
        farms = list(_FARMS.values())
        _FARMS.clear()
    for farm in farms:
        with contextlib.suppress(Exception):
            farm.close()


atexit.register(close_sessions)


class FarmRunner:
    name = "farm"

    def __init__(self, hardware_map: Any, max_retries: int = MAX_RETRIES) -> None:
        self.hardware_map = hardware_map  # for the report label (hil_plugin.map_backend_label)
        table = dict(hardware_map.farm or {})
        self.coordinator = str(table.get("coordinator", ""))
        self.acquire_timeout_s = float(table.get("acquire_timeout_s", ACQUIRE_TIMEOUT_S))
        self.max_retries = max_retries
        self.last_places: list[str] = []

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        if not self.coordinator:
            return "the hardware map's [farm] table has no coordinator = \"HOST:PORT\""
        try:
            farm = farm_session(self.coordinator)
            places = farm.places(board.name)
        except FarmError as error:
            return str(error)
        if not places:
            return (f"the labgrid coordinator {self.coordinator} has no place tagged board={board.name}; "
                    "add one, e.g. with harness farm demo, or labgrid-client create/set-tags/add-match")
        if all(p.unhealthy for p in places):
            sick = "; ".join(f"{p.name}: {p.unhealthy}" for p in places)
            return (f"every {board.name} place on {self.coordinator} is unhealthy ({sick}); "
                    "fix them, then: harness farm clear")
        return None

    def run(self, elf: Path, board: Board, timeout_s: float,
            on_line: Callable[[str], None] | None = None) -> RunResult:
        from harness.runners.gdbremote_runner import GdbRemoteConfig, GdbRemoteRunner
        from harness.runners.qemu import elf_problem

        problem = elf_problem(Path(elf))  # the binary's own fault: no board could fix it, none is blamed
        if problem is not None:
            return RunResult("farm", b"", None, False, 0.0, "infra-error", problem)
        notes: list[str] = []

        def say(text: str) -> None:
            notes.append(text)
            if on_line is not None:
                on_line(text)

        tried: set[str] = set()
        self.last_places = []
        result: RunResult | None = None
        for _ in range(self.max_retries + 1):
            try:
                farm = farm_session(self.coordinator)
                place = farm.acquire(board.name, exclude=tried, timeout_s=self.acquire_timeout_s)
            except FarmError as error:
                if result is None:
                    return RunResult("farm", "\n".join(notes).encode(), None, False, 0.0, "infra-error", str(error))
                say(f"[harness] no other {board.name} place to retry on: {error}")
                break
            tried.add(place.name)
            self.last_places.append(place.name)
            host, port = place.address("GDBServer") or ("", 0)
            say(f"[harness] place {place.name} (host {place.tags.get('host', '?')}, {board.name} via labgrid "
                f"{self.coordinator})")
            config = GdbRemoteConfig(f"{host}:{port}", serial=place.serial_url(),
                                     emulation_guard=place.tags.get("emulated") == "1")
            try:
                result = GdbRemoteRunner(config).run(elf, board, timeout_s, on_line)
            finally:
                farm.release(place.name)
            if classify_run(result) != INFRA:
                break
            reason = result.infra_error or "no output at all"
            farm.mark_unhealthy(place.name, reason)
            say(f"--- infrastructure error on {place.name}: {reason}; place tagged unhealthy ---")
        assert result is not None
        result.log = ("\n".join(notes) + "\n").encode() + result.log
        result.backend = "farm"
        return result
