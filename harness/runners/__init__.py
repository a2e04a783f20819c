"""Backends that run a firmware binary: one small module per backend.

``REGISTRY`` is the one list of backends: name -> the module, its runner class and its kind
(``host``, ``emulator`` or ``hardware``). ``get_runner(name)`` imports the module lazily, so a
backend with heavy imports (pyocd, pyserial) costs nothing until used. Everything that names
backends reads this list: ``harness run --backend`` and ``pytest --backend`` choices, ``harness
doctor`` (a backend module's ``check_tools()``), and the hardware map (the ``hardware`` backends;
a device is bound to its runner by the module's ``for_device()``). Adding a backend is one module
and one line here (docs/extending.md).

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
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Literal

from harness.board.boards import Board
from harness.runners.base import Runner, RunResult

__all__ = [
    "REGISTRY", "Backend", "ResolveError", "RunResult", "Runner", "available_backends", "backend_module",
    "default_backend", "get_runner", "runner_for",
]

Kind = Literal["host", "emulator", "hardware"]


@dataclass(frozen=True)
class Backend:
    """One backend: the module that implements it, its runner class, and what it runs on."""

    module: str
    runner_class: str
    kind: Kind


REGISTRY: dict[str, Backend] = {
    "host": Backend("harness.runners.host", "HostRunner", "host"),
    "qemu": Backend("harness.runners.qemu", "QemuRunner", "emulator"),
    "renode": Backend("harness.runners.renode", "RenodeRunner", "emulator"),
    "pyocd": Backend("harness.runners.pyocd_runner", "PyocdRunner", "hardware"),
    "serial": Backend("harness.runners.serial_runner", "SerialRunner", "hardware"),
    "gdbremote": Backend("harness.runners.gdbremote_runner", "GdbRemoteRunner", "hardware"),
}


class UnknownBackendError(ValueError):
    """A backend name that no runner module implements."""


def available_backends(kind: Kind | None = None) -> list[str]:
    """Names (of ``kind``, when given) whose module exists here (installed tools are not checked)."""
    names = []
    for name, backend in REGISTRY.items():
        if (kind is None or backend.kind == kind) and importlib.util.find_spec(backend.module) is not None:
            names.append(name)
    return names


def backend_module(name: str) -> ModuleType:
    """The module of backend ``name``; ModuleNotFoundError when it, or a package it needs, is missing."""
    entry = REGISTRY.get(name)
    if entry is None:
        raise UnknownBackendError(f"unknown backend '{name}'; choose one of: {', '.join(REGISTRY)}")
    return importlib.import_module(entry.module)


def missing_package(backend: str, package: str | None) -> str:
    """Why ``backend`` cannot load: the Python package it needs (``ModuleNotFoundError.name``), with the fix."""
    top = (package or "?").split(".")[0]
    return f"backend '{backend}' needs the Python package '{top}'; install it: pip install {top}"


def get_runner(name: str) -> Runner:
    try:
        module = backend_module(name)  # UnknownBackendError for a name not in REGISTRY
    except ModuleNotFoundError as error:
        module_name = REGISTRY[name].module
        if error.name != module_name:
            # The backend exists but a Python package it needs (pyocd, pyserial) does not.
            return _MissingPackageRunner(name, error.name or "?")
        raise UnknownBackendError(
            f"backend '{name}' is not implemented in this checkout (no module {module_name}); "
            f"available: {', '.join(available_backends())}"
        ) from error
    runner: Runner = getattr(module, REGISTRY[name].runner_class)()
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
        return missing_package(self.name, self.package)

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
