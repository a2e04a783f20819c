"""The start handshake in a real bluepill build (the repo's Make, ``program`` goal), on the bluepill's QEMU machine.

The handshake is linked in (boards/cortex_m/handshake_at_start.cc) so the
shared objects of the normal bluepill build are untouched. Logged over
USART2 (a loopback TCP socket), exit status through semihosting serviced by
the harness over QEMU's GDB stub.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.boards import load_board
from harness.build import bin_dir, board_lock, make_command
from harness.gdbremote.qemu_board import start_qemu_board
from harness.log_parser import parse_log
from harness.runners.gdbremote_runner import GdbRemoteConfig, run_over_gdb
from harness.runners.serial_runner import START_MARKER

pytestmark = [
    pytest.mark.emulator,
    pytest.mark.skipif(
        shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
        reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
    ),
]
BLUEPILL = load_board("bluepill")
NAME = "hil_kernel_util_handshake"


@pytest.fixture(scope="module")
def handshake_elf() -> Path:
    sources = [
        "micro_runtime/kernels/kernel_util_test.cc",
        "boards/cortex_m/handshake.cc",
        "boards/cortex_m/handshake_at_start.cc",
    ]
    argv = make_command(BLUEPILL, ["program"], None, f"PROGRAM_SRC={' '.join(sources)}", f"PROGRAM_NAME={NAME}")
    with board_lock(BLUEPILL, None):
        result = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return bin_dir(BLUEPILL) / NAME


def test_handshake_marker_comes_first_and_nothing_is_lost(handshake_elf: Path, tmp_path: Path) -> None:
    qemu = BLUEPILL.section("qemu")
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
        run = run_over_gdb(GdbRemoteConfig(board.gdb_address, serial=board.serial_url), handshake_elf, 60.0)
        assert run.exit_code == 0, run
        assert run.log.decode().startswith(START_MARKER)
        assert run.duration_s < 5
        assert parse_log(run.log, run, handshake_elf, BLUEPILL).outcome == "passed"


def test_without_an_answer_the_firmware_starts_anyway(handshake_elf: Path, tmp_path: Path) -> None:
    qemu = BLUEPILL.section("qemu")
    # A fresh board: no poke byte from an earlier run is waiting in the UART.
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
        config = GdbRemoteConfig(board.gdb_address, serial=board.serial_url, handshake=False)
        quiet = run_over_gdb(config, handshake_elf, 60.0)
    assert quiet.exit_code == 0, quiet  # the wait is bounded
    assert quiet.log.decode().startswith(START_MARKER)
    assert parse_log(quiet.log, quiet).outcome == "passed"
