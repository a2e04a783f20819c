"""harness devices scan: probes paired with their serial ports. Probe/port objects stand in for USB enumeration."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from harness.cli.devices import cmd_devices_scan
from harness.hil.devices import (
    dump_hardware_map,
    load_hardware_map,
)
from harness.hil.scan import scan_devices
from harness.testing.hil_maps import Port, Probe


def test_scan_pairs_a_single_probe_with_the_single_usb_serial_adapter() -> None:
    found = scan_devices([Probe("066DFF4855")], [Port("/dev/ttyUSB0", "A50285BI"), Port("/dev/ttyS0", None, None)])
    assert len(found.devices) == 1
    device = found.devices[0]
    assert (device.backend, device.probe, device.serial_number) == ("pyocd", "066DFF4855", "A50285BI")
    assert device.transports is None  # the board's own [log] transports
    text = dump_hardware_map(found)
    assert 'probe = "066DFF4855"' in text and "[[device]]" in text


def test_scan_uses_a_probe_virtual_com_port_and_lists_boards_without_probe() -> None:
    probes = [Probe("0670FF11"), Probe("0670FF22")]
    ports = [Port("/dev/ttyACM0", "0670FF22", 0x0483, "STLink VCP"), Port("/dev/ttyUSB0", "X1")]
    found = scan_devices(probes, ports)
    assert [d.serial_number for d in found.devices] == [None, "0670FF22"]  # the loose adapter is ambiguous
    assert found.devices[0].transports == ["semihosting"]
    only_uarts = scan_devices([], [Port("/dev/ttyUSB0", "X1"), Port("/dev/ttyUSB1", "X2")])
    assert [(d.backend, d.serial_number, d.reset) for d in only_uarts.devices] == [
        ("serial", "X1", "dtr"),
        ("serial", "X2", "dtr"),
    ]


def test_scan_warns_when_the_board_logs_over_a_uart_it_did_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paired = scan_devices([Probe("066DFF4855")], [Port("/dev/ttyUSB0", "A50285BI")])
    assert paired.warnings == []
    alone = scan_devices([Probe("066DFF4855")], [])
    assert alone.devices[0].transports == ["semihosting"]
    (warning,) = alone.warnings
    assert "bluepill-1: bluepill firmware logs over uart but the run would listen on semihosting" in warning
    assert "'no output at all'" in warning and "serial_number" in warning
    monkeypatch.setattr("harness.cli.devices.scan_devices", lambda board: alone)
    out = tmp_path / "rack.toml"
    assert cmd_devices_scan(argparse.Namespace(board="bluepill", output=out)) == 0
    assert f"warning: {warning}" in capsys.readouterr().err
    assert f"# WARNING {warning}" in out.read_text()
    assert load_hardware_map(out).devices == alone.devices  # the comment does not break the map
