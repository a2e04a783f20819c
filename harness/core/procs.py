"""Every process the harness starts, and how none of them outlives it.

``spawn`` starts a program in its own process group (one ``killpg`` ends it and its
children) with the parent-death signal set (Linux: SIGKILL when the harness dies, even by
SIGKILL), and records the group until ``reap`` ends it. ``install_signal_handlers`` makes
SIGTERM and SIGHUP (a CI cancel, ``timeout``, a closed terminal) end every recorded group and
then interrupt the harness like Ctrl-C, so pytest and the CLI still write their reports.

It also keeps what the harness did with signals, so a runner can tell a test that killed itself
from one that was stopped: every signal the harness sends to a process group (``signal_sent``)
and the last signal the harness itself received (``harness_signal``: SIGTERM/SIGHUP through
``install_signal_handlers``, Ctrl-C noted as a KeyboardInterrupt). ``group_members`` lists what
still runs in a process group.
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
import time
from collections.abc import Sequence
from typing import Any

_live: dict[int, subprocess.Popen[bytes]] = {}
_lock = threading.Lock()
# pgid -> (signal name, monotonic time) of the first signal the harness sent to that group; a new
# process spawned with that pid starts afresh.
_sent: dict[int, tuple[str, float]] = {}
# The last signal the harness process received: (name, monotonic time).
_received: tuple[str, float] | None = None
_PR_SET_PDEATHSIG = 1


def _resolve_prctl() -> Any:
    """libc's prctl, looked up once in the parent: the child must not load libraries (a fork of a threaded
    process can hold the loader's lock), only call it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _resolve_prctl()


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if _PRCTL is not None:
        with contextlib.suppress(Exception):
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _pdeathsig_wrapper() -> list[str] | None:
    """``setpriv --pdeathsig KILL --`` (util-linux) when this machine has it: it sets the parent-death signal and
    execs the program in the same process, so the child runs no Python between fork and exec at all (Python's
    ``preexec_fn`` is not safe in a process with other threads: a QEMU started beside gRPC's threads died of
    SIGSEGV before it ran)."""
    import shutil

    setpriv = shutil.which("setpriv")
    if setpriv is None or not sys.platform.startswith("linux"):
        return None
    try:
        usage = subprocess.run([setpriv, "--help"], capture_output=True, text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [setpriv, "--pdeathsig", "KILL", "--"] if "--pdeathsig" in usage else None


_WRAPPER: list[str] | None | bool = False  # False: not looked up yet


def _launcher() -> list[str] | None:
    global _WRAPPER
    if _WRAPPER is False:
        _WRAPPER = _pdeathsig_wrapper()
    return _WRAPPER if isinstance(_WRAPPER, list) else None


# Every process spawn() starts carries the session's id in its environment, so the session can
# find what outlived it even after it was re-parented (harness.pytest.plugin checks at the end of a run).
SESSION_ENV = "MICRO_HARNESS_SESSION"
SPAWNED_ENV = "MICRO_HARNESS_SPAWNED"


def _check_executable(command: list[str], env: dict[str, str], cwd: Any = None) -> None:
    """What Popen's own exec would refuse, refused the same way (an OSError) before the wrapper runs: a
    missing program, and a file that is neither a binary nor a ``#!`` script (Popen: "Exec format error"; the
    wrapper's execvp would hand it to /bin/sh instead)."""
    import errno
    import shutil

    program = command[0] if command else ""
    if cwd is not None and os.sep in program and not os.path.isabs(program):
        program = os.path.join(str(cwd), program)  # Popen resolves it in the child, after the chdir
    found = shutil.which(program, path=env.get("PATH")) if program else None
    if found is None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", command[0] if command else "")
    try:
        with open(found, "rb") as binary:
            head = binary.read(4)
    except OSError as error:
        raise PermissionError(errno.EACCES, "Permission denied", command[0]) from error
    if head != b"\x7fELF" and not head.startswith(b"#!"):
        raise OSError(errno.ENOEXEC, "Exec format error", command[0])


def spawn(argv: Sequence[str], *, die_with_parent: bool = True, **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen`` in a new process group that dies with the harness; recorded until reaped.

    ``die_with_parent=False``: no ``preexec_fn`` (Python then forks without running its own code in the child),
    for a process started from a thread while other threads run (gRPC's, in a labgrid client): a Python-level
    child hook there can crash the child before it runs anything. Such a child does not die with the harness on
    its own; the session's leftover check (``end_leftovers``) and ``reap`` still end it."""
    env = dict(kwargs.pop("env", None) or os.environ)
    env[SPAWNED_ENV] = env.get(SESSION_ENV, str(os.getpid()))
    command = list(argv)
    launcher = _launcher() if die_with_parent else None
    if launcher is not None:
        _check_executable(command, env, kwargs.get("cwd"))
        command = [*launcher, *command]
    proc: subprocess.Popen[bytes] = subprocess.Popen(
        command, start_new_session=True,
        preexec_fn=_die_with_parent if die_with_parent and launcher is None else None, env=env, **kwargs
    )
    with _lock:
        _live[proc.pid] = proc
        _sent.pop(proc.pid, None)  # the pid (and so the group id) of a process that is gone
    return proc


def signal_group(pgid: int, sig: int) -> None:
    """``os.killpg``, recorded first (``signal_sent``) so a death it causes is never seen before the record."""
    with _lock:
        _sent.setdefault(pgid, (signal.Signals(sig).name, time.monotonic()))
    os.killpg(pgid, sig)


def signal_sent(pgid: int, before: float | None = None) -> str | None:
    """The name of the first signal the harness sent to group ``pgid`` (at or before the monotonic
    time ``before``, when given), else None."""
    with _lock:
        sent = _sent.get(pgid)
    if sent is None or (before is not None and sent[1] > before):
        return None
    return sent[0]


def note_harness_signal(name: str) -> None:
    """The harness process itself was told to stop (a signal's name, or "KeyboardInterrupt")."""
    global _received
    with _lock:
        _received = (name, time.monotonic())


def harness_signal(since: float) -> str | None:
    """What stopped the harness at or after the monotonic time ``since`` (``note_harness_signal``), else None."""
    with _lock:
        received = _received
    if received is None or received[1] < since:
        return None
    return received[0]


def group_members(pgid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the live processes of process group ``pgid``; zombies do not count.

    Found by the group id in /proc/*/stat, so it sees children that were re-parented after their
    parent exited; a process that left the group (``setsid``, ``setpgid``) is not found.
    """
    try:
        os.killpg(pgid, 0)  # cheap: nothing (not even a zombie) in the group
    except ProcessLookupError:
        return []
    except PermissionError:
        pass
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                comm, rest = handle.read().rsplit(")", 1)
            fields = rest.split()  # state, ppid, pgrp, ...
            if fields[0] == "Z" or int(fields[2]) != pgid:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError, ValueError):
            continue
        found.append((int(entry), cmdline or comm.split("(", 1)[-1]))
    return found


def reap(proc: subprocess.Popen[bytes], term_first: bool = False) -> None:
    """Ends ``proc``'s whole process group and waits for the leader; safe if it already exited.

    The group id is the leader's pid, so children that outlive the leader (an emulator's
    helpers, a forked test) are found even after it was reaped.
    """
    pgid = proc.pid
    if term_first and proc.poll() is None:
        try:
            signal_group(pgid, signal.SIGTERM)
            proc.wait(timeout=1.0)
        except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        signal_group(pgid, signal.SIGKILL)
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
            signal_group(pgid, signal.SIGKILL)


def live_pids() -> list[int]:
    with _lock:
        return [pid for pid, proc in _live.items() if proc.poll() is None]


def new_session() -> str:
    """Starts a harness session: processes spawned from now on (here and in children) carry its id."""
    session = f"{os.getpid()}-{time.time_ns()}"
    os.environ[SESSION_ENV] = session
    return session


def leftovers(session: str) -> list[tuple[int, str]]:
    """(pid, command line) of live processes that ``spawn`` started in ``session`` (any parent)."""
    found = []
    marker = f"{SPAWNED_ENV}={session}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if marker not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        found.append((int(entry), cmdline))
    return found


def end_leftovers(session: str, wait_s: float = 2.0) -> list[tuple[int, str]]:
    """What of ``session`` still runs after ``wait_s``; each of those is killed. Empty: nothing leaked."""
    deadline = time.monotonic() + wait_s
    while True:
        left = leftovers(session)
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    for pid, _ in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            signal_group(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return left


class Terminated(KeyboardInterrupt):
    """SIGTERM/SIGHUP turned into an interrupt, so reports are still written."""


def _on_signal(number: int, frame: object) -> None:
    note_harness_signal(signal.Signals(number).name)  # before the kill: a runner must see why its test died
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
