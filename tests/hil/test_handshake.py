"""The start handshake in a real bluepill build (the repo's Make, ``program`` goal), on the bluepill's QEMU machine.

The handshake is linked in (boards/cortex_m/handshake_at_start.cc) so the
shared objects of the normal bluepill build are untouched. Logged over
USART2 (a loopback TCP socket), exit status through semihosting serviced by
the harness over QEMU's GDB stub.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.make import bin_dir, board_lock, make_command
from harness.formats.micro_test import sign
from harness.formats.reader import parse_log
from harness.hil.devices import load_hardware_map, write_hardware_map
from harness.hil.emulated import emulated_rack
from harness.hil.pool import HilRunner
from harness.runners.gdbremote.qemu_board import start_qemu_board
from harness.runners.gdbremote_runner import GdbRemoteConfig, load_and_go, run_over_gdb
from harness.runners.uart import HANDSHAKE_BYTE, START_MARKER

pytestmark = [
    pytest.mark.emulator,
    pytest.mark.skipif(
        shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
        reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
    ),
]
BLUEPILL = load_board("bluepill")
NAME = "hil_kernel_util_handshake"
# The framework's end-of-run record: "~~~MT <seq> <mac> DONE PASSED".
DONE_PASSED = re.compile(rb"~~~MT [0-9]+ [0-9a-f]{8} DONE PASSED")


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


@pytest.fixture(scope="module")
def plain_and_handshake_builds() -> tuple[Path, Path]:
    """kernel_util_test as pytest builds it, and its make HANDSHAKE=1 variant (gen/bluepill_handshake/)."""
    from harness.build.driver import ensure_binary

    plain = ensure_binary(BLUEPILL, "kernel_util_test", progress=None)
    variant = ensure_binary(BLUEPILL, "kernel_util_test", progress=None, handshake=True)
    return plain, variant


def _read_after_a_late_open(elf: Path, board: Any, late_s: float = 0.06) -> tuple[bytes, float]:
    """Starts ``elf`` with nobody on the UART (as while a USB serial port re-enumerates after reset),
    connects ``late_s`` later and pokes like the serial runner until the firmware talks; what it
    heard, and how late (seconds after the start began) the port really opened.

    QEMU drops what the UART sends while no client is connected. (The firmware's 2 s handshake
    window is about 0.2 s under QEMU: the bluepill's tick rate assumes its 8 MHz clock.)
    """
    began = time.monotonic()
    assert load_and_go(elf, board.gdb_address) is None
    time.sleep(late_s)
    data = b""
    with socket.create_connection(("127.0.0.1", board.serial_port), timeout=0.02) as uart:
        opened_after = time.monotonic() - began
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not DONE_PASSED.search(data):
            if not data:
                uart.sendall(HANDSHAKE_BYTE)
            with contextlib.suppress(TimeoutError):
                data += uart.recv(4096)
    return data, opened_after


# The handshake window under QEMU is about 0.2 s of host time; a port that opened later than this
# (a loaded CI machine descheduled the test) says nothing about the handshake, so that try is redone.
WINDOW_UNDER_QEMU_S = 0.15


def test_handshake_build_loses_nothing_when_the_port_opens_late(
    plain_and_handshake_builds: tuple[Path, Path], tmp_path: Path
) -> None:
    plain, variant = plain_and_handshake_builds
    assert variant.parent.parent.name == "bluepill_handshake" and START_MARKER.encode() in variant.read_bytes()
    assert START_MARKER.encode() not in plain.read_bytes()  # the plain build pytest runs is untouched
    qemu = BLUEPILL.section("qemu")
    # The first records exactly as the firmware prints them (nobody hands it a run token here: key 0).
    start = sign(0, "START micro_test 2").encode()
    first_test = sign(1, "BEGIN ShapesAndTypes").encode()
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
        lost, _ = _read_after_a_late_open(plain, board)
    assert first_test not in lost  # without the handshake the start of the log is gone
    tries: list[float] = []
    for _ in range(4):
        with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as board:
            kept, opened_after = _read_after_a_late_open(variant, board)
        tries.append(round(opened_after, 3))
        if opened_after <= WINDOW_UNDER_QEMU_S:
            break
    else:
        pytest.fail(f"the UART never opened inside the handshake window (opened after {tries} s): machine too loaded")
    # The firmware waited for the byte, then printed the marker and every line: no record is missing.
    assert kept.startswith(START_MARKER.encode() + b"\r\n" + start + b"\r\n" + first_test), kept[:200]
    assert DONE_PASSED.search(kept)
    report = parse_log(kept)
    assert report.outcome == "passed" and report.problems == [], report.summary


def test_map_device_with_handshake_true_runs_the_handshake_build(
    plain_and_handshake_builds: tuple[Path, Path], tmp_path: Path
) -> None:
    plain, variant = plain_and_handshake_builds
    hardware_map, boards = emulated_rack(BLUEPILL, 1, log_dir=tmp_path)
    try:
        (device,) = hardware_map.devices
        device.handshake = True
        path = tmp_path / "rack.toml"
        write_hardware_map(hardware_map, path)
        assert "handshake = true" in path.read_text()
        run = HilRunner(load_hardware_map(path)).run(plain, BLUEPILL, 60.0)
    finally:
        for board in boards:
            board.stop()
    harness_line, log = run.annotated_log.decode().split("\n", 1)
    assert f"start-handshake build {variant}" in harness_line
    assert log.startswith(START_MARKER), run
    assert parse_log(run.log, run, variant, BLUEPILL).outcome == "passed"
