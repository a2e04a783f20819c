"""Runs firmware on a board whose log comes over a serial port (UART).

Any pyserial URL works: ``/dev/ttyACM0``, ``socket://127.0.0.1:4000`` (QEMU's
UART on TCP, ser2net), ``rfc2217://host:port``. The device is started by a
*starter* (flash + reset through a probe or a GDB server, a DTR/RTS reset
pulse, or nothing when the device starts on its own), after the port is open
so no line is lost.

Start handshake (firmware linked with boards/cortex_m/handshake.cc and
handshake_at_start.cc: ``make HANDSHAKE=1``, or ``handshake = true`` on a
hardware-map device, which makes the harness build that variant; a
``-DMICRO_START_HANDSHAKE=1`` alone does nothing unless the board's code calls
``MicroStartHandshake()``; see docs/hardware.md): the firmware waits up to
2 s for any byte on its UART, then prints ``~~~MICRO START~~~`` and runs the
tests. The runner pokes one byte (``\\n``) every 100 ms until it sees the
marker, so the first lines are not lost while a USB serial port re-enumerates
after reset. Firmware without the handshake simply starts talking; the pokes
are harmless.

Every read is bounded by ONE overall deadline (``timeout_s``).

Board file, table ``[serial]`` (the hardware map overrides per device):
  url = "/dev/ttyUSB0"    baudrate = 115200    reset = "none" | "dtr" | "rts"
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.board.boards import Board
from harness.formats.reader import board_format
from harness.runners.base import DeviceConfigError, DeviceSpec, OnLine, RunResult, ToolCheck
from harness.runners.control import active_control
from harness.runners.stream import LogSink
from harness.runners.uart import (
    HANDSHAKE_INTERVAL_S,
    HANDSHAKE_WINDOW_S,
    START_MARKER,
    TOKEN_MARKER,
    SerialPortError,
    close_port,
    firmware_has_handshake,
    handshake_poke,
    open_port,
    pulse_reset,
    read_available,
)

_INSTALL = "install it: pip install pyserial"


@dataclass
class SerialConfig:
    url: str
    baudrate: int = 115200
    reset: str = "none"  # "none" | "dtr" | "rts" (probe resets are done by the starter)
    handshake: bool = True

    @staticmethod
    def from_board(board: Board) -> SerialConfig | None:
        table = board.section("serial")
        if not table.get("url"):
            return None
        return SerialConfig(
            url=str(table["url"]),
            baudrate=int(table.get("baudrate", 115200)),
            reset=str(table.get("reset", "none")),
            handshake=bool(table.get("handshake", True)),
        )


# A starter brings the firmware up once the port is open: flash + reset by a probe,
# load through a GDB server... It returns an error text (infra failure) or None.
Starter = Callable[[Path, Board], "str | None"]


class SerialRunner:
    name = "serial"

    def __init__(self, config: SerialConfig | None = None, starter: Starter | None = None) -> None:
        self.config = config
        self.starter = starter

    def _config(self, board: Board) -> SerialConfig | None:
        return self.config or SerialConfig.from_board(board)

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        try:
            import serial  # noqa: F401
        except ImportError:  # pragma: no cover
            return f"pyserial is not installed; {_INSTALL}"
        if self._config(board) is None:
            return (
                f"no serial port for board '{board.name}': pass --hardware-map (harness devices scan) "
                f'or add [serial] url = "/dev/ttyUSB0" to {board.path / "board.toml"}'
            )
        return None

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        start = time.monotonic()
        deadline = start + timeout_s

        def infra(message: str | None) -> RunResult:
            return RunResult(self.name, b"", None, False, time.monotonic() - start, "infra-error", message)

        reason = self.unavailable_reason(board)
        config = self._config(board)
        if reason is not None or config is None:
            return infra(reason)
        try:
            port = open_port(config.url, config.baudrate)
        except SerialPortError as error:
            return infra(str(error))
        sink = LogSink(on_line, fmt=board_format(board), exit_status=False)  # a UART has no exit status
        try:
            with contextlib.suppress(Exception):  # not every URL handler supports it
                port.reset_input_buffer()  # stale bytes of a previous run
            if self.starter is not None:
                error_text = self.starter(Path(elf), board)
                if error_text is not None:
                    return infra(error_text)
            if config.reset in ("dtr", "rts"):
                try:
                    pulse_reset(port, config.reset, config.url)
                except SerialPortError as error:
                    return infra(str(error))
            elif config.reset not in ("none", "probe"):
                return infra(f"unknown reset method {config.reset!r} for {config.url}; use none, dtr, rts or probe")
            handshake = config.handshake and firmware_has_handshake(Path(elf))
            end_reason, timed_out, read_error = self._read_until_end(port, sink, deadline, handshake)
        finally:
            close_port(port)
        log = sink.finish()
        duration = time.monotonic() - start
        if read_error is not None:
            return RunResult(self.name, log, None, False, duration, "infra-error", read_error, notes=sink.notes)
        if not log.strip():
            return RunResult(
                self.name,
                log,
                None,
                timed_out,
                duration,
                "infra-error",
                f"no output at all on {config.url} in {timeout_s:.0f} s: check the wiring (board TX -> adapter RX), "
                f"the baud rate ({config.baudrate}) and that the firmware logs over this UART",
                notes=sink.notes,
            )
        return RunResult(self.name, log, None, timed_out, duration, end_reason, case_seconds=sink.case_seconds(),
                         notes=sink.notes)

    def _read_until_end(
        self, port: Any, sink: LogSink, deadline: float, handshake: bool
    ) -> tuple[str, bool, str | None]:
        """The UART transport in the one run loop: reads (and pokes the handshake) until the end rule."""
        marker = START_MARKER.encode()
        poke_until = time.monotonic() + HANDSHAKE_WINDOW_S if handshake else 0.0
        state = {"next_poke": 0.0, "started": not handshake, "failed": False}
        stream = sink.stream
        control = active_control()
        token = control.token if control is not None and handshake else None
        poke = handshake_poke(token)

        def read_port(budget_s: float) -> None:
            if state["failed"]:
                time.sleep(min(0.05, budget_s))
                return
            now = time.monotonic()
            if not state["started"] and now < poke_until and now >= state["next_poke"]:
                try:
                    port.write(poke)
                    port.flush()
                except Exception as error:
                    state["failed"] = True
                    stream.stop("infra-error", infra_error=f"serial port write failed: {error}")
                    return
                state["next_poke"] = now + HANDSHAKE_INTERVAL_S
            try:
                data = read_available(port)
            except Exception as error:
                state["failed"] = True
                stream.stop("infra-error", infra_error=f"serial port read failed: {error}; was the device unplugged?")
                return
            if data:
                if not state["started"]:
                    # The start marker's line, once whole (reads can end anywhere in it): "~~~MICRO START~~~"
                    # or "... token" when the firmware took the token, which its records are then signed with.
                    # The marker comes before any record, so the reader has seen none yet.
                    seen = sink.data + data
                    at = seen.find(marker)
                    end = seen.find(b"\n", at) if at >= 0 else -1
                    if end >= 0:
                        state["started"] = True
                        if token is not None and TOKEN_MARKER.encode() in seen[at:end]:
                            assert control is not None
                            control.token_delivered("serial handshake")
                            stream.reader.adopt_key(token.key)
                sink.feed(data)

        end = stream.follow(deadline, waiter=read_port)
        return end.end_reason, end.timed_out, end.infra_error


def for_device(device: DeviceSpec, board: Board, serial_url: str | None) -> SerialRunner:
    """A hardware map device with ``backend = "serial"``: its UART, reset by DTR/RTS/probe, and loaded
    through its probe or GDB server when the map gives one (else it runs what it has in flash)."""
    if serial_url is None:
        if device.serial_number:
            raise DeviceConfigError(
                f"device {device.id}: no serial port with USB serial number {device.serial_number} is attached; "
                "check the USB cable (harness devices scan lists what is there)")
        raise DeviceConfigError(f'device {device.id}: backend serial needs serial = "/dev/ttyUSB0" (or a URL) '
                                "or serial_number")
    reset = device.reset if isinstance(device.reset, str) else "none"
    config = SerialConfig(url=serial_url, baudrate=device.baudrate, reset=reset,
                          handshake=device.handshake is not False)
    return SerialRunner(config, _starter_for(device, board))


def device_problem(device: DeviceSpec) -> str | None:
    """What a ``backend = "serial"`` entry of the hardware map lacks, or None."""
    if device.serial or device.serial_number:
        return None
    return 'backend serial needs serial = "/dev/ttyUSB0" (or a URL) or serial_number'


def _starter_for(device: DeviceSpec, board: Board) -> Callable[[Path, Board], str | None] | None:
    """How a serial device gets its firmware: through its probe, its GDB server, or not at all."""
    if device.probe:
        from harness.runners.pyocd_runner import PyocdConfig, flash_and_reset

        config = PyocdConfig.from_board(board, unique_id=device.probe)
        if config is None:
            return None
        return lambda elf, _board: flash_and_reset(elf, config)
    if device.gdb:
        from harness.runners.gdbremote_runner import load_and_go

        address = device.gdb
        load = device.load or "memory"
        return lambda elf, _board: load_and_go(elf, address, load)
    return None


def check_tools() -> list[ToolCheck]:
    """``harness doctor``: pyserial, which the serial backend and every UART capture need."""
    import importlib.util

    spec = importlib.util.find_spec("serial")
    if spec is None:
        return [ToolCheck("python: serial", False, "not importable; install: pip install pyserial")]
    return [ToolCheck("python: serial", True, spec.origin or "serial")]
