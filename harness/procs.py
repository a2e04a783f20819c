"""Every process the harness starts, and how none of them outlives it.

``spawn`` starts a program in its own process group (one ``killpg`` ends it and its
children) with the parent-death signal set (Linux: SIGKILL when the harness dies, even by
SIGKILL), and records the group until ``reap`` ends it. ``install_signal_handlers`` makes
SIGTERM and SIGHUP (a CI cancel, ``timeout``, a closed terminal) end every recorded group and
then interrupt the harness like Ctrl-C, so pytest and the CLI still write their reports.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any

_live: dict[int, subprocess.Popen[bytes]] = {}
_lock = threading.Lock()
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def spawn(argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen`` in a new process group that dies with the harness; recorded until reaped."""
    proc: subprocess.Popen[bytes] = subprocess.Popen(
        list(argv), start_new_session=True, preexec_fn=_die_with_parent, **kwargs
    )
    with _lock:
        _live[proc.pid] = proc
    return proc


def reap(proc: subprocess.Popen[bytes], term_first: bool = False) -> None:
    """Ends ``proc``'s whole process group and waits for the leader; safe if it already exited.

    The group id is the leader's pid, so children that outlive the leader (an emulator's
    helpers, a forked test) are found even after it was reaped.
    """
    pgid = proc.pid
    if term_first and proc.poll() is None:
        try:
            os.killpg(pgid, signal.SIGTERM)
            proc.wait(timeout=1.0)
        except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered
        proc.kill()
        proc.wait()
    with _lock:
        _live.pop(proc.pid, None)


def kill_all() -> None:
    """SIGKILL to every recorded process group (signal handlers, interpreter exit)."""
    with _lock:
        groups = list(_live)
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def live_pids() -> list[int]:
    with _lock:
        return [pid for pid, proc in _live.items() if proc.poll() is None]


class Terminated(KeyboardInterrupt):
    """SIGTERM/SIGHUP turned into an interrupt, so reports are still written."""


def _on_signal(number: int, frame: object) -> None:
    kill_all()
    raise Terminated(f"harness: received {signal.Signals(number).name}; stopped every device process")


_installed = False


def install_signal_handlers() -> None:
    """SIGTERM/SIGHUP end every recorded process group, then interrupt (main thread only)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    for number in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(number) in (signal.SIG_DFL, None):
            signal.signal(number, _on_signal)
    _installed = True


atexit.register(kill_all)
