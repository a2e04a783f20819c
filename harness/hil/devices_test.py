"""The hardware map as data: loading names the fix for every mistake, writing keeps every value."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.hil.devices import (
    Device,
    HardwareMap,
    HardwareMapError,
    load_hardware_map,
    write_hardware_map,
)
from harness.testing.hil_maps import RACK, write_map


def test_load_and_write_round_trip(tmp_path: Path) -> None:
    rack = load_hardware_map(write_map(tmp_path, RACK))
    assert rack.state_path == tmp_path / "rack.state.toml"
    assert [d.id for d in rack.for_board("bluepill")] == ["bluepill-1", "bluepill-2", "emu-1"]
    assert rack.devices[1].baudrate == 57600 and rack.devices[1].reset == "dtr"
    assert rack.devices[2].reset == ["monitor system_reset", "vector-table"]
    out = tmp_path / "copy.toml"
    write_hardware_map(rack, out)
    again = load_hardware_map(out)
    assert again.devices == rack.devices


def test_written_map_keeps_awkward_strings(tmp_path: Path) -> None:
    awkward = Device(id='quote " back\\slash', board="bluepill", backend="serial", serial="socket://h:1",
                     labels=["new\nline", "ünïcode"], reset=["monitor reset", "vector-table"])
    out = tmp_path / "awkward.toml"
    write_hardware_map(HardwareMap([awkward], warnings=["a warning"]), out)
    assert load_hardware_map(out).devices == [awkward]


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
        load_hardware_map(write_map(tmp_path, text))


def test_missing_map_names_the_scan_command(tmp_path: Path) -> None:
    with pytest.raises(HardwareMapError, match="harness devices scan"):
        load_hardware_map(tmp_path / "nope.toml")
