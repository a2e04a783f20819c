"""Hardware map file, scan and quarantine state. Probe/port objects stand in for USB enumeration only."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.boards import load_board
from harness.hardware_map import (
    Device,
    HardwareMap,
    HardwareMapError,
    HilRunner,
    dump_hardware_map,
    dumps_toml,
    load_hardware_map,
    resolve_serial,
    runner_for_device,
    scan_devices,
    select_runner_for,
    write_hardware_map,
)
from harness.runners.gdbremote_runner import GdbRemoteRunner
from harness.runners.pyocd_runner import PyocdRunner
from harness.runners.serial_runner import SerialRunner

BLUEPILL = load_board("bluepill")

RACK = """
[[device]]
id = "bluepill-1"
board = "bluepill"
backend = "pyocd"
probe = "066DFF485550755187121723"
serial_number = "A50285BI"
transports = ["semihosting", "uart"]
labels = ["rack-a", "shelf 2"]

[[device]]
id = "bluepill-2"
board = "bluepill"
backend = "serial"
serial = "/dev/ttyUSB7"
reset = "dtr"
baudrate = 57600

[[device]]
id = "emu-1"
board = "bluepill"
backend = "gdbremote"
gdb = "127.0.0.1:3333"
serial = "socket://127.0.0.1:4444"
reset = ["monitor system_reset", "vector-table"]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rack.toml"
    path.write_text(text)
    return path


def test_load_and_write_round_trip(tmp_path: Path) -> None:
    rack = load_hardware_map(_write(tmp_path, RACK))
    assert rack.state_path == tmp_path / "rack.state.toml"
    assert [d.id for d in rack.for_board("bluepill")] == ["bluepill-1", "bluepill-2", "emu-1"]
    assert rack.devices[1].baudrate == 57600 and rack.devices[1].reset == "dtr"
    assert rack.devices[2].reset == ["monitor system_reset", "vector-table"]
    out = tmp_path / "copy.toml"
    write_hardware_map(rack, out)
    again = load_hardware_map(out)
    assert again.devices == rack.devices


def test_toml_writer_escapes_and_nests() -> None:
    data = {"a": 'quote " back\\slash\nnewline', "t": {"x y": {"n": 1, "ok": True}}, "l": [{"k": [1, 2]}, {"k": []}]}
    assert tomllib.loads(dumps_toml(data)) == data


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[device]]\nid = "a"\n', "'id' and 'board' are required"),
        ('[[device]]\nid = "a"\nboard = "bluepill"\nprobes = "x"\n', "unknown key(s) probes"),
        ('[[device]]\nid = "a"\nboard = "b"\n[[device]]\nid = "a"\nboard = "b"\n', "used twice"),
        ('[[device]]\nid = "a"\nboard = "b"\nbackend = "jtag"\n', "backend 'jtag' unknown"),
        ('[[device]]\nid = "a"\nboard = "b"\nbackend = "gdbremote"\n', 'needs gdb = "HOST:PORT"'),
        ('[[device]]\nid = "a"\nboard = "b"\nbackend = "serial"\n', "needs serial ="),
        ("device = 3\n", "array of tables"),
        ("[[device]\n", "not valid TOML"),
    ],
)
def test_bad_maps_say_what_to_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(HardwareMapError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_hardware_map(_write(tmp_path, text))


def test_missing_map_names_the_scan_command(tmp_path: Path) -> None:
    with pytest.raises(HardwareMapError, match="harness devices scan"):
        load_hardware_map(tmp_path / "nope.toml")


@dataclass
class _Probe:
    unique_id: str
    description: str = "STM32 STLink"


@dataclass
class _Port:
    device: str
    serial_number: str | None
    vid: int | None = 0x0403
    description: str = "FT232R USB UART"


def test_scan_pairs_a_single_probe_with_the_single_usb_serial_adapter() -> None:
    found = scan_devices([_Probe("066DFF4855")], [_Port("/dev/ttyUSB0", "A50285BI"), _Port("/dev/ttyS0", None, None)])
    assert len(found.devices) == 1
    device = found.devices[0]
    assert (device.backend, device.probe, device.serial_number) == ("pyocd", "066DFF4855", "A50285BI")
    assert device.transports is None  # the board's own [log] transports
    text = dump_hardware_map(found)
    assert 'probe = "066DFF4855"' in text and "[[device]]" in text


def test_scan_uses_a_probe_virtual_com_port_and_lists_boards_without_probe() -> None:
    probes = [_Probe("0670FF11"), _Probe("0670FF22")]
    ports = [_Port("/dev/ttyACM0", "0670FF22", 0x0483, "STLink VCP"), _Port("/dev/ttyUSB0", "X1")]
    found = scan_devices(probes, ports)
    assert [d.serial_number for d in found.devices] == [None, "0670FF22"]  # the loose adapter is ambiguous
    assert found.devices[0].transports == ["semihosting"]
    only_uarts = scan_devices([], [_Port("/dev/ttyUSB0", "X1"), _Port("/dev/ttyUSB1", "X2")])
    assert [(d.backend, d.serial_number, d.reset) for d in only_uarts.devices] == [
        ("serial", "X1", "dtr"),
        ("serial", "X2", "dtr"),
    ]


def test_serial_port_found_by_usb_serial_number() -> None:
    device = Device(id="b", board="bluepill", backend="serial", serial_number="X2")
    ports = [_Port("/dev/ttyUSB0", "X1"), _Port("/dev/ttyUSB1", "X2")]
    assert resolve_serial(device, ports) == "/dev/ttyUSB1"
    assert resolve_serial(Device(id="c", board="b", serial="socket://h:1"), ports) == "socket://h:1"
    assert resolve_serial(Device(id="d", board="b", serial_number="gone"), ports) is None


def test_runner_per_backend(tmp_path: Path) -> None:
    rack = load_hardware_map(_write(tmp_path, RACK))
    pyocd = runner_for_device(rack.devices[0], BLUEPILL)
    assert isinstance(pyocd, PyocdRunner) and pyocd.config is not None
    assert pyocd.config.unique_id == "066DFF485550755187121723"
    serial = runner_for_device(rack.devices[1], BLUEPILL)
    assert isinstance(serial, SerialRunner) and serial.config is not None
    assert (serial.config.url, serial.config.reset, serial.config.baudrate) == ("/dev/ttyUSB7", "dtr", 57600)
    gdb = runner_for_device(rack.devices[2], BLUEPILL)
    assert isinstance(gdb, GdbRemoteRunner) and gdb.config is not None
    assert gdb.config.reset == ("monitor system_reset", "vector-table")
    missing = Device(id="m", board="bluepill", backend="serial", serial_number="NOT-PLUGGED-IN")
    with pytest.raises(HardwareMapError, match="NOT-PLUGGED-IN"):
        runner_for_device(missing, BLUEPILL)


def test_quarantine_is_persisted_beside_the_map_and_can_be_cleared(tmp_path: Path) -> None:
    path = _write(tmp_path, RACK)
    rack = load_hardware_map(path)
    rack.quarantine("bluepill-2", "serial port read failed: device disconnected")
    rack.quarantine("bluepill-2", "again")
    state = tomllib.loads((tmp_path / "rack.state.toml").read_text())
    assert state["quarantine"]["bluepill-2"]["count"] == 2
    assert state["quarantine"]["bluepill-2"]["reason"] == "again"
    # Another process reading the same map sees it; the runner skips the board.
    runner = select_runner_for(BLUEPILL, path)
    assert isinstance(runner, HilRunner)
    assert [d.id for d in runner._candidates(BLUEPILL)] == ["bluepill-1", "emu-1"]
    assert rack.clear(["bluepill-2"]) == ["bluepill-2"]
    assert load_hardware_map(path).quarantined() == {}


def test_hil_runner_explains_missing_or_quarantined_boards(tmp_path: Path) -> None:
    rack = HardwareMap([Device(id="a", board="bluepill", backend="gdbremote", gdb="127.0.0.1:1")], tmp_path / "r.toml")
    runner = HilRunner(rack)
    assert runner.unavailable_reason(BLUEPILL) is None
    host_reason = runner.unavailable_reason(load_board("host"))
    assert host_reason is not None and "no device for board 'host'" in host_reason
    rack.quarantine("a", "probe lost")
    reason = runner.unavailable_reason(BLUEPILL)
    assert reason is not None and "harness devices clear" in reason


def test_missing_cmsis_pack_skips_instead_of_quarantining_every_board(tmp_path: Path) -> None:
    from pyocd.target.pack.pack_target import ManagedPacks

    if any(d.part_number.lower() == "stm32f103c8" for d in ManagedPacks.get_installed_targets()):
        pytest.skip("the STM32F1 CMSIS pack is installed on this machine")
    rack = load_hardware_map(_write(tmp_path, RACK))
    reason = HilRunner(rack).unavailable_reason(BLUEPILL)
    assert reason is not None and "pyocd pack install stm32f103c8" in reason
    assert rack.quarantined() == {}
