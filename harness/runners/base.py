"""The runner contract: what every backend (host, QEMU, Renode, probes) returns.

A runner starts one firmware binary and feeds what the device prints into one
``harness.runners.stream.DeviceStream``, whose loop decides when the run is over (the log
format's end rule, the device's exit, a transport stop, the deadline). Interpreting the log
is the job of ``harness.formats``; runners know no sentinel.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from harness.board.boards import Board
from harness.formats.reader import clean_line
from harness.run_result import RunResult

__all__ = ["RunResult", "Runner", "captured_transports", "clean_line", "exits_with_status"]


class Runner(Protocol):
    name: str

    def unavailable_reason(self, board: Board) -> str | None:
        """None when usable on this machine for ``board``; else why, and the install command."""
        ...

    def run(
        self,
        elf: Path,
        board: Board,
        timeout_s: float,
        on_line: Callable[[str], None] | None = None,
    ) -> RunResult: ...


def exits_with_status(board: Board) -> bool:
    """Whether the board's firmware reports its exit over semihosting (``[run] exit_status``, default
    true): then a run's end waits for that exit. Set it false for firmware that never exits."""
    return bool(board.section("run").get("exit_status", True))


def captured_transports(board: Board) -> tuple[str, ...]:
    """Which output channels ("semihosting", "uart") an emulator runner merges into the log.

    Plain "semihosting" + "uart" mirror every string to both (boards/cortex_m/log.c), so
    capturing both would double every line: take semihosting only then (synchronous,
    never drops bytes). "semihosting-if-debugger" writes to semihosting *instead of* the
    others, so it is captured alongside the UART. "rtt" needs a probe; emulators skip it.
    Without a [log] table (or nothing capturable), both.
    """
    transports = tuple(board.raw.get("log", {}).get("transports", ()))
    if "semihosting" in transports and "uart" in transports:
        return ("semihosting",)
    captured = []
    if any(t.startswith("semihosting") for t in transports):
        captured.append("semihosting")
    if "uart" in transports:
        captured.append("uart")
    return tuple(captured) or ("semihosting", "uart")
