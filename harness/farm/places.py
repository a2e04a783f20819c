"""Boards across hosts through labgrid: places found by tag, acquired and released in-process.

A ``Farm`` is one labgrid client session (labgrid's own ``ClientSession`` over gRPC, on an
event loop of its own, driven from the calling thread) talking to a ``labgrid-coordinator``.
Every place the harness can use carries the tag ``board=<board name>``; its matched resources
say how to reach the board:

* ``NetworkSerialPort`` (host, port, protocol ``raw`` or ``rfc2217``): the log UART;
* ``GDBServer`` (host, port): a GDB server in front of the core (``pyocd gdbserver`` next to
  a real probe, or an emulated board's GDB stub), driven by the gdbremote backend.

labgrid facts this module is built around (checked in labgrid 26's coordinator and client):
a place lock never expires, so every process acquires under a unique owner name
(``<host>/harness-<pid>-<nonce>``) and releases the places of dead owners on its host before it
acquires (``reclaim_stale``); a released place reaches a reservation's waiter only on the
scheduler's tick, so free places are acquired directly and polled with a short backoff; a place
whose resources are gone can still be acquired, so the board's ports are probed first; an
unhealthy place gets the tag ``unhealthy=<reason>`` farm-wide and is skipped until a person
clears it (``harness farm clear``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

UNHEALTHY_TAG = "unhealthy"
SYNC_TIMEOUT_S = 10.0  # a coordinator that does not answer a sync in this long is gone
OWNER_PREFIX = "harness-"
_POLL_S = 0.2


class FarmError(Exception):
    """The coordinator cannot be reached, or a place operation failed; the message names the fix."""


class _PumpTracebackFilter(logging.Filter):
    """labgrid's client logs the end of its coordinator stream from a background task with ``logging.exception``
    on the root logger when the stream ends with any gRPC status but UNAVAILABLE (a killed coordinator can end it
    with INTERNAL, "Internal error from Core"): a traceback in the night's output that reads like a harness crash.
    The loss itself is reported by ``Farm._run`` as a ``FarmError`` naming the coordinator; this keeps labgrid's
    line and drops its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.funcName == "message_pump" and "labgrid" in record.pathname:
            error = record.exc_info[1]
            code = getattr(error, "code", None)
            status = code().name if callable(code) else type(error).__name__
            record.msg = f"labgrid: the coordinator's stream ended ({status}); the harness reports the loss"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


_PUMP_FILTER = _PumpTracebackFilter()


@dataclass
class Place:
    name: str
    tags: dict[str, str]
    acquired: str | None
    resources: dict[str, dict[str, Any]] = field(default_factory=dict)  # cls -> params

    @property
    def board(self) -> str | None:
        return self.tags.get("board")

    @property
    def unhealthy(self) -> str | None:
        return self.tags.get(UNHEALTHY_TAG)

    def address(self, cls: str) -> tuple[str, int] | None:
        params = self.resources.get(cls)
        if not params or "host" not in params or "port" not in params:
            return None
        return str(params["host"]), int(params["port"])

    def serial_url(self) -> str | None:
        params = self.resources.get("NetworkSerialPort")
        where = self.address("NetworkSerialPort")
        if params is None or where is None:
            return None
        if str(params.get("protocol", "rfc2217")) == "raw":
            return f"socket://{where[0]}:{where[1]}"
        # ser2net 4.x refuses the control requests pyserial sends unless told to ignore them.
        return f"rfc2217://{where[0]}:{where[1]}?ign_set_control"


def _reachable(address: tuple[str, int] | None, timeout_s: float = 1.0) -> bool:
    if address is None:
        return False
    try:
        with socket.create_connection(address, timeout=timeout_s):
            return True
    except OSError:
        return False


def unreachable_reason(place: Place) -> str | None:
    """Why ``place``'s board cannot be used now, naming what is gone, or None when its GDB server answers."""
    address = place.address("GDBServer")
    if address is None:
        host = place.tags.get("host")
        return (f"its exporter{f' on host {host}' if host else ''} is gone: the coordinator has no available "
                "GDBServer resource for the place (restart the exporter)")
    if not _reachable(address):
        return f"GDB server {address[0]}:{address[1]} not reachable (its exporter is up; the server is not)"
    return None


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Farm:
    """One in-process labgrid client session (see module doc)."""

    def __init__(self, coordinator: str, owner: str | None = None, connect_timeout_s: float = 10.0) -> None:
        try:
            from labgrid.remote import client as lg_client
            from labgrid.remote.generated import labgrid_coordinator_pb2 as pb2
        except ImportError as error:
            raise FarmError(f"the device farm needs labgrid: pip install labgrid ({error})") from error
        self._pb2 = pb2
        self.coordinator = coordinator
        self.host = socket.gethostname()
        self.user = owner or f"{OWNER_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:6]}"
        user = self.user
        host = self.host

        # The owner name this process acquires under. labgrid ships no type information: to mypy its
        # ClientSession is Any, which strict mode does not let a class subclass without saying so.
        class _Session(lg_client.ClientSession):  # type: ignore[misc]
            def __attrs_post_init__(self) -> None:
                super().__attrs_post_init__()
                # The coordinator keys a session by its connection: gRPC would share one connection
                # between channels of the same options, so each session gets its own pool.
                import grpc
                from labgrid.remote.generated import labgrid_coordinator_pb2_grpc as pb2_grpc

                options = [("grpc.keepalive_time_ms", 7500), ("grpc.keepalive_timeout_ms", 10000),
                           ("grpc.http2.ping_timeout_ms", 10000), ("grpc.http2.max_pings_without_data", 0),
                           ("grpc.use_local_subchannel_pool", 1)]
                self.channel = grpc.aio.insecure_channel(target=self.address, options=options)
                self.stub = pb2_grpc.CoordinatorStub(self.channel)

            def getuser(self) -> str:
                return user

            def gethostname(self) -> str:
                return host

        if _PUMP_FILTER not in logging.getLogger().filters:
            logging.getLogger().addFilter(_PUMP_FILTER)  # labgrid logs on the root logger
        self._loop = asyncio.new_event_loop()
        address = coordinator if ":" in coordinator else f"{coordinator}:20408"


        async def make() -> Any:  # grpc.aio binds a channel to the loop running when it is made
            return _Session(address=address, loop=self._loop)

        try:
            self._session = self._loop.run_until_complete(make())
            self._run(self._session.start(), connect_timeout_s)
        except Exception as error:
            self._loop.close()
            raise FarmError(f"cannot reach the labgrid coordinator at {coordinator}: {error}; "
                            "start it (labgrid-coordinator --listen HOST:PORT) or fix [farm] coordinator") from error
        self.held: set[str] = set()
        self.lost = False  # the coordinator went away under this session (``_run``): make a new one

    @property
    def owner(self) -> str:
        return f"{self.host}/{self.user}"

    def _run(self, coroutine: Any, timeout_s: float = 30.0) -> Any:
        """Runs one labgrid call. A coordinator that went away (stopped, restarted, unreachable: no answer, a
        broken connection) is a ``FarmError`` that marks this session ``lost`` — an infrastructure error with
        its cause, never a raw asyncio or gRPC traceback that would read as a test failure. The coordinator's
        own refusals (an ``AioRpcError`` such as a place already taken) are the caller's to handle."""
        import grpc

        asyncio.set_event_loop(self._loop)  # the calling thread's loop (grpc.aio looks it up)
        try:
            return self._loop.run_until_complete(asyncio.wait_for(coroutine, timeout_s))
        except grpc.aio.AioRpcError as error:
            if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                                    grpc.StatusCode.CANCELLED):
                raise
            self.lost = True
            raise FarmError(f"lost the labgrid coordinator at {self.coordinator}: {error.code().name} "
                            f"({error.details()})") from error
        except (TimeoutError, OSError, RuntimeError) as error:
            self.lost = True
            what = str(error) or f"no answer within {timeout_s:g} s"
            raise FarmError(f"lost the labgrid coordinator at {self.coordinator}: {type(error).__name__}: "
                            f"{what}") from error

    def sync(self) -> None:
        if not self._run(self._session.sync_with_coordinator(), SYNC_TIMEOUT_S):
            self.lost = True
            raise FarmError(f"lost the labgrid coordinator at {self.coordinator}")

    # -- reading --------------------------------------------------------------------------
    def places(self, board: str | None = None) -> list[Place]:
        self.sync()
        found = []
        for name, place in sorted(self._session.places.items()):
            tags = dict(place.tags)
            if board is not None and tags.get("board") != board:
                continue
            found.append(Place(name, tags, place.acquired or None, self._resources_of(place)))
        return found

    def _resources_of(self, place: Any) -> dict[str, dict[str, Any]]:
        matched: dict[str, dict[str, Any]] = {}
        for exporter, groups in self._session.resources.items():
            for group_name, group in groups.items():
                for resource_name, entry in group.items():
                    if not entry.data.get("cls"):
                        continue  # deleted
                    if place.hasmatch((exporter, group_name, entry.cls, resource_name)) and entry.avail:
                        matched[entry.cls] = dict(entry.params)
        return matched

    # -- locks ----------------------------------------------------------------------------
    def acquire(self, board: str, exclude: set[str] | frozenset[str] = frozenset(),
                timeout_s: float = 300.0) -> Place:
        """A healthy, reachable place of ``board`` acquired for this process; waits for one to be free."""
        deadline = time.monotonic() + timeout_s
        wait = 0.05
        self.reclaim_stale()
        while True:
            candidates = [p for p in self.places(board) if p.name not in exclude and not p.unhealthy]
            if not candidates:
                raise FarmError(self._none_usable(board, exclude))
            away = []
            for place in candidates:
                if place.acquired is not None:
                    continue
                if place.address("GDBServer") is None:
                    # Its exporter is not registered (restarting, or its coordinator just restarted): a host
                    # matter that may pass; waited for, not tagged. Named if it lasts the whole wait.
                    away.append(place.name)
                    continue
                problem = unreachable_reason(place)
                if problem is not None:  # registered, but its board does not answer: the board is blamed
                    self.mark_unhealthy(place.name, problem)
                    continue
                if self._try_acquire(place.name):
                    place.acquired = self.owner
                    return place
            if time.monotonic() >= deadline:
                if away:
                    gone = "; ".join(f"{name}: {unreachable_reason(p)}" for p in candidates
                                     for name in [p.name] if name in away)
                    raise FarmError(f"no {board} place usable within {timeout_s:.0f} s: {gone}")
                busy = ", ".join(f"{p.name} ({p.acquired})" for p in candidates)
                raise FarmError(f"no {board} place became free within {timeout_s:.0f} s: {busy}")
            time.sleep(wait)
            wait = min(_POLL_S, wait * 2)

    def _none_usable(self, board: str, exclude: set[str] | frozenset[str]) -> str:
        every = self.places(board)
        if not every:
            return (f"the labgrid coordinator {self.coordinator} has no place tagged board={board}; add one "
                    f"(labgrid-client -p NAME create; set-tags board={board}; add-match EXPORTER/GROUP/*)")
        reasons = [f"{p.name}: {p.unhealthy or 'tried already'}" for p in every if p.unhealthy or p.name in exclude]
        return (f"no usable {board} place on {self.coordinator} ({'; '.join(reasons)}); "
                "fix them, then: harness farm clear")

    def _try_acquire(self, name: str) -> bool:
        import grpc

        try:
            self._run(self._session.stub.AcquirePlace(self._pb2.AcquirePlaceRequest(placename=name)))
        except grpc.aio.AioRpcError:
            return False  # taken by someone else in the meantime
        self.sync()
        self.held.add(name)
        return True

    def release(self, name: str, fromuser: str | None = None) -> None:
        import grpc

        request = self._pb2.ReleasePlaceRequest(placename=name)
        if fromuser is not None:
            request.fromuser = fromuser
        with contextlib.suppress(grpc.aio.AioRpcError, FarmError):
            self._run(self._session.stub.ReleasePlace(request), 10.0)
        self.held.discard(name)

    def reclaim_stale(self) -> list[str]:
        """Releases places held by harness processes of this host that no longer exist."""
        freed = []
        for place in self.places():
            holder = place.acquired or ""
            host, _, user = holder.partition("/")
            if host != self.host or not user.startswith(OWNER_PREFIX) or holder == self.owner:
                continue
            try:
                pid = int(user[len(OWNER_PREFIX):].split("-", 1)[0])
            except ValueError:
                continue
            if not pid_alive(pid):
                self.release(place.name, fromuser=holder)
                freed.append(place.name)
        return freed

    # -- setting places up ----------------------------------------------------------------
    def resource_groups(self) -> set[str]:
        """Names of the resource groups the exporters have registered with the coordinator."""
        self.sync()
        return {group for groups in self._session.resources.values() for group in groups}

    def set_tags(self, name: str, tags: dict[str, str]) -> None:
        """Sets tags of place ``name``. labgrid's coordinator *merges* them into the place's tags and deletes
        only the keys sent with an empty value (coordinator.py ``SetPlaceTags``), so a tag is removed by
        sending it empty, never by leaving it out."""
        self._run(self._session.stub.SetPlaceTags(self._pb2.SetPlaceTagsRequest(placename=name, tags=tags)))
        self.sync()

    def add_place(self, name: str, pattern: str, tags: dict[str, str]) -> None:
        """Creates place ``name`` matching resources ``EXPORTER/GROUP/CLASS`` by ``pattern``, with ``tags``."""
        stub, pb2 = self._session.stub, self._pb2
        self._run(stub.AddPlace(pb2.AddPlaceRequest(name=name)))
        self._run(stub.AddPlaceMatch(pb2.AddPlaceMatchRequest(placename=name, pattern=pattern)))
        self.set_tags(name, tags)

    # -- health ---------------------------------------------------------------------------
    def mark_unhealthy(self, name: str, reason: str) -> None:
        place = next((p for p in self.places() if p.name == name), None)
        if place is None:
            return
        tags = dict(place.tags)
        tags[UNHEALTHY_TAG] = " ".join(reason.split())[:200] or "infrastructure error"
        self.set_tags(name, tags)

    def clear(self, names: list[str] | None = None) -> list[str]:
        cleared = []
        for place in self.places():
            if place.unhealthy and (not names or place.name in names):
                self.set_tags(place.name, {UNHEALTHY_TAG: ""})  # empty: the coordinator deletes the tag
                cleared.append(place.name)
        self.sync()
        return cleared

    def close(self) -> None:
        for name in list(self.held):
            self.release(name)
        with contextlib.suppress(Exception):
            self._run(self._session.stop(), 5)
            self._run(self._session.close(), 5)
        self._loop.close()
