"""Hardware maps for the hil tests: a three-board rack (one device per hardware backend) and USB
enumeration stand-ins (``Probe`` for pyOCD's probes, ``Port`` for pyserial's ports)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.board.boards import load_board

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


def write_map(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rack.toml"
    path.write_text(text)
    return path



@dataclass
class Probe:
    unique_id: str
    description: str = "STM32 STLink"


@dataclass
class Port:
    device: str
    serial_number: str | None
    vid: int | None = 0x0403
    description: str = "FT232R USB UART"
