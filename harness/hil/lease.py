"""Board leases: one process at a time per device, through an OS-level file lock.

Each device has a lock file; a lease is an exclusive ``fcntl.flock`` on it.
The kernel drops the lock when the holder's file descriptor closes, so a
worker that crashes or is killed never leaves a board booked. The holder's
pid, host and start time are written into the file for ``harness devices list``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import socket
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_POLL_S = 0.1


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "_"


def map_state_dir(map_path: Path) -> Path:
    """Where the state of a hardware map (leases, quarantine) lives: beside the map, except for a map
    inside the project (this checkout, or a user's project), whose state goes to ``<build folder>/hil/``
    (never the source tree)."""
    from harness import REPO_ROOT
    from harness.core import project

    folder = map_path.resolve().parent
    proj = project.current()
    gen = proj.build_dir
    for root in {proj.root, REPO_ROOT}:
        if (folder == root or root in folder.parents) and folder != gen and gen not in folder.parents:
            return gen / "hil"
    return folder


def default_lock_dir(map_path: Path | None) -> Path:
    """``<state dir>/.<map stem>.locks`` (shared by everyone using that map; ``map_state_dir``), else a
    temp folder."""
    if map_path is not None:
        candidate = map_state_dir(map_path) / f".{map_path.stem}.locks"
        try:
            candidate.mkdir(parents=True, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
        except OSError:
            pass
    fallback = Path(tempfile.gettempdir()) / f"harness-locks-{os.getuid()}"
    fallback.mkdir(exist_ok=True)
    return fallback


@dataclass
class Lease:
    device_id: str
    path: Path
    _fd: int | None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing drops the flock
            self._fd = None

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def try_acquire(device_id: str, lock_dir: Path) -> Lease | None:
    """The lease on ``device_id`` if nobody holds it, else None (never waits)."""
    path = lock_dir / f"{_safe(device_id)}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    info = f"pid={os.getpid()} host={socket.gethostname()} since={time.strftime('%Y-%m-%dT%H:%M:%S')}\n"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, info.encode(), 0)
    return Lease(device_id, path, fd)


def acquire_any(device_ids: Iterable[str], lock_dir: Path, timeout_s: float) -> Lease | None:
    """The first free device of ``device_ids``, waiting up to ``timeout_s`` for one; None if all stay busy."""
    ids = list(device_ids)
    if not ids:
        return None
    deadline = time.monotonic() + max(0.0, timeout_s)
    while True:
        for device_id in ids:
            lease = try_acquire(device_id, lock_dir)
            if lease is not None:
                return lease
        if time.monotonic() >= deadline:
            return None
        time.sleep(_POLL_S)


def holder(device_id: str, lock_dir: Path) -> str | None:
    """Who holds the lease (the info line), or None if the device is free."""
    lease = try_acquire(device_id, lock_dir)
    if lease is not None:
        lease.release()
        return None
    path = lock_dir / f"{_safe(device_id)}.lock"
    try:
        return path.read_text().strip() or "held"
    except OSError:
        return "held"


@contextlib.contextmanager
def file_lock(path: Path, timeout_s: float = 10.0) -> Iterator[None]:
    """A short exclusive lock (read-modify-write of a shared file such as the state file)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TimeoutError(
                        f"{path} stayed locked for {timeout_s:.0f} s; is another harness stuck?"
                    ) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)
