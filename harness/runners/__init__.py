"""Backends that run a firmware binary: one small module per backend.

``get_runner(name)`` looks the backend up in ``REGISTRY`` (name -> module
path, class name) and imports it lazily, so adding a backend is one line
here and a backend with heavy imports (pyocd, pyserial) costs nothing until used.

Stages 3 and 4, runner and log stream: backends only produce bytes into one stream
(``stream``) with one deadline and one end rule, read once by ``harness.formats.reader``; also the
run control (token delivery, ``control``), retries (``retry``, ``failure_classes``), semihosting,
the GDB remote client (``gdbremote``) and Renode's generated scripts (``renode_scripts``).

May import: ``harness.core``, ``harness.board``, ``harness.build`` and ``harness.formats``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path

from harness.board.boards import Board
from harness.runners.base import Runner, RunResult

__all__ = [
    "REGISTRY", "ResolveError", "RunResult", "Runner", "available_backends", "default_backend", "get_runner",
    "runner_for",
]

REGISTRY: dict[str, tuple[str, str]] = {
    "host": ("harness.runners.host", "HostRunner"),
    "qemu": ("harness.runners.qemu", "QemuRunner"),
    "renode": ("harness.runners.renode", "RenodeRunner"),
    "pyocd": ("harness.runners.pyocd_runner", "PyocdRunner"),
    "serial": ("harness.runners.serial_runner", "SerialRunner"),
    "gdbremote": ("harness.runners.gdbremote_runner", "GdbRemoteRunner"),
}


class UnknownBackendError(ValueError):
    """A backend name that no runner module implements."""


def available_backends() -> list[str]:
    """Names whose module exists in this checkout (installed tools are not checked)."""
    names = []
    for name, (module, _) in REGISTRY.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_runner(name: str) -> Runner:
    entry = REGISTRY.get(name)
    if entry is None:
        known = ", ".join(REGISTRY)
        raise UnknownBackendError(f"unknown backend '{name}'; choose one of: {known}")
    module_name, class_name = entry
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            # The backend exists but a Python package it needs (pyocd, pyserial) does not.
            return _MissingPackageRunner(name, error.name or "?")
        raise UnknownBackendError(
            f"backend '{name}' is not implemented in this checkout (no module {module_name}); "
            f"available: {', '.join(available_backends())}"
        ) from error
    runner: Runner = getattr(module, class_name)()
    return runner


def runner_for(backend: str, icount: int | None = None) -> Runner:
    """The runner of ``backend``; with ``icount`` (``--icount``) a QEMU runner with that -icount shift."""
    if backend == "qemu" and icount is not None:
        from harness.runners.qemu import QemuRunner

        return QemuRunner(icount=icount)
    return get_runner(backend)


class _MissingPackageRunner:
    """Stands in for a backend whose Python dependency is not installed: usable as a skip reason."""

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        self.package = package

    def unavailable_reason(self, board: Board) -> str | None:
        top = self.package.split(".")[0]
        return f"backend '{self.name}' needs the Python package '{top}'; install it: pip install {top}"

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: Callable[[str], None] | None = None) -> RunResult:
        reason = self.unavailable_reason(board)
        return RunResult(self.name, b"", None, False, 0.0, "infra-error", infra_error=reason)


def default_backend(board: Board) -> str:
    """host board -> "host"; else Renode when installed, else QEMU."""
    if board.is_host:
        return "host"
    if get_runner("renode").unavailable_reason(board) is None:
        return "renode"
    return "qemu"


class ResolveError(ValueError):
    """Board + options that name no runner (unknown backend, --icount without QEMU, bad map): a usage error."""
