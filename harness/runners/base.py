"""The runner contract: what every backend (host, QEMU, Renode, probes) returns.

A runner starts one firmware binary and feeds what the device prints into one
``harness.runners.stream.DeviceStream``, whose loop decides when the run is over (the log
format's end rule, the device's exit, a transport stop, the deadline). Interpreting the log
is the job of ``harness.formats``; runners know no sentinel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness.board.boards import Board
from harness.formats.reader import clean_line
from harness.run_result import RunResult

__all__ = [
    "EMULATED_LABEL", "DeviceConfigError", "DeviceSpec", "OnLine", "RunResult", "Runner",
    "ToolCheck", "captured_transports", "clean_line", "device_transports", "exits_with_status",
]


OnLine = Callable[[str], None] | None  # a live view of the device's lines (the terminal, a log file)


class Runner(Protocol):
    name: str

    def unavailable_reason(self, board: Board) -> str | None:
        """None when usable on this machine for ``board``; else why, and the install command."""
        ...

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult: ...


def exits_with_status(board: Board) -> bool:
    """Whether the board's firmware reports its exit over semihosting (``[run] exit_status``, default
    true): then a run's end waits for that exit. Set it false for firmware that never exits."""
    return bool(board.section("run").get("exit_status", True))


def captured_transports(board: Board) -> tuple[str, ...]:
    """Which output channels ("semihosting", "uart") an emulator runner merges into the log.

    Every channel a firmware may print to is captured, whatever the board's ``[log] transports`` say
    our own firmware uses: a foreign firmware on a UART board that prints over semihosting (or the
    reverse) must not lose its output without a word. The one exception: plain "semihosting" +
    "uart" mirror every string to both (boards/cortex_m/log.c), so capturing both would double every
    line; semihosting only then (synchronous, never drops bytes). "rtt" needs a probe; emulators skip it.
    """
    transports = tuple(board.raw.get("log", {}).get("transports", ()))
    if "semihosting" in transports and "uart" in transports:
        return ("semihosting",)
    return ("semihosting", "uart")


# The label of an emulated rack's devices (harness devices emulate): their runs set the emulation guard.
EMULATED_LABEL = "emulated"


class DeviceSpec(Protocol):
    """What a hardware backend's ``for_device(device, board, serial_url)`` reads of a hardware map
    device (``harness.hil.devices.Device``; the map itself sits above the runners)."""

    @property
    def id(self) -> str: ...
    @property
    def probe(self) -> str | None: ...
    @property
    def serial(self) -> str | None: ...
    @property
    def serial_number(self) -> str | None: ...
    @property
    def baudrate(self) -> int: ...
    @property
    def reset(self) -> str | list[str] | None: ...
    @property
    def gdb(self) -> str | None: ...
    @property
    def load(self) -> str | None: ...
    @property
    def trap_semihost(self) -> bool | None: ...
    @property
    def handshake(self) -> bool | None: ...
    @property
    def transports(self) -> list[str] | None: ...
    @property
    def labels(self) -> list[str]: ...


class DeviceConfigError(ValueError):
    """A hardware map device that its backend cannot use as written, with the fix in the message."""


def device_transports(device: DeviceSpec, board: Board) -> tuple[str, ...]:
    """The log transports of a device: the map's override, else the board's ``[log] transports``."""
    return tuple(device.transports) if device.transports else tuple(board.section("log").get("transports", []))


@dataclass(frozen=True)
class ToolCheck:
    """One line of ``harness doctor`` from a backend module's ``check_tools()``: what the backend needs
    on this machine, whether it is there, and the path/version found or the install command."""

    name: str
    ok: bool
    detail: str  # version/path when ok, the fix when not
    required: bool = False  # the main job needs it (QEMU): doctor's exit status fails without it


def tool_check(name: str, fix: str, required: bool = False, version_flag: str = "--version") -> ToolCheck:
    """A program on PATH: its path and first line of ``--version``, or the install command."""
    import shutil
    import subprocess

    path = shutil.which(name)
    if path is None:
        return ToolCheck(name, False, f"not found; install: {fix}", required)
    try:
        out = subprocess.run([path, version_flag], capture_output=True, text=True, timeout=10, check=False)
        lines = (out.stdout or out.stderr).strip().splitlines()
        version = lines[0] if lines else ""
    except (OSError, subprocess.TimeoutExpired) as error:
        version = f"(could not run: {error})"
    return ToolCheck(name, True, f"{path}: {version}", required)
