"""The HIL pool: leases, retries on another board, and blame only where another board ran the binary."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.hil import board_state
from harness.hil.devices import (
    Device,
    HardwareMap,
    load_hardware_map,
)
from harness.hil.drivers import HostSideError
from harness.hil.pool import HilRunner
from harness.runners.base import RunResult
from harness.testing.hil_fw import HilFirmware, hil_firmware  # noqa: F401  (fixture)
from harness.testing.hil_maps import BLUEPILL, RACK, write_map


def test_hil_runner_explains_missing_or_quarantined_boards(tmp_path: Path) -> None:
    rack = HardwareMap([Device(id="a", board="bluepill", backend="gdbremote", gdb="127.0.0.1:1")], tmp_path / "r.toml")
    runner = HilRunner(rack)
    assert runner.unavailable_reason(BLUEPILL) is None
    host_reason = runner.unavailable_reason(load_board("host"))
    assert host_reason is not None and "no device for board 'host'" in host_reason
    board_state.quarantine(rack, "a", "probe lost")
    reason = runner.unavailable_reason(BLUEPILL)
    assert reason is not None and "harness devices clear" in reason


def test_missing_cmsis_pack_skips_instead_of_quarantining_every_board(tmp_path: Path) -> None:
    from pyocd.target.pack.pack_target import ManagedPacks

    if any(d.part_number.lower() == "stm32f103c8" for d in ManagedPacks.get_installed_targets()):
        pytest.skip("the STM32F1 CMSIS pack is installed on this machine")
    rack = load_hardware_map(write_map(tmp_path, RACK))
    reason = HilRunner(rack).unavailable_reason(BLUEPILL)
    assert reason is not None and "pyocd pack install stm32f103c8" in reason
    assert board_state.quarantined(rack) == {}


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
    assert board_state.quarantined(rack) == {}


def test_host_side_error_of_the_runner_is_not_retried(
    tmp_path: Path, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    script = _Board([HostSideError("pyocd is not installed"), _PASSED])  # whichever board comes first
    runner, rack = _rack_of(tmp_path, {"a": script, "b": script})
    run = runner.run(hil_firmware("semihost"), BLUEPILL, 5.0)
    assert run.end_reason == "infra-error" and "pyocd is not installed" in (run.infra_error or "")
    assert script.runs == 1 and board_state.quarantined(rack) == {}


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
    assert board_state.quarantined(rack) == {}


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
    assert list(board_state.quarantined(rack)) == [first]


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
