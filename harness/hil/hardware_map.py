"""The hardware map: which real (or emulated) boards are attached and how to reach them.

A TOML file with one ``[[device]]`` table per board::

    [[device]]
    id = "bluepill-1"                 # unique name, used for leases and reports
    board = "bluepill"                # boards/<board>/board.toml
    backend = "pyocd"                 # pyocd | serial | gdbremote
    probe = "066DFF485550755187121723"  # pyOCD probe unique id (pyocd list)
    serial_number = "A50285BI"        # USB serial number of the USB-serial adapter (found at run time)
    serial = "/dev/ttyUSB0"           # or a pyserial URL: socket://host:port, rfc2217://...
    baudrate = 115200
    reset = "probe"                   # serial: probe | dtr | rts | none; gdbremote: steps, e.g. ["monitor reset halt"]
    gdb = "127.0.0.1:3333"            # gdbremote: the GDB server
    load = "memory"                   # gdbremote: memory | vflash | none
    transports = ["semihosting", "uart"]  # optional override of the board's [log] transports
    handshake = true                  # build test binaries with the UART start handshake (make HANDSHAKE=1)
    labels = ["rack-a"]

``harness devices scan`` writes one from the probes pyOCD sees and the serial
ports pyserial lists. ``pytest --board=bluepill --hardware-map rack.toml``
runs on those boards: ``select_runner_for`` returns a runner that leases a free
board per binary (harness.hil.lease: one process per board, across pytest-xdist
workers), retries infrastructure errors on another board (at most
``MAX_RETRIES``), and quarantines a board that failed that way in
``<map>.state.toml`` beside the map (``harness devices clear`` lifts it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from harness.board.boards import Board, BoardError, load_board
from harness.hil.lease import acquire_any, default_lock_dir, file_lock, holder, map_state_dir
from harness.run_result import Attempt
from harness.runners.base import Runner, RunResult
from harness.runners.failure_classes import INFRA, classify_run
from harness.runners.retry import HostProblem, NoBoard, run_on_pool

BACKENDS = ("pyocd", "serial", "gdbremote")
QEMU_RESET = ("monitor system_reset", "vector-table")
EMULATED_LABEL = "emulated"  # label of the emulated rack's devices: gdbremote runs set the emulation guard
MAX_RETRIES = 2
LEASE_WAIT_S = 900.0  # longest a worker waits for a free board before it reports an infra error


class HardwareMapError(Exception):
    """A hardware map that cannot be used, with the fix in the message."""


@dataclass
class Device:
    id: str
    board: str
    backend: str = "pyocd"
    probe: str | None = None
    serial: str | None = None
    serial_number: str | None = None
    baudrate: int = 115200
    reset: str | list[str] | None = None
    gdb: str | None = None
    load: str | None = None
    trap_semihost: bool | None = None
    # None: poke the start handshake when the firmware has it; True: also build test binaries with
    # it (make HANDSHAKE=1) for this board; False: never poke.
    handshake: bool | None = None
    transports: list[str] | None = None
    labels: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = [f"{self.id} ({self.board} via {self.backend}"]
        if self.probe:
            parts.append(f", probe {self.probe}")
        if self.gdb:
            parts.append(f", gdb {self.gdb}")
        if self.serial or self.serial_number:
            parts.append(f", uart {self.serial or 'usb-sn ' + str(self.serial_number)}")
        return "".join(parts) + ")"


@dataclass
class HardwareMap:
    devices: list[Device]
    path: Path | None = None
    warnings: list[str] = field(default_factory=list)  # written as comments (harness devices scan)
    farm: dict[str, Any] | None = None  # [farm]: boards are a labgrid coordinator's places (harness.farm)

    def for_board(self, board: str) -> list[Device]:
        return [d for d in self.devices if d.board == board]

    @property
    def state_path(self) -> Path | None:
        if self.path is None:
            return None
        return map_state_dir(self.path) / f"{self.path.stem}.state.toml"

    @property
    def lock_dir(self) -> Path:
        return default_lock_dir(self.path)

    # ------------------------------------------------------------ quarantine
    def quarantined(self) -> dict[str, dict[str, Any]]:
        path = self.state_path
        if path is None or not path.is_file():
            return {}
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, OSError):
            return {}
        table = data.get("quarantine", {})
        return table if isinstance(table, dict) else {}

    def quarantine(self, device_id: str, reason: str) -> None:
        """Flags ``device_id`` in the state file (shared by all workers)."""
        path = self.state_path
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with file_lock(path.with_suffix(".lock")):
            current = self.quarantined()
            entry = current.get(device_id, {})
            entry = {
                "reason": reason[:500],
                "since": entry.get("since", time.strftime("%Y-%m-%dT%H:%M:%S")),
                "last": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "count": int(entry.get("count", 0)) + 1,
            }
            current[device_id] = entry
            _atomic_write(path, _STATE_HEADER + dumps_toml({"quarantine": current}))

    def clear(self, device_ids: list[str] | None = None) -> list[str]:
        """Lifts the quarantine of ``device_ids`` (all when None); returns the ids cleared."""
        path = self.state_path
        if path is None or not path.is_file():
            return []
        with file_lock(path.with_suffix(".lock")):
            current = self.quarantined()
            ids = list(current) if device_ids is None else [i for i in device_ids if i in current]
            for device_id in ids:
                current.pop(device_id, None)
            _atomic_write(path, _STATE_HEADER + dumps_toml({"quarantine": current}))
        return ids


_STATE_HEADER = (
    "# Written by the harness: boards taken out of service after an infrastructure error.\n"
    "# Fix the board, then: harness devices clear --hardware-map <map> [ID...]\n"
)


# ------------------------------------------------------------------ TOML I/O --
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON string escapes are valid TOML basic-string escapes
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _toml_key(key: str) -> str:
    return key if key and all(c.isalnum() or c in "_-" for c in key) else json.dumps(key)


def dumps_toml(data: dict[str, Any]) -> str:
    """A small TOML writer for what the harness stores: scalars, lists, tables, arrays of tables."""
    lines: list[str] = []

    def emit(table: dict[str, Any], prefix: str) -> None:
        scalars = {k: v for k, v in table.items() if not isinstance(v, dict) and not _is_table_array(v)}
        for key, value in scalars.items():
            if value is None:
                continue
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
        for key, value in table.items():
            name = f"{prefix}{_toml_key(key)}"
            if isinstance(value, dict):
                lines.append("")
                lines.append(f"[{name}]")
                emit(value, name + ".")
            elif _is_table_array(value):
                for item in value:
                    lines.append("")
                    lines.append(f"[[{name}]]")
                    emit(item, name + ".")

    emit(data, "")
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


_FIELDS = set(Device.__dataclass_fields__)


def load_hardware_map(path: Path | str) -> HardwareMap:
    path = Path(path)
    if not path.is_file():
        raise HardwareMapError(f"hardware map {path} does not exist; create one with: harness devices scan -o {path}")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise HardwareMapError(f"{path}: not valid TOML: {error}") from error
    entries = data.get("device", [])
    if not isinstance(entries, list):
        raise HardwareMapError(f"{path}: 'device' must be an array of tables: write [[device]] for each board")
    devices: list[Device] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        where = f"{path}: device #{number}"
        unknown = set(entry) - _FIELDS
        if unknown:
            known = ", ".join(sorted(_FIELDS))
            raise HardwareMapError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; known: {known}")
        if not entry.get("id") or not entry.get("board"):
            raise HardwareMapError(
                f"{where}: 'id' and 'board' are required (e.g. id = \"bluepill-1\", board = \"bluepill\")"
            )
        try:
            device = Device(**entry)
        except TypeError as error:
            raise HardwareMapError(f"{where}: {error}") from error
        if device.id in seen:
            raise HardwareMapError(f"{where}: id {device.id!r} is used twice; ids must be unique")
        seen.add(device.id)
        if device.backend not in BACKENDS:
            raise HardwareMapError(f"{where}: backend {device.backend!r} unknown; use one of {', '.join(BACKENDS)}")
        if device.backend == "gdbremote" and not device.gdb:
            raise HardwareMapError(f'{where}: backend gdbremote needs gdb = "HOST:PORT"')
        if device.backend == "serial" and not (device.serial or device.serial_number):
            raise HardwareMapError(f'{where}: backend serial needs serial = "/dev/ttyUSB0" (or a URL) or serial_number')
        devices.append(device)
    farm = data.get("farm")
    if farm is not None:
        if not isinstance(farm, dict) or not farm.get("coordinator"):
            raise HardwareMapError(f'{path}: [farm] needs coordinator = "HOST:PORT" (the labgrid coordinator)')
        unknown = set(farm) - {"coordinator", "acquire_timeout_s"}
        if unknown:
            raise HardwareMapError(f"{path}: [farm]: unknown key(s) {', '.join(sorted(unknown))}; "
                                   "known: acquire_timeout_s, coordinator")
    return HardwareMap(devices, path, farm=farm)


def dump_hardware_map(hardware_map: HardwareMap) -> str:
    records = []
    for device in hardware_map.devices:
        record = {k: v for k, v in device.__dict__.items() if v is not None and v != [] and v != ""}
        if record.get("baudrate") == 115200:
            record.pop("baudrate")
        records.append(record)
    header = "# Hardware map for the harness (see docs/hardware.md). One [[device]] per attached board.\n"
    header += "".join(f"# WARNING {warning}\n" for warning in hardware_map.warnings) + "\n"
    return header + (dumps_toml({"device": records}) if records else "")


def write_hardware_map(hardware_map: HardwareMap, path: Path) -> None:
    _atomic_write(path, dump_hardware_map(hardware_map))
    hardware_map.path = path


# ---------------------------------------------------------------------- scan --
# USB vendor ids of common debug probes and USB-serial adapters, to tell them apart in a scan.
_PROBE_VIDS = {0x0483: "ST-Link", 0x0D28: "CMSIS-DAP (DAPLink)", 0x1366: "J-Link", 0x1FC9: "CMSIS-DAP (LPC-Link)"}


def scan_devices(
    probes: list[Any] | None = None,
    ports: list[Any] | None = None,
    board: str = "bluepill",
) -> HardwareMap:
    """What is attached now: one device per debug probe, paired with a USB-serial port if exactly one is free.

    ``probes``/``ports`` default to what pyOCD and pyserial enumerate; tests pass their own. Without pyOCD
    installed it raises MissingExtra (the install command): a probe's own serial port would otherwise be
    mistaken for a board of its own.
    """
    if probes is None:
        from harness.core.extras import require

        require("hil", "harness devices scan (finding debug probes)")
        from harness.runners.pyocd_runner import list_probes

        try:
            probes = list_probes()
        except Exception:  # no USB access: still list serial ports
            probes = []
    if ports is None:
        from serial.tools import list_ports

        ports = list(list_ports.comports())
    probe_serials = {str(getattr(p, "unique_id", "")) for p in probes}
    # USB-serial adapters; the probe's own virtual COM port (same USB serial number) is kept for its board.
    uarts = [p for p in ports if getattr(p, "vid", None) is not None and getattr(p, "serial_number", None)]
    free_uarts = [p for p in uarts if p.serial_number not in probe_serials]
    devices: list[Device] = []
    for index, probe in enumerate(probes, 1):
        uid = str(probe.unique_id)
        vcp = next((p for p in uarts if p.serial_number == uid), None)
        device = Device(id=f"{board}-{index}", board=board, backend="pyocd", probe=uid, reset="probe")
        uart = vcp or (free_uarts[0] if len(probes) == 1 and len(free_uarts) == 1 else None)
        if uart is not None:
            device.serial_number = uart.serial_number  # log: the board's [log] transports (UART)
        else:
            device.transports = ["semihosting"]  # no UART found: only the debugger can carry the log
        description = getattr(probe, "description", "") or getattr(probe, "product_name", "")
        if description:
            device.labels = [str(description)]
        devices.append(device)
    if not probes:
        # No probe: each USB-serial adapter is a board that resets by DTR.
        for index, port in enumerate(uarts, 1):
            if port.vid in _PROBE_VIDS:
                continue
            devices.append(
                Device(
                    id=f"{board}-uart-{index}",
                    board=board,
                    backend="serial",
                    serial_number=port.serial_number,
                    reset="dtr",
                    labels=[str(port.description or port.device)],
                )
            )
    return HardwareMap(devices, warnings=_scan_warnings(devices, board))


def _scan_warnings(devices: list[Device], board_name: str) -> list[str]:
    """Devices whose board logs over a transport the scan found no way to hear (e.g. UART without a port)."""
    try:
        board = load_board(board_name)
    except BoardError:
        return []
    warnings = []
    for device in devices:
        fix = transport_fix(device, board)
        if fix is not None:
            warnings.append(
                f"{device.id}: {board.name} firmware logs over {', '.join(board.log_transports)} but the run would "
                f"listen on {', '.join(listened_transports(device, board)) or 'nothing'} (no serial port found "
                f"for it), so every run would end in 'no output at all'; fix: {fix}"
            )
    return warnings


def resolve_serial(device: Device, ports: list[Any] | None = None) -> str | None:
    """The port to open: ``serial`` as given, else the port whose USB serial number matches."""
    if device.serial:
        return device.serial
    if not device.serial_number:
        return None
    if ports is None:
        from serial.tools import list_ports

        ports = list(list_ports.comports())
    for port in ports:
        if getattr(port, "serial_number", None) == device.serial_number:
            return str(port.device)
    return None


# ------------------------------------------------------------------- runners --
def runner_for_device(device: Device, board: Board) -> Runner:
    """The concrete runner (pyocd / serial / gdbremote) for one device of the map."""
    url = resolve_serial(device)
    if (device.serial_number and url is None) and device.backend == "serial":
        raise HardwareMapError(
            f"device {device.id}: no serial port with USB serial number {device.serial_number} is attached; "
            "check the USB cable (harness devices scan lists what is there)"
        )
    transports = tuple(device.transports) if device.transports else tuple(board.section("log").get("transports", []))
    if device.backend == "pyocd":
        from harness.runners.pyocd_runner import PyocdConfig, PyocdRunner

        config = PyocdConfig.from_board(board, unique_id=device.probe, serial=url)
        if config is None:
            raise HostSideError(f"board {board.name} has no [pyocd] target; add it to {board.path / 'board.toml'}")
        config.baudrate = device.baudrate
        config.transports = transports or ("semihosting",)
        return PyocdRunner(config)
    if device.backend == "gdbremote":
        from harness.runners.gdbremote_runner import DEFAULT_RESET, GdbRemoteConfig, GdbRemoteRunner

        reset = device.reset if device.reset is not None else list(DEFAULT_RESET)
        return GdbRemoteRunner(
            GdbRemoteConfig(
                address=str(device.gdb),
                load=device.load or "memory",
                reset=tuple([reset] if isinstance(reset, str) else reset),
                trap_semihost=True if device.trap_semihost is None else device.trap_semihost,
                serial=url,
                baudrate=device.baudrate,
                rtt="rtt" in transports,
                handshake=device.handshake is not False,
                # An emulated board (harness devices emulate) runs with the emulation guard on.
                emulation_guard=EMULATED_LABEL in device.labels,
            )
        )
    from harness.runners.serial_runner import SerialConfig, SerialRunner

    reset = device.reset if isinstance(device.reset, str) else "none"
    starter = _starter_for(device, board)
    serial_config = SerialConfig(url=str(url), baudrate=device.baudrate, reset=reset,
                                 handshake=device.handshake is not False)
    return SerialRunner(serial_config, starter)


def _starter_for(device: Device, board: Board) -> Callable[[Path, Board], str | None] | None:
    """How a serial-backend device gets its firmware: through its probe, its GDB server, or not at all."""
    if device.probe:
        from harness.runners.pyocd_runner import PyocdConfig, flash_and_reset

        config = PyocdConfig.from_board(board, unique_id=device.probe)
        if config is None:
            return None
        return lambda elf, _board: flash_and_reset(elf, config)
    if device.gdb:
        address = device.gdb
        load = device.load or "memory"
        return lambda elf, _board: load_and_go(elf, address, load)
    return None


def load_and_go(elf: Path, address: str, load: str = "memory") -> str | None:
    """Starter: load through a GDB server, start from the vector table, let it run; error text or None."""
    from harness.runners.gdbremote.elf import FirmwareError, load_firmware
    from harness.runners.gdbremote.rsp import RspClient, RspError
    from harness.runners.gdbremote.target import GdbTarget
    from harness.runners.gdbremote_runner import split_address

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



class HostSideError(HardwareMapError, HostProblem):
    """A fault of this machine or of the binary (unreadable ELF, missing tool): no board can help.

    Not retried on another board and never quarantines one.
    """


def listened_transports(device: Device, board: Board) -> list[str]:
    """The log transports a run of ``device`` captures (what it could hear), per backend."""
    transports = list(device.transports or board.log_transports)
    has_uart = bool(device.serial or device.serial_number)
    if device.backend == "serial":
        return ["uart"] if has_uart else []
    heard = [t for t in transports if t != "uart"]
    if device.backend == "gdbremote" and not any(t.startswith("semihosting") for t in heard):
        heard.insert(0, "semihosting")  # serviced over the GDB server whatever the map says
    if has_uart and (device.backend == "gdbremote" or "uart" in transports):
        heard.append("uart")
    return heard


def _kind(transport: str) -> str:
    return "semihosting" if transport.startswith("semihosting") else transport


def transport_fix(device: Device, board: Board) -> str | None:
    """The fix when ``device`` cannot hear any transport its board's firmware logs over; None if it can."""
    logs = list(board.log_transports)
    if {_kind(t) for t in logs} & {_kind(t) for t in listened_transports(device, board)}:
        return None
    if "uart" in logs:
        return (
            f'give {device.id} its UART in the hardware map (serial = "/dev/ttyUSB0" or serial_number = "..." '
            "of the USB-serial adapter on the board's log pins; harness devices scan pairs them), or log "
            "through the probe: add \"semihosting\" to the board's [log] transports"
        )
    return f"set transports = {json.dumps(logs)} for {device.id} in the hardware map"


def no_output_reason(device: Device, board: Board) -> str:
    """Why a run may have heard nothing: the transports it listened on against the board's, with the fix."""
    heard = listened_transports(device, board)
    text = (
        f"no output at all from {device.id}: the run listened on {', '.join(heard) or 'nothing'}; "
        f"{board.name} firmware logs over {', '.join(board.log_transports) or 'nothing'} ([log] transports in "
        f"{board.path / 'board.toml'})"
    )
    fix = transport_fix(device, board)
    if fix is not None:
        return f"{text}; fix: {fix}"
    return text + "; check the wiring (board TX -> adapter RX), the baud rate, power and that the firmware starts"


class HilRunner:
    """Runs on whichever mapped board of the right type is free; retries infra errors elsewhere."""

    def __init__(
        self,
        hardware_map: HardwareMap,
        max_retries: int = MAX_RETRIES,
        lease_wait_s: float = LEASE_WAIT_S,
        runner_factory: Callable[[Device, Board], Runner] = runner_for_device,
    ) -> None:
        self.hardware_map = hardware_map
        self.max_retries = max_retries
        self.lease_wait_s = lease_wait_s
        self.runner_factory = runner_factory
        self.name = "hil"
        self.last_attempts: list[Attempt] = []

    def _candidates(self, board: Board) -> list[Device]:
        quarantined = self.hardware_map.quarantined()
        return [d for d in self.hardware_map.for_board(board.name) if d.id not in quarantined]

    def unavailable_reason(self, board: Board) -> str | None:
        where = self.hardware_map.path or "the hardware map"
        if not self.hardware_map.for_board(board.name):
            return f"{where} lists no device for board '{board.name}'; add a [[device]] with board = \"{board.name}\""
        candidates = self._candidates(board)
        if not candidates:
            return (
                f"every '{board.name}' device in {where} is quarantined after infrastructure errors; fix them, then "
                f"run: harness devices clear --hardware-map {where}"
            )
        return _tool_problem(board, candidates)

    def host_problem(self, elf: Path, board: Board) -> str | None:
        """A fault no other board could fix (the binary, pyOCD or its pack on this machine), or None."""
        from harness.runners.gdbremote.elf import FirmwareError, load_firmware

        try:
            load_firmware(elf)
        except FirmwareError as error:
            return str(error)
        return _tool_problem(board, self._candidates(board))

    def run(
        self,
        elf: Path,
        board: Board,
        timeout_s: float,
        on_line: Callable[[str], None] | None = None,
    ) -> RunResult:
        attempts: list[Attempt] = []
        self.last_attempts = attempts
        return run_on_pool(DevicePool(self), Path(elf), board, timeout_s, on_line, self.max_retries, attempts)


class DevicePool:
    """The hardware map's devices of a board type as a pool for the retry strategy (harness.runners.retry):
    leases are the map's lock files, blame is quarantine."""

    label = "hil"

    def __init__(self, runner: HilRunner) -> None:
        self.runner = runner
        self.hardware_map = runner.hardware_map
        self.handshake_elf: Path | None = None  # what handshake = true devices run, when it differs

    def prepare(self, elf: Path, board: Board) -> None:
        problem = self.runner.host_problem(elf, board)
        if problem is not None:
            raise HostSideError(problem)
        # Built before a board is leased: nobody waits on a board while make runs.
        if any(d.handshake for d in self.runner._candidates(board)):
            variant = handshake_variant(elf, board)
            self.handshake_elf = variant if variant != elf else None

    def acquire(self, board: Board, exclude: set[str]) -> DeviceLease:
        candidates = [d for d in self.runner._candidates(board) if d.id not in exclude]
        if not candidates:
            raise NoBoard(self.runner.unavailable_reason(board) or f"no usable '{board.name}' board")
        # Each process starts looking at a different board, so work spreads even when runs are short.
        ids = [d.id for d in candidates]
        start = os.getpid() % len(ids)
        lease = acquire_any(ids[start:] + ids[:start], self.hardware_map.lock_dir, self.runner.lease_wait_s)
        if lease is None:
            raise NoBoard(f"no '{board.name}' board became free within {self.runner.lease_wait_s:.0f} s (all leased)")
        device = next(d for d in candidates if d.id == lease.device_id)
        return DeviceLease(device, lease, self.runner.runner_factory, self.handshake_elf if device.handshake else None)

    def blame(self, name: str, reason: str) -> None:
        self.hardware_map.quarantine(name, reason)


class DeviceLease:
    """One leased device of the map: its concrete runner (pyocd / serial / gdbremote) does the run."""

    def __init__(self, device: Device, lease: Any, runner_factory: Callable[[Device, Board], Runner],
                 handshake_elf: Path | None) -> None:
        self.device = device
        self.name = device.id
        self._lease = lease
        self._runner_factory = runner_factory
        self._handshake_elf = handshake_elf

    def note(self) -> str:
        note = f"[harness] device {self.device.describe()}"
        if self._handshake_elf is not None:
            note += f", start-handshake build {self._handshake_elf}"
        return note

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: Callable[[str], None] | None) -> RunResult:
        try:
            result = self._runner_factory(self.device, board).run(self._handshake_elf or elf, board, timeout_s,
                                                                  on_line)
        except HostSideError:
            raise
        except (HardwareMapError, OSError) as error:  # OSError: a port or socket of this board
            result = RunResult(self.device.backend, b"", None, False, 0.0, "infra-error", str(error))
        silent = result.infra_error or ""
        if classify_run(result) == INFRA and not result.log.strip() and (not silent or silent.startswith("no output")):
            # Say what the run listened on and what the firmware speaks: the usual cause is a mismatch.
            detail = f" ({silent})" if silent else ""
            result = replace(result, infra_error=no_output_reason(self.device, board) + detail)
        return result

    def release(self) -> None:
        self._lease.release()


def handshake_variant(elf: Path, board: Board) -> Path:
    """What a ``handshake = true`` device runs: ``elf`` if it has the start handshake, else the same
    micro_runtime test built with it (make HANDSHAKE=1, gen/<board>_handshake/); a program the harness
    cannot rebuild runs as it is (the pokes are harmless to firmware without the handshake).
    """
    from harness.build.driver import BuildError, discover_tests, ensure_binary
    from harness.runners.serial_runner import firmware_has_handshake

    if firmware_has_handshake(elf) or elf.name not in discover_tests():
        return elf
    try:
        return ensure_binary(board, elf.name, progress=None, handshake=True)
    except BuildError as error:
        message = f"building the start-handshake variant of {elf.name} (handshake = true) failed: {error}"
        raise HostSideError(message) from error


def _tool_problem(board: Board, candidates: list[Device]) -> str | None:
    """pyOCD or the target's CMSIS pack missing on this machine: a host problem, not a board's."""
    if not any(d.backend == "pyocd" or (d.backend == "serial" and d.probe) for d in candidates):
        return None
    from harness.runners.pyocd_runner import board_target_problem

    return board_target_problem(board)


def map_backend_label(hardware_map: Any, board_name: str) -> str:
    """How the map reaches a board's devices, for reports: ``hil:pyocd``, ``hil:pyocd+serial``, ..."""
    if getattr(hardware_map, "farm", None) is not None:
        return "hil:farm"
    backends = sorted({device.backend for device in hardware_map.for_board(board_name)})
    return "hil:" + "+".join(backends) if backends else "hil"


def select_runner_for(board: Board, hardware_map: HardwareMap | Path | str) -> HilRunner:
    """The runner the pytest plugin uses for ``board`` when ``--hardware-map`` is given."""
    if not isinstance(hardware_map, HardwareMap):
        hardware_map = load_hardware_map(hardware_map)
    if hardware_map.farm is not None:
        from harness.farm.farm_runner import FarmRunner

        return FarmRunner(hardware_map)  # type: ignore[return-value]
    return HilRunner(hardware_map)


# ----------------------------------------------------------------------- CLI --
def add_devices_parser(sub: Any) -> None:
    """``harness devices ...``: hooked into harness.cli.main with one call."""
    parser = sub.add_parser(
        "devices", help="hardware map: scan attached boards, list leases/quarantine, emulate a rack"
    )
    dsub = parser.add_subparsers(dest="devices_command", required=True, metavar="ACTION")
    p = dsub.add_parser("scan", help="write a hardware map from the attached probes and serial ports")
    p.add_argument("--board", default="bluepill", help="board type to assume for what is found (default: bluepill)")
    p.add_argument("-o", "--output", type=Path, default=None, help="file to write (default: print)")
    p.set_defaults(func=cmd_devices_scan)
    p = dsub.add_parser("list", help="show the devices of a map, who leases them, and quarantined ones")
    p.add_argument("--hardware-map", type=Path, required=True)
    p.set_defaults(func=cmd_devices_list)
    p = dsub.add_parser("clear", help="lift the quarantine of devices (all if no id given)")
    p.add_argument("--hardware-map", type=Path, required=True)
    p.add_argument("ids", nargs="*", metavar="ID")
    p.set_defaults(func=cmd_devices_clear)
    p = dsub.add_parser("emulate", help="start N emulated boards (QEMU behind loopback GDB/UART ports) and a map")
    p.add_argument("--board", default="bluepill")
    p.add_argument("--count", type=int, default=2)
    p.add_argument("-o", "--output", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(func=cmd_devices_emulate)


def cmd_devices_scan(args: argparse.Namespace) -> int:
    from harness.core.extras import MissingExtra

    try:
        found = scan_devices(board=args.board)
    except MissingExtra as error:
        print(f"harness: error: {error}", file=sys.stderr)
        return 2
    if not found.devices:
        print("no debug probe and no USB-serial port found; plug the board in (see docs/hardware.md)", file=sys.stderr)
    for warning in found.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(dump_hardware_map(found))
    else:
        write_hardware_map(found, args.output)
        print(f"wrote {len(found.devices)} device(s) to {args.output}")
    return 0 if found.devices else 1


_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0", "")


def _local_listening_ports() -> set[int] | None:
    """TCP ports something listens on on this machine (from /proc; None where that is not readable)."""
    ports: set[int] = set()
    found = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        found = True
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "0A":  # TCP_LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports if found else None


def _tcp_down(host: str, port: int) -> bool:
    """True when nothing accepts connections at host:port. Local ports are looked up, not connected to
    (a GDB stub such as QEMU's stops the target when a debugger connects)."""
    import socket

    if host in _LOCAL_HOSTS:
        listening = _local_listening_ports()
        if listening is not None:
            return port not in listening
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=1.0):
            return False
    except OSError:
        return True


def device_down_reason(device: Device) -> str | None:
    """Why an unleased device cannot be reached right now (its GDB server or UART endpoint is gone), or
    None when it looks alive or cannot be checked cheaply (e.g. a pyOCD probe)."""
    endpoints = []
    if device.gdb:
        endpoints.append(("gdb", device.gdb))
    if device.serial:
        endpoints.append(("uart", device.serial))
    for what, address in endpoints:
        if address.startswith("/"):
            if not Path(address).exists():
                return f"{what} {address} does not exist (unplugged?)"
            continue
        target = address.split("://", 1)[1] if "://" in address else address
        if "://" in address and not address.startswith(("socket://", "rfc2217://")):
            continue  # loop://, spy://, hwgrep://: nothing to probe
        host, _, port = target.split("/", 1)[0].rpartition(":")
        if port.isdigit() and _tcp_down(host.strip("[]"), int(port)):
            return f"nothing listens on {what} {address} (board or its server not running)"
    return None


def cmd_devices_list(args: argparse.Namespace) -> int:
    try:
        hardware_map = load_hardware_map(args.hardware_map)
    except HardwareMapError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    quarantined = hardware_map.quarantined()
    for device in hardware_map.devices:
        state = holder(device.id, hardware_map.lock_dir)
        status = f"leased ({state})" if state else "free"
        down = None if state else device_down_reason(device)
        if down is not None:
            status = f"DOWN: {down}"
        if device.id in quarantined:
            status = f"QUARANTINED: {quarantined[device.id].get('reason', '')}"
        print(f"{device.describe()}: {status}")
    return 0


def cmd_devices_clear(args: argparse.Namespace) -> int:
    try:
        hardware_map = load_hardware_map(args.hardware_map)
    except HardwareMapError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    known = [device.id for device in hardware_map.devices]
    unknown = [device_id for device_id in args.ids if device_id not in known]
    if unknown:
        print(f"error: no device {', '.join(unknown)} in {args.hardware_map}; its devices: "
              f"{', '.join(known) or 'none'}", file=sys.stderr)
        return 2
    cleared = hardware_map.clear(args.ids or None)
    print(f"cleared: {', '.join(cleared) if cleared else 'nothing was quarantined'}")
    return 0


def emulated_rack(board: Board, count: int, log_dir: Path | None = None) -> tuple[HardwareMap, list[Any]]:
    """``count`` emulated boards of ``board``'s type and the hardware map describing them (loopback only)."""
    from harness.runners.gdbremote.qemu_board import start_qemu_board

    table = board.section("qemu")
    if not table.get("machine"):
        raise HardwareMapError(f"board {board.name} has no [qemu] machine to emulate it with")
    boards = []
    devices = []
    try:
        for index in range(1, count + 1):
            qemu = start_qemu_board(str(table["machine"]), int(table.get("serial", 0)), log_dir)
            boards.append(qemu)
            devices.append(
                Device(
                    id=f"{board.name}-emu-{index}",
                    board=board.name,
                    backend="gdbremote",
                    gdb=qemu.gdb_address,
                    serial=qemu.serial_url,
                    # A full machine reset also clears the UART, so no byte of an earlier run stays queued.
                    reset=list(QEMU_RESET),
                    labels=[EMULATED_LABEL],
                )
            )
    except Exception:
        for qemu in boards:
            qemu.stop()
        raise
    return HardwareMap(devices), boards


def cmd_devices_emulate(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
        hardware_map, boards = emulated_rack(board, args.count)
    except (BoardError, HardwareMapError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_hardware_map(hardware_map, args.output)
    print(f"{args.count} emulated {board.name} board(s) running; map: {args.output} (Ctrl-C stops them)")
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            if not all(b.alive for b in boards):
                print("an emulated board exited; stopping", file=sys.stderr)
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for qemu in boards:
            with contextlib.suppress(Exception):
                qemu.stop()
    return 0
