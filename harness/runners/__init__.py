"""Backends that run a firmware binary: one small module per backend.

``get_runner(name)`` looks the backend up in ``_REGISTRY`` (name -> module
path, class name) and imports it lazily, so adding a backend is one line
here and a backend with heavy imports (pyocd, pyserial) costs nothing until used.
"""

from __future__ import annotations

import importlib
import importlib.util

from harness.boards import Board
from harness.runners.base import Runner, RunResult

__all__ = ["RunResult", "Runner", "available_backends", "default_backend", "get_runner"]

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
            raise
        raise UnknownBackendError(
            f"backend '{name}' is not implemented in this checkout (no module {module_name}); "
            f"available: {', '.join(available_backends())}"
        ) from error
    runner: Runner = getattr(module, class_name)()
    return runner


def default_backend(board: Board) -> str:
    """host board -> "host"; else Renode when installed, else QEMU."""
    if board.is_host:
        return "host"
    if get_runner("renode").unavailable_reason(board) is None:
        return "renode"
    return "qemu"
