"""What the process keeps open between runs, closed once at the end: a registry of shutdown callbacks.

A module that opens something long-lived for the whole process (an xdist worker is a process) says
how to close it when it opens it: ``on_session_end(callback)``. The Renode runner registers
``close_session`` when it starts a Renode, the farm runner ``close_sessions`` when it acquires a
labgrid place. The front ends call ``run_shutdown()`` once when they are done: the pytest plugin at
session finish, the CLI when its command returned. So no front end needs to know which modules hold
what, and a module that was never used is not imported to ask.

A callback runs once per registration: ``run_shutdown`` forgets what it ran, and a module that
opens again registers again (the same callback registered twice before a shutdown runs once). The
modules keep their own ``atexit`` hooks for an interpreter that ends without a front end's shutdown.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_callbacks: list[Callable[[], None]] = []
_lock = threading.Lock()


def on_session_end(callback: Callable[[], None]) -> None:
    """``callback`` runs at the next ``run_shutdown`` (once, however often it is registered before)."""
    with _lock:
        if callback not in _callbacks:
            _callbacks.append(callback)


def run_shutdown() -> None:
    """Runs every registered callback in the order they were registered, and forgets them.

    Every callback runs even when one raises; the first error is raised once all have run.
    """
    with _lock:
        callbacks = list(_callbacks)
        _callbacks.clear()
    first_error: Exception | None = None
    for callback in callbacks:
        try:
            callback()
        except Exception as error:
            if first_error is None:
                first_error = error
    if first_error is not None:
        raise first_error
