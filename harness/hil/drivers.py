"""Binds a hardware map device to its backend's runner (labgrid's *drivers*).

Each hardware backend's module says how one of its devices runs (``for_device(device, board,
serial_url)``, ``harness.runners.REGISTRY``); this module only finds the device's serial port and
turns a backend's complaint into the hardware map's errors: a device the backend cannot use is a
``HardwareMapError`` (the run is an infrastructure error of that board), a fault of this machine is
a ``HostSideError`` (no other board could help: never retried, never quarantines a board).
"""

from __future__ import annotations

from typing import Any

from harness.board.boards import Board
from harness.hil.devices import Device, HardwareMapError
from harness.runners import backend_module, missing_package
from harness.runners.base import DeviceConfigError, Runner
from harness.runners.retry import HostProblem


class HostSideError(HardwareMapError, HostProblem):
    """A fault of this machine or of the binary (unreadable ELF, missing tool): no board can help.

    Not retried on another board and never quarantines one.
    """


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



def runner_for_device(device: Device, board: Board) -> Runner:
    """The concrete runner of one device of the map: its backend module's ``for_device``."""
    try:
        module = backend_module(device.backend)
    except ModuleNotFoundError as error:
        raise HostSideError(missing_package(device.backend, error.name)) from error
    try:
        runner: Runner = module.for_device(device, board, resolve_serial(device))
    except DeviceConfigError as error:
        raise HardwareMapError(str(error)) from error
    except HostProblem as error:
        raise HostSideError(str(error)) from error
    return runner
