"""gdbremote backend on an emulated core: QEMU's GDB stub, no -semihosting, pyOCD's SemihostAgent.

QEMU turns BKPT 0xAB into a HardFault when its own semihosting is off, so
these runs prove the harness services semihosting itself: breakpoints on the
BKPT sites, pyOCD's agent over RSP, our SYS_EXIT_EXTENDED handling.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.build.driver import ensure_binary
from harness.formats.reader import parse_log
from harness.runners import get_runner
from harness.runners.base import RunResult
from harness.runners.failure_classes import INFRA, classify_run
from harness.runners.gdbremote.qemu_board import QemuBoard, start_qemu_board
from harness.runners.gdbremote_runner import GdbRemoteConfig, GdbRemoteRunner, run_over_gdb
from harness.testing.hil_fw import HilFirmware, hil_firmware, qemu_board  # noqa: F401  (fixtures)

pytestmark = pytest.mark.emulator
BLUEPILL = load_board("bluepill")


def _run(board: QemuBoard, elf: Path, timeout_s: float = 20.0, *, serial: str | None = None,
         rtt: bool = False) -> RunResult:
    config = GdbRemoteConfig(board.gdb_address, serial=serial, rtt=rtt)
    return GdbRemoteRunner(config).run(elf, BLUEPILL, timeout_s)


def test_registry_knows_the_backend_and_explains_missing_address() -> None:
    runner = get_runner("gdbremote")
    assert runner.name == "gdbremote"
    reason = runner.unavailable_reason(BLUEPILL)
    assert reason is not None and "gdb = " in reason and "[gdbremote]" in reason


def test_pass_fail_and_crash_end_with_the_firmware_exit_status(
    qemu_board: QemuBoard, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    passed = _run(qemu_board, hil_firmware("semihost"))
    assert (passed.exit_code, passed.end_reason, passed.infra_error) == (0, "exit", None)
    assert parse_log(passed.log, passed).outcome == "passed"
    assert passed.duration_s < 10

    # Same emulated board again: it is re-flashed and reset for every run.
    failed = _run(qemu_board, hil_firmware("semihost_fail"))
    assert failed.exit_code == 1
    report = parse_log(failed.log, failed)
    assert report.outcome == "failed"
    assert [c.name for c in report.cases if c.outcome == "failed"] == ["DeliberateFailure"]

    crashed = _run(qemu_board, hil_firmware("semihost_crash"))
    assert crashed.exit_code == 3  # the fault handler's MicroExit(3)
    report = parse_log(crashed.log, crashed)
    assert report.outcome == "crashed"
    assert report.crash is not None and "DeliberateCrash" in report.summary


def test_uart_is_merged_with_semihosting(qemu_board: QemuBoard, hil_firmware: HilFirmware) -> None:  # noqa: F811
    """UART-only firmware that never exits: the log arrives over the serial socket; on a board that
    declares no exit status (``[run] exit_status = false``) the run ends at the log's end of run."""
    import dataclasses

    never_exits = {**BLUEPILL.section("run"), "exit_status": False}
    board = dataclasses.replace(BLUEPILL, raw={**BLUEPILL.raw, "run": never_exits})
    config = GdbRemoteConfig(qemu_board.gdb_address, serial=qemu_board.serial_url)
    run = GdbRemoteRunner(config).run(hil_firmware("uart"), board, 15.0)
    assert run.end_reason == "end-marker", run
    assert parse_log(run.log, run).outcome == "passed"


def test_firmware_that_never_exits_is_not_a_pass_where_exits_are_expected(
    qemu_board: QemuBoard, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    """The same firmware on a board whose firmware exits over semihosting: it ended but did not exit."""
    run = _run(qemu_board, hil_firmware("uart"), timeout_s=15.0, serial=qemu_board.serial_url)
    assert run.end_reason == "no-exit", run
    assert parse_log(run.log, run).outcome == "timeout"


def test_rtt_transport_drains_more_than_the_ring_buffer(qemu_board: QemuBoard, hil_firmware: HilFirmware) -> None:  # noqa: F811
    run = _run(qemu_board, hil_firmware("rtt"), rtt=True)
    assert run.exit_code == 0, run
    assert len(run.log) > 1024  # the firmware's RTT buffer is 1 KiB: it wrapped and nothing was lost
    text = run.log.decode()
    assert all(f"line {i} of filler" in text for i in range(40))
    assert parse_log(run.log, run).outcome == "passed"


def test_silent_firmware_times_out_and_counts_as_infrastructure(
    qemu_board: QemuBoard, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    start = time.monotonic()
    run = _run(qemu_board, hil_firmware("uart"), timeout_s=1.5)  # its UART is not connected here
    assert run.timed_out and run.end_reason == "timeout"
    assert time.monotonic() - start < 6
    assert classify_run(run) == INFRA  # no output at all


def test_dead_gdb_server_is_an_infra_error(tmp_path: Path, hil_firmware: HilFirmware) -> None:  # noqa: F811
    board = start_qemu_board("stm32vldiscovery", 1, tmp_path)
    board.stop()
    run = _run(board, hil_firmware("semihost"))
    assert run.end_reason == "infra-error"
    assert run.infra_error is not None and "start the server" in run.infra_error


def test_missing_elf_is_an_infra_error_with_the_fix(qemu_board: QemuBoard, tmp_path: Path) -> None:  # noqa: F811
    run = _run(qemu_board, tmp_path / "nope.elf")
    assert run.end_reason == "infra-error" and "build it first" in (run.infra_error or "")


@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="arm-none-eabi toolchain missing")
def test_real_bluepill_test_binary_over_gdb_with_uart(tmp_path: Path) -> None:
    """A micro_runtime test built by the repo's Make for the bluepill, on the bluepill's QEMU machine."""
    elf = ensure_binary(BLUEPILL, "kernel_util_test", progress=None)  # the repo's Make, under the build lock
    qemu = BLUEPILL.section("qemu")
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
        run = run_over_gdb(GdbRemoteConfig(board.gdb_address, serial=board.serial_url), elf, 60.0)
    assert run.exit_code == 0, run
    report = parse_log(run.log, run, elf, BLUEPILL)
    assert report.outcome == "passed", report.summary


def test_board_left_running_by_another_client_is_taken_over(qemu_board: QemuBoard, hil_firmware: HilFirmware) -> None:  # noqa: F811
    """A UART-only firmware started and left running (serial backend), then a gdbremote run on the same board."""
    from harness.runners.gdbremote_runner import load_and_go

    assert load_and_go(hil_firmware("uart"), qemu_board.gdb_address) is None
    time.sleep(0.3)  # it runs on while nobody is connected
    run = _run(qemu_board, hil_firmware("semihost"))
    assert (run.exit_code, run.end_reason) == (0, "exit"), run
    assert parse_log(run.log, run).outcome == "passed"
