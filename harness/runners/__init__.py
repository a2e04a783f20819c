"""Backends that run a firmware binary: one small module per backend.

``get_runner(name)`` looks the backend up in ``_REGISTRY`` (name -> module
path, class name) and imports it lazily, so adding a backend is one line
here and a backend with heavy imports (pyocd, pyserial) costs nothing until used.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.boards import Board
from harness.runners.base import Runner, RunResult

__all__ = [
    "Resolved", "ResolveError", "RunResult", "Runner", "available_backends", "default_backend", "get_runner",
    "resolve_runner", "runner_for",
]

_REGISTRY: dict[str, tuple[str, str]] = {
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
    for name, (module, _) in _REGISTRY.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_runner(name: str) -> Runner:
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(_REGISTRY)
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


@dataclass
class Resolved:
    runner: Runner
    label: str  # for reports: the backend name, or hil:<backends> of the map's boards


def resolve_runner(
    board: Board,
    backend: str | None = None,
    icount: int | None = None,
    hardware_map: Any = None,
    map_runner: Any = None,
) -> Resolved:
    """The one place that turns a board and the options into the runner that runs its binaries.

    Used by the pytest items, the ``dut`` fixture, ``harness run``, the Robot library and run-model.
    ``hardware_map`` (a path or a loaded map) or an already made ``map_runner`` (the plugin's, with
    its retry setting) sends MCU boards to the map's leased boards; the host board always runs
    natively. ``icount`` (QEMU's -icount shift) picks QEMU when no backend is named and is a usage
    error with any other backend.
    """
    from harness.runners.qemu import icount_problem

    if board.is_host:
        return Resolved(get_runner("host"), "host")
    if hardware_map is not None and map_runner is None:
        from harness.hardware_map import HardwareMapError, select_runner_for

        try:
            map_runner = select_runner_for(board, hardware_map)
        except HardwareMapError as error:
            raise ResolveError(str(error)) from error
    if map_runner is not None:
        if icount is not None:
            raise ResolveError(icount_problem("hil") or "--icount does not apply to a hardware map")
        from harness.hil_plugin import map_backend_label

        return Resolved(map_runner, map_backend_label(map_runner.hardware_map, board.name))
    if backend is not None and backend not in _REGISTRY:
        raise ResolveError(f"unknown backend '{backend}'; choose one of: {', '.join(_REGISTRY)}")
    name = backend or ("qemu" if icount is not None else None)
    if name is None:
        try:
            name = default_backend(board)
        except Exception:  # a backend module that fails to import must not stop the run
            name = "qemu"
    if icount is not None:
        problem = icount_problem(name)
        if problem is not None:
            raise ResolveError(problem)
    return Resolved(runner_for(name, icount), name)
