"""A device bound to its backend's runner through the registry, and its serial port found by USB serial number."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.hil.devices import (
    Device,
    HardwareMapError,
    load_hardware_map,
)
from harness.hil.drivers import resolve_serial, runner_for_device
from harness.runners.gdbremote_runner import GdbRemoteRunner
from harness.runners.pyocd_runner import PyocdRunner
from harness.runners.serial_runner import SerialRunner
from harness.testing.hil_maps import BLUEPILL, RACK, Port, write_map


def test_serial_port_found_by_usb_serial_number() -> None:
    device = Device(id="b", board="bluepill", backend="serial", serial_number="X2")
    ports = [Port("/dev/ttyUSB0", "X1"), Port("/dev/ttyUSB1", "X2")]
    assert resolve_serial(device, ports) == "/dev/ttyUSB1"
    assert resolve_serial(Device(id="c", board="b", serial="socket://h:1"), ports) == "socket://h:1"
    assert resolve_serial(Device(id="d", board="b", serial_number="gone"), ports) is None


def test_runner_per_backend(tmp_path: Path) -> None:
    rack = load_hardware_map(write_map(tmp_path, RACK))
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
