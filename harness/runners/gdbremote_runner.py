"""Runs firmware through any GDB server: OpenOCD, J-Link GDB server, ``pyocd gdbserver``, QEMU's stub.

Connects over the GDB Remote Serial Protocol (harness.runners.gdbremote.rsp), loads
the ELF, resets, and runs the core while servicing semihosting with pyOCD's
``SemihostAgent`` through the ``GdbTarget`` adapter (SYS_EXIT handled by us:
the run ends the moment the firmware exits, with its status). A UART given as
a pyserial URL is read at the same time and merged into the log.

Board file, table ``[gdbremote]`` (a hardware-map device overrides each key):

  address = "127.0.0.1:3333"        # the GDB server (loopback or a lab host)
  load = "memory"                   # "memory" (RAM/emulators), "vflash" (server's flash loader), "none"
  reset = ["monitor reset halt"]    # commands after loading; "monitor X" or "vector-table"
  trap_semihost = true              # plant breakpoints on BKPT 0xAB (emulators that fault on BKPT)
  serial = "socket://127.0.0.1:4000"  # optional UART to merge
  emulation_guard = false           # true: an emulator; set the emulation guard word before running
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.board.boards import Board
from harness.board.emulation_guard import guard_word
from harness.formats.reader import board_format
from harness.runners.base import EMULATED_LABEL, DeviceSpec, OnLine, RunResult, device_transports, exits_with_status
from harness.runners.control import token_writes
from harness.runners.stream import LogSink

if TYPE_CHECKING:  # pyOCD (semihosting) is imported when a run starts, so the module loads without it
    pass

DEFAULT_RESET = ("vector-table",)


@dataclass
class GdbRemoteConfig:
    address: str
    load: str = "memory"
    reset: tuple[str, ...] = DEFAULT_RESET
    trap_semihost: bool = True
    serial: str | None = None
    baudrate: int = 115200
    handshake: bool = True  # poke the UART start handshake (harmless for firmware without it)
    rtt: bool = False  # poll the SEGGER RTT up channel 0 (also on when the board's [log] transports has "rtt")
    # Write the emulation guard word (harness/board/emulation_guard.py) after loading and resetting: only for
    # an emulator behind the server (the emulated rack's QEMU), never for a real board.
    emulation_guard: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_table(table: dict[str, Any]) -> GdbRemoteConfig | None:
        if not table.get("address"):
            return None
        reset = table.get("reset", list(DEFAULT_RESET))
        if isinstance(reset, str):
            reset = [reset]
        return GdbRemoteConfig(
            address=str(table["address"]),
            load=str(table.get("load", "memory")),
            reset=tuple(str(r) for r in reset),
            trap_semihost=bool(table.get("trap_semihost", True)),
            serial=table.get("serial") or None,
            baudrate=int(table.get("baudrate", 115200)),
            rtt=bool(table.get("rtt", False)),
            handshake=bool(table.get("handshake", True)),
            emulation_guard=bool(table.get("emulation_guard", False)),
        )


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"GDB server address {address!r} must be HOST:PORT, e.g. 127.0.0.1:3333")
    return host, int(port)


class GdbRemoteRunner:
    name = "gdbremote"

    def __init__(self, config: GdbRemoteConfig | None = None) -> None:
        self.config = config

    def _config(self, board: Board) -> GdbRemoteConfig | None:
        return self.config or GdbRemoteConfig.from_table(board.section("gdbremote"))

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        config = self._config(board)
        if config is None:
            return (
                f"no GDB server for board '{board.name}': pass --hardware-map with a device that has "
                f'gdb = "HOST:PORT", or add [gdbremote] address = "127.0.0.1:3333" to {board.path / "board.toml"}'
            )
        try:
            split_address(config.address)
        except ValueError as error:
            return str(error)
        return None

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        reason = self.unavailable_reason(board)
        config = self._config(board)
        if reason is not None or config is None:
            return RunResult(self.name, b"", None, False, 0.0, "infra-error", infra_error=reason)
        if "rtt" in board.section("log").get("transports", []) and not config.rtt:
            config = dataclasses.replace(config, rtt=True)
        return run_over_gdb(config, Path(elf), timeout_s, on_line, backend=self.name, board=board)


def run_over_gdb(
    config: GdbRemoteConfig,
    elf: Path,
    timeout_s: float,
    on_line: Callable[[str], None] | None = None,
    backend: str = "gdbremote",
    board: Board | None = None,
) -> RunResult:
    """Load, reset and run ``elf`` on the core behind ``config.address`` (see module doc).

    ``board`` (when known) fixes the log format and whether the firmware exits with a status.
    """
    # Imported here so listing backends does not pull in pyocd/elftools.
    from harness.runners.gdbremote.elf import FirmwareError, load_firmware
    from harness.runners.gdbremote.rsp import RspClient, RspError
    from harness.runners.gdbremote.target import GdbTarget
    from harness.runners.semihosting import RttPoller, drive
    from harness.runners.uart import START_MARKER, SerialPortError, SerialReader, close_port, open_port, settle_port

    start = time.monotonic()
    deadline = start + timeout_s
    # The run token's block (harness/core/run_token.py), written after the reset: said before the stream exists,
    # so its reader demands records signed with it.
    token = token_writes(elf, "memory (GDB server)")
    sink = LogSink(on_line, fmt=board_format(board), exit_status=board is None or exits_with_status(board))

    def infra(message: str) -> RunResult:
        return RunResult(backend, sink.finish(), None, False, time.monotonic() - start, "infra-error", message,
                         notes=sink.notes)

    try:
        firmware = load_firmware(elf)
    except FirmwareError as error:
        return infra(str(error))
    host, port = split_address(config.address)
    serial_port = reader = None
    client = None
    try:
        if config.serial:
            serial_port = open_port(config.serial, config.baudrate, settle=False)  # the core is halted
            # Poke only firmware that has the handshake: bytes nobody reads stay queued in the
            # UART and (QEMU) keep the emulator from noticing the next connection.
            wants_handshake = config.handshake and firmware.contains(START_MARKER.encode())
            reader = SerialReader(serial_port, sink, handshake=wants_handshake).start()
        client = RspClient(host, port, timeout_s=min(10.0, max(1.0, timeout_s)))
        target = GdbTarget(client)
        target.halt()
        target.refresh_halt_reason()
        target.clear_breakpoints()
        if config.load != "none":
            target.load_segments(firmware.segments, config.load)
        for step in config.reset:
            if step == "vector-table":
                target.reset_from_vector_table(firmware.vector_table)
            elif step.startswith("monitor "):
                client.monitor(step[len("monitor ") :], timeout_s=10.0)
            else:
                return infra(f"unknown reset step {step!r}; use 'vector-table' or 'monitor <command>'")
        if config.emulation_guard:
            guard = guard_word(elf)
            if guard is not None:
                target.write32(*guard)
        for address, value in token:
            target.write32(address, value)
        target.last_stop = None
        if config.trap_semihost:
            target.trap_semihost_sites(firmware.semihost_sites)
        pollers = []
        if config.rtt:
            pollers.append(RttPoller(target, sink, firmware.symbols.get("_SEGGER_RTT")))
        if serial_port is not None:
            settle_port(serial_port)  # what is left of it after the load and reset, before the core may talk
        target.resume()
        outcome = drive(target, sink, deadline, pollers=pollers)
        if outcome.end_reason == "infra-error":
            return infra(outcome.infra_error or "the GDB server stopped the run")
        # Leave the core halted and just drop the connection: "detach" would let it run
        # on into the exit BKPT, which faults without a debugger (QEMU even locks up).
        with contextlib.suppress(RspError):
            target.halt()
        if reader is not None:
            reader.drain(deadline)  # the UART bytes still in flight
        if reader is not None and reader.error:
            return infra(reader.error)
        return RunResult(
            backend,
            sink.finish(),
            outcome.exit_code,
            outcome.timed_out,
            time.monotonic() - start,
            outcome.end_reason,
            case_seconds=sink.case_seconds(),
            notes=sink.notes,
        )
    except (RspError, SerialPortError) as error:
        return infra(f"{error} (GDB server {config.address})")
    except OSError as error:
        return infra(f"GDB server {config.address}: {error}")
    except (ValueError, KeyError) as error:  # malformed answers from an unusual server
        return infra(f"GDB server {config.address} answered something unexpected ({error}); check the server type")
    finally:
        if reader is not None:
            reader.stop()
        if serial_port is not None:
            close_port(serial_port)
        if client is not None:
            client.close()



def for_device(device: DeviceSpec, board: Board, serial_url: str | None) -> GdbRemoteRunner:
    """A hardware map device with ``backend = "gdbremote"``: its GDB server, and its UART when it has one."""
    reset = device.reset if device.reset is not None else list(DEFAULT_RESET)
    return GdbRemoteRunner(
        GdbRemoteConfig(
            address=str(device.gdb),
            load=device.load or "memory",
            reset=tuple([reset] if isinstance(reset, str) else reset),
            trap_semihost=True if device.trap_semihost is None else device.trap_semihost,
            serial=serial_url,
            baudrate=device.baudrate,
            rtt="rtt" in device_transports(device, board),
            handshake=device.handshake is not False,
            emulation_guard=EMULATED_LABEL in device.labels,
        )
    )


def device_problem(device: DeviceSpec) -> str | None:
    """What a ``backend = "gdbremote"`` entry of the hardware map lacks, or None."""
    return None if device.gdb else 'backend gdbremote needs gdb = "HOST:PORT"'


def load_and_go(elf: Path, address: str, load: str = "memory") -> str | None:
    """Starter: load through a GDB server, start from the vector table, let it run; error text or None."""
    from harness.runners.gdbremote.elf import FirmwareError, load_firmware
    from harness.runners.gdbremote.rsp import RspClient, RspError
    from harness.runners.gdbremote.target import GdbTarget

    try:
        firmware = load_firmware(elf)
        host, port = split_address(address)
        with RspClient(host, port) as client:
            target = GdbTarget(client)
            target.halt()
            target.clear_breakpoints()
            if load != "none":
                target.load_segments(firmware.segments, load)
            target.reset_from_vector_table(firmware.vector_table)
            target.resume()
        return None
    except (FirmwareError, RspError, ValueError, OSError) as error:
        return f"loading {elf.name} through the GDB server {address} failed: {error}"
