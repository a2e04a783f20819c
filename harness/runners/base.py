"""The runner contract: what every backend (host, QEMU, Renode, probes) returns.

A runner starts one firmware binary, streams what the device prints, and
stops as soon as the device signals the end (exit, end sentinel, HardFault)
or the wall-clock timeout hits. Interpreting the log is the job of
``harness.log_parser``; runners only decide *when* a run is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness.boards import Board

# Lines after which the device has nothing more to say. The micro_test
# sentinels and the gtest final summaries end a test binary; a HardFault line
# ends any binary. See docs/log_protocol.md.
PASS_SENTINEL = "~~~ALL TESTS PASSED~~~"
FAIL_SENTINEL = "~~~SOME TESTS FAILED~~~"
HARDFAULT_PREFIX = "*** HardFault:"
# The model runner's end lines (docs/model_runner.md): done, or an error before exiting 1.
MODEL_DONE_SENTINEL = "~~~MODEL RUNNER DONE~~~"
MODEL_ERROR_PREFIX = "model_runner: error:"

# How long a device may keep running after it printed an end marker before the
# runner stops it: time to flush and exit with its status.
SENTINEL_GRACE_S = 0.5
CRASH_GRACE_S = 0.2


_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Line noise a UART emits at reset (NULs, 0xFF decoded as U+FFFD, stray control bytes);
# indentation (spaces, tabs) is kept.
_LEAD_NOISE = "".join(chr(c) for c in range(0x20) if chr(c) not in "\t\n") + "\x7f\ufffd"


def clean_line(raw: bytes) -> str:
    """Decoded text of one raw line: tolerant of non-UTF-8, \\r, escapes and reset noise."""
    text = raw.decode("utf-8", errors="replace")
    text = _ANSI_RE.sub("", text).replace("\x00", "")
    return text.lstrip(_LEAD_NOISE).rstrip()


@dataclass
class RunResult:
    backend: str  # "host", "qemu", "renode", "pyocd", "serial", "gdbremote"
    log: bytes  # everything the device printed, all transports merged in order received
    exit_code: int | None  # status from MicroExit; None if unknown. Host: negative = killed by that signal
    timed_out: bool  # wall-clock timeout hit
    duration_s: float  # wall time of the run
    end_reason: str  # "exit" | "end-marker" | "crash" | "timeout" | "infra-error"
    infra_error: str | None = None  # emulator/probe/serial failure, with the fix


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


class EndDetector:
    """Watches the byte stream for the lines that end a run.

    Kept separate from the full parser so runners stay cheap: they only need
    to know *whether* the device is done, not what the results were.
    """

    def __init__(self, on_line: Callable[[str], None] | None = None) -> None:
        self._pending = b""
        self._on_line = on_line
        self.sentinel_seen = False
        self.crash_seen = False
        # gtest: "[  PASSED  ] N tests." ends the run; "[  FAILED  ] N tests, listed below:"
        # is followed by the list, which the grace period leaves time for.
        self.gtest_end_seen = False

    def feed(self, data: bytes) -> None:
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for raw in lines:
            self._line(raw)

    def flush(self) -> None:
        """Treats a trailing partial line as complete (end of stream)."""
        if self._pending:
            raw, self._pending = self._pending, b""
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        text = raw.rstrip(b"\r").decode("utf-8", errors="replace")
        stripped = clean_line(raw).strip()
        if stripped.endswith((PASS_SENTINEL, FAIL_SENTINEL, MODEL_DONE_SENTINEL)) or stripped.startswith(
            MODEL_ERROR_PREFIX
        ):
            self.sentinel_seen = True
        elif HARDFAULT_PREFIX in stripped:
            self.crash_seen = True
        elif stripped.startswith("[  PASSED  ]") or (
            stripped.startswith("[  FAILED  ]") and "listed below" in stripped
        ):
            self.gtest_end_seen = True
        if self._on_line is not None:
            self._on_line(text)

    @property
    def ended(self) -> bool:
        return self.sentinel_seen or self.gtest_end_seen

    def end_grace(self) -> tuple[float, str] | None:
        """(grace seconds, end reason) once the device said it is done, else None: a HardFault
        line ("crash"), or an end marker ("end-marker"). Runners stop reading that long after."""
        if self.crash_seen:
            return CRASH_GRACE_S, "crash"
        if self.ended:
            return SENTINEL_GRACE_S, "end-marker"
        return None
