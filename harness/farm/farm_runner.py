"""The runner for boards of a labgrid farm: acquire a place, run through its GDB server, release.

``FarmRunner`` is what ``harness.session.resolve_runner`` gives for a hardware map whose
``[farm]`` table names a labgrid coordinator::

    [farm]
    coordinator = "farm.example.org:20408"   # labgrid-coordinator's address
    acquire_timeout_s = 600                  # optional: how long to wait for a free board
    reconnect_timeout_s = 60                 # optional: how long a lost coordinator is waited for

For each binary it acquires a healthy place tagged ``board=<board>`` (``harness.farm.places``),
loads and runs the ELF over the place's ``GDBServer`` resource with the log from its
``NetworkSerialPort`` (the gdbremote backend), and releases the place, also on errors and
signals. Retries follow the strategy the hardware map's boards use (``harness.runners.retry``): an
infrastructure failure (no output at all, a GDB server or port that failed) is retried on another
place, and the failed place is tagged ``unhealthy`` farm-wide once another place ran the binary; a
test failure is never retried. The live log and the stored log start with a ``[harness]`` line
naming the place. Attempts are recorded like the hardware map's (JUnit ``hil_*`` properties).
"""

from __future__ import annotations

import atexit
import contextlib
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.board.boards import Board
from harness.core.shutdown import on_session_end
from harness.farm.places import Farm, FarmError, Place
from harness.run_result import Attempt
from harness.runners.base import RunResult
from harness.runners.retry import HostProblem, NoBoard, run_on_pool

MAX_RETRIES = 2
ACQUIRE_TIMEOUT_S = 600.0
RECONNECT_TIMEOUT_S = 60.0  # how long a lost coordinator is waited for before the binaries fail at once

_FARMS: dict[str, Farm] = {}  # one client session per coordinator and process (an xdist worker)
_REACHED: set[str] = set()  # coordinators this process had a session with (a later failure is a loss)
_GONE: dict[str, str] = {}  # coordinator -> why it was given up: later binaries fail at once with this line
_LOCK = threading.Lock()


def farm_session(coordinator: str, reconnect_timeout_s: float = RECONNECT_TIMEOUT_S) -> Farm:
    """This process's client session with ``coordinator``.

    A session that lost its coordinator (stopped, restarted, crashed) is closed and a new one made: the
    coordinator is reconnected with backoff for up to ``reconnect_timeout_s``, so a restarted one is found again.
    If it does not come back in that time it is *given up*: this and every later call fails at once with one
    line saying so (after a quick look at its port, so a coordinator that did come back is taken again), instead
    of every remaining binary waiting for it. The first connection of a process is one attempt: a coordinator
    never reached is a configuration matter, its error names the fix."""
    with _LOCK:
        farm = _FARMS.get(coordinator)
        if farm is not None and not farm.lost:
            return farm
        if farm is not None:
            del _FARMS[coordinator]
            with contextlib.suppress(Exception):
                farm.close()
        if coordinator in _REACHED:
            farm = _reconnect(coordinator, reconnect_timeout_s)
        else:
            farm = Farm(coordinator)
            _REACHED.add(coordinator)
        _FARMS[coordinator] = farm
        return farm


def _port_open(coordinator: str) -> bool:
    host, _, port = coordinator.rpartition(":")
    try:
        with socket.create_connection((host or coordinator, int(port) if host else 20408), timeout=1.0):
            return True
    except (OSError, ValueError):
        return False


def _cause(error: FarmError) -> str:
    return " ".join(str(error.__cause__ or error).split())[:160]


def _reconnect(coordinator: str, timeout_s: float) -> Farm:
    given_up = _GONE.get(coordinator)
    if given_up is not None:  # waited for once already: a quick look, never the whole wait again
        if not _port_open(coordinator):
            raise FarmError(given_up)
        try:
            farm = Farm(coordinator)
        except FarmError:
            raise FarmError(given_up) from None
        del _GONE[coordinator]
        return farm
    deadline = time.monotonic() + timeout_s
    wait = 0.25
    while True:
        try:
            return Farm(coordinator, connect_timeout_s=max(1.0, min(10.0, deadline - time.monotonic())))
        except FarmError as error:
            cause = _cause(error)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        time.sleep(min(wait, remaining))  # a last attempt at the deadline
        wait = min(wait * 2, 5.0)
    _GONE[coordinator] = (f"the labgrid coordinator at {coordinator} is gone: not back after {timeout_s:g} s"
                          f" of reconnecting ({cause}); the remaining binaries fail at once instead of "
                          "waiting: restart it (the [farm] table's reconnect_timeout_s sets the wait)")
    raise FarmError(_GONE[coordinator])


def _lost(coordinator: str) -> bool:
    with _LOCK:
        farm = _FARMS.get(coordinator)
    return farm is None or farm.lost


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
        self.hardware_map = hardware_map  # for the report label (hardware_map.map_backend_label)
        table = dict(hardware_map.farm or {})
        self.coordinator = str(table.get("coordinator", ""))
        self.acquire_timeout_s = float(table.get("acquire_timeout_s", ACQUIRE_TIMEOUT_S))
        self.reconnect_timeout_s = float(table.get("reconnect_timeout_s", RECONNECT_TIMEOUT_S))
        self.max_retries = max_retries
        self.last_places: list[str] = []

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        if not self.coordinator:
            return "the hardware map's [farm] table has no coordinator = \"HOST:PORT\""
        try:
            farm = farm_session(self.coordinator, self.reconnect_timeout_s)
            places = farm.places(board.name)
        except FarmError as error:
            if self.coordinator in _REACHED:
                return None  # lost mid-run: the run says so, an infrastructure error of this binary
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
        attempts: list[Attempt] = []
        result = run_on_pool(PlacePool(self), Path(elf), board, timeout_s, on_line, self.max_retries, attempts)
        self.last_places = [a.device for a in attempts]
        return replace(result, backend="farm")


class PlacePool:
    """The coordinator's places tagged ``board=<board>`` as a pool for the retry strategy: leases are
    labgrid reservations, blame is the farm-wide ``unhealthy`` tag."""

    label = "farm"

    def __init__(self, runner: FarmRunner) -> None:
        self.runner = runner

    def prepare(self, elf: Path, board: Board) -> None:
        from harness.runners.qemu import elf_problem

        problem = elf_problem(elf)  # the binary's own fault: no board could fix it, none is blamed
        if problem is not None:
            raise HostProblem(problem)

    def acquire(self, board: Board, exclude: set[str]) -> PlaceLease:
        on_session_end(close_sessions)  # the front end releases what this process holds (harness.core.shutdown)
        for last_try in (False, True):
            try:
                farm = farm_session(self.runner.coordinator, self.runner.reconnect_timeout_s)
                place = farm.acquire(board.name, exclude=exclude, timeout_s=self.runner.acquire_timeout_s)
            except FarmError as error:
                if not last_try and _lost(self.runner.coordinator):
                    continue  # the coordinator was restarted under this session: once more with a new one
                raise NoBoard(str(error)) from error
            return PlaceLease(farm, place, self.runner.coordinator)
        raise AssertionError("unreachable")

    def blame(self, name: str, reason: str) -> None:
        with contextlib.suppress(FarmError):  # a coordinator that is gone cannot take the tag; the run says why
            farm_session(self.runner.coordinator, self.runner.reconnect_timeout_s).mark_unhealthy(name, reason)


class PlaceLease:
    """One acquired place: the gdbremote backend runs through its GDB server and serial port."""

    def __init__(self, farm: Farm, place: Place, coordinator: str) -> None:
        self.farm = farm
        self.place = place
        self.name = place.name
        self.coordinator = coordinator

    def note(self) -> str:
        return (f"[harness] place {self.name} (host {self.place.tags.get('host', '?')}, via labgrid "
                f"{self.coordinator})")

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: Callable[[str], None] | None) -> RunResult:
        from harness.runners.gdbremote_runner import GdbRemoteConfig, GdbRemoteRunner

        host, port = self.place.address("GDBServer") or ("", 0)
        config = GdbRemoteConfig(f"{host}:{port}", serial=self.place.serial_url(),
                                 emulation_guard=self.place.tags.get("emulated") == "1")
        try:
            return GdbRemoteRunner(config).run(elf, board, timeout_s, on_line)
        except OSError as error:  # a socket or port of this place
            return RunResult("gdbremote", b"", None, False, 0.0, "infra-error", f"place {self.name}: {error}")

    def release(self) -> None:
        self.farm.release(self.name)
