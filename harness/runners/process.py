"""Runs one emulator/native process and streams its output into the one run loop.

Shared by the process-based backends (host, QEMU). The pipes are read by producer threads
into a ``DeviceStream``; a waiter thread reports the exit status of the main process (the group
leader) after the pipes drained. The loop (``DeviceStream.follow``) decides the end.

A run covers the whole process group: what children print shares the pipes, and when the loop
ended at the main process's exit, the run goes on until every process of the group has exited
and the pipes are closed, for at most ``GROUP_LINGER_S`` (and never past the deadline). A process
of the group still alive then, or when the run ended otherwise after the main process exited, is
a problem of the run (``ProcessOutcome.problems``: it fails the run), noted in the log and killed.
A process that left the group (``setsid()``) is not followed; if it keeps a pipe open past the
linger, that is a problem too, but nothing kills it. A run whose group is empty and pipes closed
when the main process exits ends at once. The exit status stays the main process's.

Afterwards the whole process group is killed (``harness.core.procs.reap``), also on KeyboardInterrupt
and SIGTERM, so no emulator outlives the run.

When the caller's ``RunControl`` wants input (``dut.write``), the process's stdin is a pipe that a
feeder thread writes the sent bytes to (through ``input_filter``, e.g. QEMU's mux escape);
otherwise stdin is ``/dev/null``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from harness.core import procs
from harness.run_result import Note
from harness.runners.control import active_control
from harness.runners.stream import DeviceStream

# Longest the exit waits for the pipes to drain before the loop hears of it (the rest of the group
# gets its linger after that).
_DRAIN_S = 0.05
# How long the rest of the process group may run after the main process exited (same as the
# window a process gets to exit after printing its end of run, harness.formats.reader.EXIT_AFTER_END_S).
GROUP_LINGER_S = 3.0
# How long a killed leftover may take to be gone.
_GONE_S = 1.0


@dataclass
class ProcessOutcome:
    log: bytes
    stderr: bytes  # only when stderr is kept apart from the log (emulator diagnostics)
    returncode: int | None  # None when the harness stopped the process
    timed_out: bool
    duration_s: float
    end_reason: str  # "exit" | "end-marker" | "no-exit" | "crash" | "timeout"
    start_error: str | None = None  # the program could not be started at all
    case_seconds: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # e.g. a process of the group left running
    notes: list[Note] = field(default_factory=list)  # the harness's remarks (harness.run_result.Note)
    pid: int | None = None  # the main process, also the process group's id
    started_at: float = 0.0  # time.monotonic() at the start
    exited_at: float | None = None  # time.monotonic() when the main process's exit was seen


def _pump(pipe: IO[bytes], sink: Callable[[bytes], None]) -> None:
    fd = pipe.fileno()
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        sink(data)


class _InputFeeder:
    """Writes what the test sends to a process's stdin, in order, from its own thread (a device that
    does not read must not block the test); stops at the first failed write (the process is gone)."""

    def __init__(self, pipe: IO[bytes], transform: Callable[[bytes], bytes] | None) -> None:
        self._pipe = pipe
        self._transform = transform
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="device-input", daemon=True)
        self._thread.start()

    def put(self, data: bytes) -> None:
        self._queue.put(self._transform(data) if self._transform is not None else data)

    def _loop(self) -> None:
        fd = self._pipe.fileno()
        while True:
            data = self._queue.get()
            if data is None:
                break
            try:
                while data:
                    data = data[os.write(fd, data):]
            except OSError:
                break
        with contextlib.suppress(OSError):
            self._pipe.close()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(_DRAIN_S)


def run_process(
    argv: Sequence[str | Path],
    timeout_s: float,
    on_line: Callable[[str], None] | None = None,
    *,
    merge_stderr: bool,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    term_first: bool = False,
    fmt: str | None = None,
    exit_status: bool = True,
    input_filter: Callable[[bytes], bytes] | None = None,
) -> ProcessOutcome:
    """Runs ``argv`` until the stream's end rule, its exit, or the timeout (see module doc).

    ``exit_status``: the process's exit is the device's (host binary; QEMU with semihosting):
    the end of the run then waits for it. ``input_filter``: how sent bytes are encoded for stdin.
    """
    start = time.monotonic()
    control = active_control()
    wants_input = control is not None and control.wants_input
    try:
        proc = procs.spawn(
            [str(a) for a in argv],
            stdin=subprocess.PIPE if wants_input else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
    except OSError as error:
        return ProcessOutcome(b"", b"", None, False, time.monotonic() - start, "exit", start_error=str(error))

    stream = DeviceStream(on_line, fmt=fmt, exit_status=exit_status, started_at=start)
    feeder = None
    if wants_input and control is not None and proc.stdin is not None:
        feeder = _InputFeeder(proc.stdin, input_filter)
        control.attach_input(feeder.put)
    err = bytearray()
    err_lock = threading.Lock()

    def keep_err(data: bytes) -> None:
        with err_lock:
            err.extend(data)

    assert proc.stdout is not None
    readers = [threading.Thread(target=_pump, args=(proc.stdout, stream.put), daemon=True)]
    if proc.stderr is not None:
        readers.append(threading.Thread(target=_pump, args=(proc.stderr, keep_err), daemon=True))

    exited_at: list[float] = []  # set once, by the waiter, when the main process is gone

    def wait_exit() -> None:
        code = proc.wait()
        exited_at.append(time.monotonic())
        for reader in readers:
            reader.join(_DRAIN_S)
        stream.exit(code)

    for reader in readers:
        reader.start()
    waiter = threading.Thread(target=wait_exit, daemon=True)
    waiter.start()
    deadline = start + timeout_s
    problems: list[str] = []
    left: list[tuple[int, str]] = []
    try:
        end = stream.follow(deadline)
        if exited_at:
            # The main process exited: the run is over when the rest of its group is. Only an end
            # at that exit gives the group its linger; any other end (deadline, end rule, stop) is now.
            by_exit = end.exit_code is not None
            until = min(exited_at[0] + GROUP_LINGER_S, deadline) if by_exit else 0.0
            left, problems, lingered = _await_group(proc.pid, readers, until, by_exit)
            if lingered:
                end.duration_s = time.monotonic() - start
            for problem in problems:
                stream.note(problem)
    except KeyboardInterrupt as stop:
        if not isinstance(stop, procs.Terminated):  # a Terminated noted its signal already
            procs.note_harness_signal("KeyboardInterrupt")
        raise
    finally:
        if control is not None:
            control.close_input("the device's run ended")
        procs.reap(proc, term_first)
        if left:
            _await_gone(proc.pid)
        if feeder is not None:
            feeder.close()
        for reader in readers:
            reader.join(_DRAIN_S)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    end = stream.finish(end)
    returncode = end.exit_code  # only an exit the stream saw: never the kill that ended the run
    with err_lock:
        diag = bytes(err)
    reason = "crash" if returncode is not None and returncode < 0 else end.end_reason  # killed by a signal
    return ProcessOutcome(end.log, diag, returncode, end.timed_out, end.duration_s, reason,
                          case_seconds=end.case_seconds, problems=problems, notes=end.notes, pid=proc.pid,
                          started_at=start,
                          exited_at=exited_at[0] if exited_at else None)


def _await_group(
    pgid: int, readers: Sequence[threading.Thread], until: float, pipes_count: bool
) -> tuple[list[tuple[int, str]], list[str], bool]:
    """Waits until group ``pgid`` is empty and every pipe reader saw EOF, or the monotonic time ``until``.

    Returns what of the group still runs then, the problems of the run, and whether it waited at all.
    ``pipes_count``: a pipe still open when the group is gone is a problem too (after a whole linger).
    """
    lingered = False
    while True:
        members = procs.group_members(pgid)
        open_pipes = any(reader.is_alive() for reader in readers)
        if not members and not open_pipes:
            return [], [], lingered
        now = time.monotonic()
        if now >= until:
            break
        lingered = True
        time.sleep(min(0.02, until - now))
    problems = [f"left process {pid} running ({_short(cmdline)}) after the test's main process exited"
                for pid, cmdline in members]
    if not members and pipes_count and any(_still_open(reader) for reader in readers):
        # only a process outside the group (setsid) can still hold the pipe
        problems.append("the output pipe stayed open after the test's main process and its process group "
                        "exited: a process that left the group (setsid) still holds it")
    return members, problems, lingered


def _still_open(reader: threading.Thread) -> bool:
    """Whether pipe reader ``reader`` is still running after a last short wait for its EOF."""
    reader.join(_DRAIN_S)
    return reader.is_alive()


def _await_gone(pgid: int) -> None:
    """After the group was killed: until none of it runs any more (bounded)."""
    gone_by = time.monotonic() + _GONE_S
    while procs.group_members(pgid) and time.monotonic() < gone_by:
        time.sleep(0.01)


def _short(cmdline: str, limit: int = 160) -> str:
    return cmdline if len(cmdline) <= limit else cmdline[: limit - 3] + "..."
