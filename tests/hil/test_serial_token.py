"""The run token over a UART-only link: the start handshake's pokes carry it, the firmware takes it.

A board reached only through its UART (no debugger the harness drives: here QEMU's bluepill loaded and
started by a GDB starter that writes no token) gets the token as the handshake's poke line
``MTK<16 hex>``; the firmware answers ``~~~MICRO START~~~ token`` and signs its records with it. The
serial runner then demands signed records (``records == "authenticated"``); without a token, or with
firmware that has no handshake, the run is judged and reported unauthenticated.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.build.driver import ensure_binary
from harness.outcome import Outcome
from harness.runners.gdbremote.qemu_board import start_qemu_board
from harness.runners.gdbremote_runner import load_and_go
from harness.runners.serial_runner import SerialConfig, SerialRunner
from harness.session import RunOptions, run_binary

pytestmark = [
    pytest.mark.emulator,
    pytest.mark.skipif(
        shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
        reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
    ),
]
BLUEPILL = load_board("bluepill")


@pytest.fixture(scope="module")
def handshake_build() -> Path:
    return ensure_binary(BLUEPILL, "kernel_util_test", progress=None, handshake=True)


def _run_over_uart(elf: Path, tmp_path: Path, token: bool) -> object:
    qemu = BLUEPILL.section("qemu")
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
        runner = SerialRunner(SerialConfig(board.serial_url, handshake=True),
                              starter=lambda path, _board: load_and_go(path, board.gdb_address))
        return run_binary(BLUEPILL, elf, RunOptions(runner=runner, backend="serial", timeout_s=60, token=token))


def test_the_handshake_hands_over_the_token(handshake_build: Path, tmp_path: Path) -> None:
    report = _run_over_uart(handshake_build, tmp_path, token=True)
    assert report.outcome == Outcome.PASSED, report.summary
    assert report.records == "authenticated" and report.token_delivery == "serial handshake"
    assert b"~~~MICRO START~~~ token" in report.log


def test_without_a_token_the_same_run_is_unauthenticated(handshake_build: Path, tmp_path: Path) -> None:
    report = _run_over_uart(handshake_build, tmp_path, token=False)
    assert report.outcome == Outcome.PASSED, report.summary
    assert report.records == "unauthenticated" and report.token_delivery is None
    assert b"~~~MICRO START~~~ token" not in report.log
