"""Hardware map file, scan and quarantine state. Probe/port objects stand in for USB enumeration only."""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.hil.hardware_map import (
    Device,
    HardwareMap,
    HardwareMapError,
    HilRunner,
    HostSideError,
    cmd_devices_scan,
    dump_hardware_map,
    dumps_toml,
    load_hardware_map,
    resolve_serial,
    runner_for_device,
    scan_devices,
    select_runner_for,
    write_hardware_map,
)
from harness.runners.base import RunResult
from harness.runners.gdbremote_runner import GdbRemoteRunner
from harness.runners.pyocd_runner import PyocdRunner
from harness.runners.serial_runner import SerialRunner
from harness.testing.hil_fw import HilFirmware, hil_firmware  # noqa: F401  (fixture)

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


# ------------------------------------------------------ retry and quarantine --
class _Board:
    """A stand-in runner per device: its scripted results, one per run (or an exception to raise)."""

    name = "scripted"

    def __init__(self, results: list[RunResult | Exception]) -> None:
        self.results = results
        self.runs = 0

    def unavailable_reason(self, board: object) -> str | None:
        return None

    def run(self, elf: Path, board: object, timeout_s: float,
            on_line: Callable[[str], None] | None = None) -> RunResult:
        self.runs += 1
        result = self.results.pop(0)
        if isinstance(result, Exception):
            raise result
        if on_line is not None:
            for line in result.log.decode().splitlines():
                on_line(line)
        return result


_PASSED = RunResult("gdbremote", b"Testing A\n1/1 tests passed\n~~~ALL TESTS PASSED~~~\n", 0, False, 0.1, "exit")
_RESET = "GDB server 127.0.0.1:1: Connection reset"
_DEAD = RunResult("gdbremote", b"Testing A\n", None, False, 0.1, "infra-error", _RESET)


def _rack_of(tmp_path: Path, boards: dict[str, _Board]) -> tuple[HilRunner, HardwareMap]:
    devices = [Device(id=i, board="bluepill", backend="gdbremote", gdb="127.0.0.1:1") for i in boards]
    rack = HardwareMap(devices, tmp_path / "rack.toml")
    return HilRunner(rack, lease_wait_s=5, runner_factory=lambda d, _b: boards[d.id]), rack


def test_unreadable_elf_is_not_retried_and_quarantines_nothing(tmp_path: Path) -> None:
    boards = {"a": _Board([_PASSED]), "b": _Board([_PASSED])}
    runner, rack = _rack_of(tmp_path, boards)
    corrupt = tmp_path / "corrupt.elf"
    corrupt.write_bytes(b"\x7fELF" + b"\x00" * 20)
    for elf in (corrupt, tmp_path / "missing.elf"):
        run = runner.run(elf, BLUEPILL, 5.0)
        assert run.end_reason == "infra-error"
        assert "no board retried or quarantined" in (run.infra_error or "")
    assert "not a readable ELF" in (runner.run(corrupt, BLUEPILL, 5.0).infra_error or "")
    assert [b.runs for b in boards.values()] == [0, 0] and runner.last_attempts == []
    assert rack.quarantined() == {}


def test_host_side_error_of_the_runner_is_not_retried(
    tmp_path: Path, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    script = _Board([HostSideError("pyocd is not installed"), _PASSED])  # whichever board comes first
    runner, rack = _rack_of(tmp_path, {"a": script, "b": script})
    run = runner.run(hil_firmware("semihost"), BLUEPILL, 5.0)
    assert run.end_reason == "infra-error" and "pyocd is not installed" in (run.infra_error or "")
    assert script.runs == 1 and rack.quarantined() == {}


def test_every_board_failing_quarantines_none_and_blames_firmware_or_host(
    tmp_path: Path,
    hil_firmware: HilFirmware,  # noqa: F811
) -> None:
    boards = {"a": _Board([_DEAD]), "b": _Board([OSError(25, "Inappropriate ioctl for device")])}
    runner, rack = _rack_of(tmp_path, boards)
    run = runner.run(hil_firmware("semihost"), BLUEPILL, 5.0)
    message = run.infra_error or ""
    assert run.end_reason == "infra-error" and "tried " in message
    assert "a: GDB server" in message and "b: [Errno 25]" in message  # both boards, each with its error
    assert "firmware or this host is the likely cause" in message and "none quarantined" in message
    assert [a.failure_class for a in runner.last_attempts] == ["infra-error", "infra-error"]
    assert rack.quarantined() == {}


def test_board_that_failed_where_another_ran_the_binary_is_quarantined_and_retry_is_marked(
    tmp_path: Path,
    hil_firmware: HilFirmware,  # noqa: F811
) -> None:
    script = _Board([_DEAD, _PASSED])  # whichever board comes first dies, the other one passes
    runner, rack = _rack_of(tmp_path, {"a": script, "b": script})
    lines: list[str] = []
    run = runner.run(hil_firmware("semihost"), BLUEPILL, 5.0, on_line=lines.append)
    assert run.end_reason == "exit"
    first, second = (a.device for a in runner.last_attempts)
    assert second != first
    notes = [line for line in lines if line.startswith("[harness] device ")]
    assert [n.split()[2] for n in notes] == [first, second]  # the live log names each board when leased
    assert [line for line in lines if line not in notes] == [
        "Testing A",
        f"--- infrastructure error on {first}: GDB server 127.0.0.1:1: Connection reset; retrying on {second} ---",
        "Testing A",
        "1/1 tests passed",
        "~~~ALL TESTS PASSED~~~",
    ]
    assert list(rack.quarantined()) == [first]


def test_silent_run_names_what_it_listened_on_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    silent = RunResult("pyocd", b"", None, True, 5.0, "timeout")
    device = Device(id="bp-1", board="bluepill", probe="066DFF", transports=["semihosting"])  # what scan wrote
    rack = HardwareMap([device], tmp_path / "rack.toml")
    runner = HilRunner(rack, max_retries=0, lease_wait_s=5, runner_factory=lambda _d, _b: _Board([silent]))
    monkeypatch.setattr(runner, "unavailable_reason", lambda _board: None)  # no pyOCD pack needed
    monkeypatch.setattr(runner, "host_problem", lambda _elf, _board: None)
    message = runner.run(hil_firmware("semihost"), BLUEPILL, 5.0).infra_error or ""
    assert "no output at all from bp-1: the run listened on semihosting" in message
    assert "bluepill firmware logs over uart" in message and 'serial_number = "..."' in message


def test_scan_warns_when_the_board_logs_over_a_uart_it_did_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paired = scan_devices([_Probe("066DFF4855")], [_Port("/dev/ttyUSB0", "A50285BI")])
    assert paired.warnings == []
    alone = scan_devices([_Probe("066DFF4855")], [])
    assert alone.devices[0].transports == ["semihosting"]
    (warning,) = alone.warnings
    assert "bluepill-1: bluepill firmware logs over uart but the run would listen on semihosting" in warning
    assert "'no output at all'" in warning and "serial_number" in warning
    monkeypatch.setattr("harness.hil.hardware_map.scan_devices", lambda board: alone)
    out = tmp_path / "rack.toml"
    assert cmd_devices_scan(argparse.Namespace(board="bluepill", output=out)) == 0
    assert f"warning: {warning}" in capsys.readouterr().err
    assert f"# WARNING {warning}" in out.read_text()
    assert load_hardware_map(out).devices == alone.devices  # the comment does not break the map
