"""The hardware map as data: which boards are attached and how each is reached (labgrid's *resources*).

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


``load_hardware_map`` checks a file and names the fix for every mistake; ``dump_hardware_map`` writes
one (through tomli-w). Nothing here talks to a board: ``harness.hil.drivers`` binds a device to its
backend, ``harness.hil.pool`` leases and retries, ``harness.hil.scan`` finds devices, and
``harness.hil.board_state`` keeps the boards taken out of service. The map's ``[farm]`` table makes
the boards a labgrid coordinator's places instead (``harness.farm``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.hil.lease import default_lock_dir, map_state_dir
from harness.runners import available_backends, backend_module


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
        """Where the boards taken out of service are kept (harness.hil.board_state)."""
        if self.path is None:
            return None
        return map_state_dir(self.path) / f"{self.path.stem}.state.toml"

    @property
    def lock_dir(self) -> Path:
        return default_lock_dir(self.path)


def atomic_write(path: Path, text: str) -> None:
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
        backends = available_backends(kind="hardware")  # the registry's hardware backends
        if device.backend not in backends:
            raise HardwareMapError(f"{where}: backend {device.backend!r} unknown; use one of {', '.join(backends)}")
        problem = _device_problem(device)
        if problem is not None:
            raise HardwareMapError(f"{where}: {problem}")
        devices.append(device)
    farm = data.get("farm")
    if farm is not None:
        if not isinstance(farm, dict) or not farm.get("coordinator"):
            raise HardwareMapError(f'{path}: [farm] needs coordinator = "HOST:PORT" (the labgrid coordinator)')
        unknown = set(farm) - {"coordinator", "acquire_timeout_s", "reconnect_timeout_s"}
        if unknown:
            raise HardwareMapError(f"{path}: [farm]: unknown key(s) {', '.join(sorted(unknown))}; "
                                   "known: acquire_timeout_s, coordinator, reconnect_timeout_s")
    return HardwareMap(devices, path, farm=farm)




def _device_problem(device: Device) -> str | None:
    """What the device's backend says its entry lacks (the module's ``device_problem``), or None."""
    try:
        module = backend_module(device.backend)
    except ModuleNotFoundError:
        return None  # a package the backend needs is missing: the run says so, with the install command
    check = getattr(module, "device_problem", None)
    problem: str | None = check(device) if check is not None else None
    return problem


def dump_hardware_map(hardware_map: HardwareMap) -> str:
    records = []
    for device in hardware_map.devices:
        record = {k: v for k, v in device.__dict__.items() if v is not None and v != [] and v != ""}
        if record.get("baudrate") == 115200:
            record.pop("baudrate")
        records.append(record)
    header = "# Hardware map for the harness (see docs/hardware.md). One [[device]] per attached board.\n"
    header += "".join(f"# WARNING {warning}\n" for warning in hardware_map.warnings) + "\n"
    return header + (toml_dumps({"device": records}) if records else "")


def write_hardware_map(hardware_map: HardwareMap, path: Path) -> None:
    atomic_write(path, dump_hardware_map(hardware_map))
    hardware_map.path = path


def toml_dumps(data: dict[str, Any]) -> str:
    # Imported when a map or its state is written: `python3 -S -m harness run` (the Makefile's, no
    # site-packages) reads maps but never writes one.
    import tomli_w

    return tomli_w.dumps(data)
