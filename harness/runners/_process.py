"""Runs one emulator/native process and streams its output until the run ends.

Shared by the process-based backends (host, QEMU, Renode). Reads the pipes
without blocking (selectors), stops promptly after the end markers, and
always kills the whole process group so no emulator outlives the run, also on
KeyboardInterrupt.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.runners.base import EndDetector

# Longest we wait for pipes to drain after the process exited: grandchildren
# holding the pipe open must not stall the run.
_DRAIN_S = 0.05
_POLL_S = 0.05


@dataclass
class ProcessOutcome:
    log: bytes
    stderr: bytes  # only when stderr is kept apart from the log (emulator diagnostics)
    returncode: int | None  # None when the harness killed the process
    timed_out: bool
    duration_s: float
    end_reason: str  # "exit" | "end-marker" | "crash" | "timeout"
    start_error: str | None = None  # the program could not be started at all


class _Tail:
    """Follows a file another process appends to; hands out complete lines only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.pending = b""

    def read_lines(self) -> bytes:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return b""  # not created yet
        self.offset += len(data)
        self.pending += data
        cut = self.pending.rfind(b"\n") + 1
        complete, self.pending = self.pending[:cut], self.pending[cut:]
        return complete

    def rest(self) -> bytes:
        rest, self.pending = self.pending, b""
        return rest


def _kill_group(proc: subprocess.Popen[bytes], term_first: bool) -> None:
    """Ends the process group and reaps the leader; safe if it already exited.

    The group id is the leader's pid (start_new_session), so children that outlive
    the leader (an emulator's helpers, a forked test) are found even after it was reaped.
    """
    pgid = proc.pid
    if term_first and proc.poll() is None:
        try:
            os.killpg(pgid, signal.SIGTERM)
            proc.wait(timeout=1.0)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered
        proc.kill()
        proc.wait()


def run_process(
    argv: Sequence[str | Path],
    timeout_s: float,
    on_line: Callable[[str], None] | None = None,
    *,
    merge_stderr: bool,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    term_first: bool = False,
    log_from_stdout: bool = True,
    tail_files: Sequence[Path] = (),
    hold_stdin: bool = False,
) -> ProcessOutcome:
    """Runs ``argv`` until it exits, prints an end marker (plus a grace), or times out.

    ``tail_files`` are files the program writes the device output into (Renode's UART
    file backends); they are polled and merged into the log line by line, in arrival
    order. With ``log_from_stdout=False`` stdout is only diagnostics (returned as stderr).
    ``hold_stdin`` gives the program an open, silent stdin (an interactive console such as
    Renode's monitor may quit on end-of-file).
    """
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            [str(a) for a in argv],
            stdin=subprocess.PIPE if hold_stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,  # own process group: one killpg ends emulator + children
        )
    except OSError as error:
        return ProcessOutcome(b"", b"", None, False, time.monotonic() - start, "exit", start_error=str(error))

    detector = EndDetector(on_line)
    log = bytearray()
    err = bytearray()
    sel = selectors.DefaultSelector()
    if not log_from_stdout:
        streams = {proc.stdout: err} if merge_stderr else {proc.stdout: err, proc.stderr: err}
    else:
        streams = {proc.stdout: log} if merge_stderr else {proc.stdout: log, proc.stderr: err}
    tails = [_Tail(path) for path in tail_files]

    def pump_tails() -> None:
        for tail in tails:
            data = tail.read_lines()
            if data:
                log.extend(data)
                detector.feed(data)

    for stream in streams:
        assert stream is not None
        os.set_blocking(stream.fileno(), False)
        sel.register(stream, selectors.EVENT_READ)

    def pump(wait_s: float) -> None:
        for key, _ in sel.select(timeout=wait_s):
            try:
                data = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if not data:
                sel.unregister(key.fileobj)
                continue
            sink = streams[key.fileobj]  # type: ignore[index]
            sink += data
            if sink is log:
                detector.feed(data)

    deadline = start + timeout_s
    end_at: float | None = None
    end_reason = "timeout"
    timed_out = False
    returncode: int | None = None
    try:
        while True:
            now = time.monotonic()
            limit = deadline if end_at is None else min(deadline, end_at)
            if sel.get_map():
                pump(max(0.0, min(_POLL_S, limit - now)))
            else:
                # Pipes closed: the process is exiting; wake the moment it does.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=max(0.0, min(_POLL_S, limit - now)))
            pump_tails()
            grace = detector.end_grace() if end_at is None else None
            if grace is not None:
                end_at, end_reason = time.monotonic() + grace[0], grace[1]
            code = proc.poll()
            if code is not None:
                # Exited: collect what is still in the pipes, briefly.
                drain_until = time.monotonic() + _DRAIN_S
                while sel.get_map() and time.monotonic() < drain_until:
                    pump(_DRAIN_S)
                pump_tails()
                returncode = code
                end_reason = "crash" if detector.crash_seen or code < 0 else "exit"
                break
            now = time.monotonic()
            if end_at is not None and (now >= end_at or now >= deadline):
                break  # end marker seen and the grace ran out: stop the device
            if now >= deadline:
                timed_out = True
                end_reason = "timeout"
                break
    finally:
        _kill_group(proc, term_first)
        pump_tails()
        for tail in tails:
            rest = tail.rest()
            log.extend(rest)
            detector.feed(rest)
        detector.flush()
        sel.close()
        if proc.stdin is not None:
            proc.stdin.close()
        for stream in streams:
            if stream is not None:
                stream.close()
    return ProcessOutcome(bytes(log), bytes(err), returncode, timed_out, time.monotonic() - start, end_reason)
