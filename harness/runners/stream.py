"""One stream and one loop for every backend: transports only produce bytes, this decides the end.

A backend starts its device, then hands ``DeviceStream.follow`` what it has:

* producer threads (process pipes) call ``put(data)`` and, when the device is gone,
  ``exit(status)`` — all through one queue, so arrival order is kept;
* ``waiter(budget_s)``: a callable that may block up to ``budget_s`` for its own events (a
  UART read, a debug target halting on a semihosting call) and feeds the stream itself;
* ``pollers``: callables run every ``poll_s`` (file tails, RTT).

``LogSink`` is the producer side of one stream for the probe and serial backends: every transport
(semihosting, RTT, a UART reader thread) feeds it from its own thread, and it keeps what they fed.

The loop has one deadline and one end rule, taken from the log format
(``harness.formats.reader.LogReader.end_grace``): a HardFault line ends the run after a short
grace; the framework's own end of run (every case closed) ends it after a short grace where
the transport has no exit status, and otherwise only opens a window in which the device must
exit. Without either, the run ends at the device's exit or at the deadline.

A caller's ``harness.runners.control.RunControl``, active while the runner runs, reaches the
stream without passing through the runner: it sees the raw bytes (``on_data``), can stop the run
from another thread, and its ``case_limits`` give each test case its own deadline in the same
loop: a case still open past its limit ends the run as a timeout of that case (the control's
``case_timeout`` names it, its limit and where the limit came from).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from harness.formats.reader import LogReader
from harness.run_result import Note
from harness.runners.base import RunResult
from harness.runners.control import CaseTimeout, active_control


class DeviceStream:
    def __init__(
        self,
        on_line: Callable[[str], None] | None = None,
        fmt: str | None = None,
        exit_status: bool = False,
        started_at: float | None = None,
        backend: str = "",
    ) -> None:
        self.backend = backend  # the name the run's RunResult carries (a runner may set it later)
        self.control = active_control()
        # The one reader of the run: it decides the end here and, kept by the control, the verdict.
        self.reader = self.control.make_reader(fmt, on_line) if self.control is not None else LogReader(
            fmt, on_line=on_line)
        self.exit_status = exit_status  # the transport reports the device's exit
        self._queue: queue.SimpleQueue[tuple[str, object]] = queue.SimpleQueue()
        self._log = bytearray()
        self.notes: list[Note] = []  # the harness's remarks, apart from the device's bytes
        self._start = time.monotonic() if started_at is None else started_at
        self._stop: tuple[str, int | None, str | None] | None = None
        if self.control is not None:
            self.control.bind(self)

    # -- producers (any thread) -----------------------------------------------------------
    def put(self, data: bytes) -> None:
        if data:
            self._queue.put(("data", bytes(data)))

    def exit(self, status: int | None) -> None:
        """The device is gone: its exit status (None when the transport cannot tell)."""
        self._queue.put(("exit", status))

    def stop(self, reason: str, note: str | None = None, infra_error: str | None = None) -> None:
        """The transport ended the run itself: "crash" (core halted, lockup) or "infra-error"; or the
        caller did (``RunControl.stop``): "stopped"."""
        if note:
            self.note(note)
        self._queue.put(("stop", (reason, infra_error)))

    def note(self, text: str) -> None:
        """A harness remark about the run: kept apart from the device's bytes (``notes``), shown live."""
        self._queue.put(("note", text))

    # -- the loop (one thread) -------------------------------------------------------------
    @property
    def data(self) -> bytes:
        """The log so far (for the loop's own thread: waiters and pollers)."""
        return bytes(self._log)

    def _take(self, kind: str, payload: object) -> None:
        if kind == "data":
            assert isinstance(payload, bytes)
            self._log += payload
            self.reader.feed(payload)
            self._tell(payload)
        elif kind == "note":
            assert isinstance(payload, str)
            note = Note(len(self._log), payload)
            self.notes.append(note)
            self.reader.note(payload)
            if self.control is not None and self.control.on_note is not None:
                self.control.on_note(note)
        elif kind == "exit":
            assert payload is None or isinstance(payload, int)
            self._stop = self._stop or ("exit", payload, None)
        elif kind == "stop":
            assert isinstance(payload, tuple)
            reason, infra = payload
            self._stop = self._stop or (reason, None, infra)

    def _tell(self, data: bytes) -> None:
        if self.control is not None and self.control.on_data is not None:
            self.control.on_data(data)

    def _case_due(self) -> tuple[float, CaseTimeout] | None:
        """When the open case reaches its own limit (the control's ``case_limits``), and which limit."""
        limits = self.control.case_limits if self.control is not None else None
        case = self.reader.open_case
        if not limits or case is None or case.started_at is None:
            return None
        found = limits.limit_for(case.name)
        if found is None:
            return None
        seconds, source = found
        return case.started_at + seconds, CaseTimeout(case.name, seconds, source)

    def _drain(self, wait_s: float) -> None:
        """Takes what is queued; waits up to ``wait_s`` for the first item."""
        try:
            kind, payload = self._queue.get(timeout=wait_s) if wait_s > 0 else self._queue.get_nowait()
        except queue.Empty:
            return
        self._take(kind, payload)
        while True:
            try:
                kind, payload = self._queue.get_nowait()
            except queue.Empty:
                return
            self._take(kind, payload)

    def follow(
        self,
        deadline: float,
        waiter: Callable[[float], None] | None = None,
        pollers: Sequence[Callable[[], None]] = (),
        poll_s: float = 0.05,
    ) -> RunResult:
        """Follows the device until the end rule, its exit, a transport stop, or ``deadline``."""
        end_at: float | None = None
        end_reason = "timeout"
        next_poll = 0.0
        while True:
            now = time.monotonic()
            if pollers and now >= next_poll:
                for poll in pollers:
                    poll()
                next_poll = now + poll_s
            due = self._case_due() if end_at is None else None
            limit = min(deadline, end_at if end_at is not None else deadline, next_poll if pollers else deadline,
                        due[0] if due is not None else deadline)
            budget = max(0.0, min(limit - now, 0.1))
            if waiter is not None:
                waiter(budget)
                self._drain(0.0)
            else:
                self._drain(budget)
            if self._stop is not None:
                reason, code, infra = self._stop
                if reason == "exit":
                    self._drain(0.0)  # producers queued their last bytes before the exit
                    for poll in pollers:  # what a polled transport still holds (RTT)
                        poll()
                    self._drain(0.0)
                    reason = "crash" if self.reader.crash_seen else "exit"
                return self._end(reason, code, False, infra)
            now = time.monotonic()
            if end_at is None:
                grace = self.reader.end_grace(self.exit_status)
                if grace is not None:
                    end_at, end_reason = now + grace[0], grace[1]
            if end_at is not None and now >= end_at:
                return self._end(end_reason, None, False, None)
            due = self._case_due() if end_at is None else None  # the case open after what just arrived
            if due is not None and now >= due[0]:
                assert self.control is not None
                self.control.case_timeout = due[1]
                self._take("note", f"{due[1].describe()}; run stopped")
                return self._end("timeout", None, True, None)
            if now >= deadline:
                return self._end("timeout", None, True, None)

    def late(self) -> None:
        """Takes what producers queued after the loop ended (kept in the log and the verdict)."""
        self._drain(0.0)

    def _end(self, reason: str, code: int | None, timed_out: bool, infra: str | None) -> RunResult:
        return RunResult(
            backend=self.backend,
            log=bytes(self._log),
            exit_code=code,
            timed_out=timed_out,
            duration_s=time.monotonic() - self._start,
            end_reason=reason,
            infra_error=infra,
            notes=list(self.notes),
        )

    def finish(self, end: RunResult) -> RunResult:
        """``end`` with everything that arrived until the transport was closed."""
        self.late()
        self.reader.flush()
        end.log = bytes(self._log)
        end.notes = list(self.notes)
        end.case_seconds = self.reader.case_seconds()
        return end


class LogSink:
    """The producer side of one run's ``DeviceStream`` for the probe backends (thread safe).

    Transports (semihosting writes, RTT, a UART reader thread) ``feed`` it; ``data`` is what
    they fed so far; the run loop (``drive``, the serial runner) follows ``stream``.
    """

    def __init__(self, on_line: Callable[[str], None] | None = None, fmt: str | None = None,
                 exit_status: bool = True) -> None:
        self._lock = threading.Lock()
        self._data = bytearray()
        self.stream = DeviceStream(on_line, fmt=fmt, exit_status=exit_status)

    def feed(self, data: bytes) -> None:
        if not data:
            return
        with self._lock:
            self._data += data
        self.stream.put(data)

    def note(self, text: str) -> None:
        """A harness remark about the run (``DeviceStream.note``)."""
        self.stream.note(text)

    @property
    def data(self) -> bytes:
        with self._lock:
            return bytes(self._data)

    @property
    def notes(self) -> list[Note]:
        """The harness's remarks about the run so far (``DeviceStream.notes``; complete after ``finish``)."""
        return list(self.stream.notes)

    def case_seconds(self) -> dict[str, float]:
        """Each case's duration as the live run loop saw it (call after ``finish``)."""
        return self.stream.reader.case_seconds()

    def finish(self) -> bytes:
        """The whole log (with the harness's remarks), once the run loop is over."""
        self.stream.late()
        self.stream.reader.flush()
        return self.stream.data


class FileTail:
    """A poller that follows a file another process appends to (Renode's UART file backends).

    Hands whole lines to the stream as they complete; ``rest`` gives a last line without its
    newline once the device stopped.
    """

    def __init__(self, path: Path, stream: DeviceStream, from_end: bool = False) -> None:
        self.path = path
        self.stream = stream
        self.offset = _size(path) if from_end else 0
        self.pending = b""

    def __call__(self) -> None:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return  # not created yet
        self.offset += len(data)
        self.pending += data
        cut = self.pending.rfind(b"\n") + 1
        complete, self.pending = self.pending[:cut], self.pending[cut:]
        self.stream.put(complete)

    def rest(self) -> None:
        self()
        rest, self.pending = self.pending, b""
        self.stream.put(rest)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
