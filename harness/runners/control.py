"""What a caller adds to one run without the runner knowing: raw output, input, stop, case deadlines.

A ``RunControl`` is made by whoever calls ``runner.run`` (the ``dut`` fixture, the pytest items)
and activated around that call, in the same thread::

    control = RunControl(on_data=..., case_limits=limits, wants_input=True)
    with control.active():
        result = runner.run(elf, board, timeout_s)

Every backend feeds one ``harness.runners.stream.DeviceStream``, created in the thread that
called ``run``; the stream binds itself to the active control. So, for every backend alike:

* ``on_data`` sees every byte the device printed, as it arrives (not only whole lines);
* ``stop()`` ends the run from another thread (end reason ``stopped``);
* ``case_limits`` give each test case its own deadline, enforced by the stream's one loop; when
  one passes, ``case_timeout`` says which case, its limit and where the limit came from;
* ``reader_spec`` says how the stream reads the log (format, case list; ``harness.formats.reader``),
  and the stream's reader is kept in ``reader``: the one reader that ends the run also judges it;
* ``token`` is the run token (``harness.core.run_token``): a backend that hands it to the device calls
  ``token_delivered(how)`` before it creates its stream; only then does the reader demand records
  signed with it (otherwise the run is judged unauthenticated).

Input is the one thing a backend must wire itself: a backend that can send bytes to the device
(a process's stdin, QEMU's serial chardev) calls ``attach_input`` once the device runs and says
so in ``input_problem(board)`` (None: it can). ``send`` queues bytes until then.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from harness.board.boards import Board
    from harness.core.run_token import RunToken
    from harness.formats.reader import LogReader, ReaderSpec
    from harness.run_result import Note

# CaseLimits and CaseTimeout live with the rest of the per-case limits (the board stage); re-exported here.
from harness.formats.case_limits import CaseLimits, CaseTimeout

__all__ = ["CaseLimits", "CaseTimeout", "InputClosed", "RunControl", "active_control", "input_problem",
           "token_writes"]


class InputClosed(Exception):
    """Input sent after the device's run ended (or after the backend could no longer take it)."""


_ACTIVE: contextvars.ContextVar[RunControl | None] = contextvars.ContextVar("harness_run_control", default=None)


def active_control() -> RunControl | None:
    """The control activated around the current ``runner.run`` call in this thread, if any."""
    return _ACTIVE.get()


def token_writes(elf: Any, how: str) -> list[tuple[int, int]]:
    """(address, word) writes that hand the active control's run token to ``elf``'s token block before the
    core starts (QEMU, Renode, pyOCD, GDB servers); marks the token delivered ``how`` when there are any.
    Empty without a control, a token, or a token block in the ELF (the run is then unauthenticated)."""
    control = active_control()
    if control is None or control.token is None:
        return []
    writes = control.token.memory_writes(elf)
    if writes:
        control.token_delivered(how)
    return writes


def input_problem(runner: Any, board: Board) -> str | None:
    """Why ``runner`` cannot send input to ``board``'s device (None: it can)."""
    check = getattr(runner, "input_problem", None)
    if check is None:
        return f"the {getattr(runner, 'name', '?')} backend has no input channel to the device"
    problem: str | None = check(board)
    return problem


class _Stream(Protocol):
    """What the control needs of the stream that binds it (``harness.runners.stream.DeviceStream``, which
    imports this module; the control names no stream type, so no import goes back)."""

    reader: LogReader

    def stop(self, reason: str, note: str | None = None, infra_error: str | None = None) -> None: ...


class RunControl:
    def __init__(
        self,
        on_data: Callable[[bytes], None] | None = None,
        case_limits: CaseLimits | None = None,
        wants_input: bool = False,
        reader_spec: ReaderSpec | None = None,
        token: RunToken | None = None,
    ) -> None:
        self.on_data = on_data
        self.on_note: Callable[[Note], None] | None = None  # the harness's remarks, as they are made
        self.case_limits = case_limits if case_limits else None
        self.wants_input = wants_input
        self.reader_spec = reader_spec
        self.token = token
        self.delivery: str | None = None  # how the token reached the device ("environment", "memory"...)
        self.reader: LogReader | None = None  # the reader of the stream bound last
        self.case_timeout: CaseTimeout | None = None  # set by the stream when a case deadline passed
        self._lock = threading.Lock()
        self._stream: _Stream | None = None
        self._stop_note: str | None = None
        self._writer: Callable[[bytes], None] | None = None
        self._pending: list[bytes] = []
        self._input_closed: str | None = None

    @contextlib.contextmanager
    def active(self) -> Iterator[RunControl]:
        """Makes this the control of streams created in this thread while the block runs."""
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)
            self.close_input("the device's run ended")

    # -- the token ------------------------------------------------------------------------------
    def token_delivered(self, how: str) -> None:
        """A backend handed ``token`` to the device (call before creating the stream)."""
        self.delivery = how

    def make_reader(self, fmt: str | None, on_line: Callable[[str], None] | None) -> LogReader:
        """The reader for a stream created under this control (``fmt``: the backend's default)."""
        from harness.formats.reader import ReaderSpec

        spec = self.reader_spec or ReaderSpec(fmt)
        key = self.token.key if self.token is not None and self.delivery is not None else None
        spec = ReaderSpec(spec.fmt if spec.fmt is not None else fmt, spec.expected, spec.expected_from, key)
        return spec.reader(on_line)

    # -- the stream side ----------------------------------------------------------------------
    def bind(self, stream: _Stream) -> None:
        """Called by ``DeviceStream`` when it is created under this control (a retry binds again)."""
        with self._lock:
            self._stream = stream
            self.reader = stream.reader
            self.case_timeout = None
            note = self._stop_note
        if note is not None:
            stream.stop("stopped", note=note)

    @property
    def bound(self) -> bool:
        """Whether a stream of the run took this control (then ``stop`` reaches it)."""
        with self._lock:
            return self._stream is not None

    def stop(self, note: str = "stopped by the test") -> None:
        """Ends the run (from any thread); before the stream exists, as soon as it does."""
        with self._lock:
            self._stop_note = note
            stream = self._stream
        if stream is not None:
            stream.stop("stopped", note=note)

    # -- input ---------------------------------------------------------------------------------
    def attach_input(self, writer: Callable[[bytes], None]) -> None:
        """The backend's way to the device's input (it must not block: queue and write elsewhere);
        bytes sent before are handed to it now, in order."""
        with self._lock:
            if self._input_closed is not None:
                return
            self._writer = writer
            for data in self._pending:
                writer(data)
            self._pending = []

    def close_input(self, reason: str) -> None:
        with self._lock:
            if self._input_closed is None:
                self._input_closed = reason
            self._writer = None
            self._pending = []

    def send(self, data: bytes) -> None:
        """Queues ``data`` for the device's input; raises InputClosed once the run is over."""
        with self._lock:
            if self._input_closed is not None:
                raise InputClosed(self._input_closed)
            if self._writer is None:
                self._pending.append(bytes(data))
            else:
                self._writer(bytes(data))
