"""Emulation as strict as the chip: on every emulated board, a load or store outside the real chip's
flash, RAM and peripheral map (the board file's [memory]) faults, and the crash report names the
address; the same programs die with SIGSEGV on the host.

The fixtures (tests/fixtures/micro/unmapped_*_fixture.cc) run through the pytest plugin in a
pytester subprocess on the real backends, like test_plugin.py. Without the guard word (what a real
chip sees: nobody writes it) the same firmware runs unguarded, which QEMU's bigger machines let
pass: that is what the guard is for, and what makes these tests able to fail.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, junit_cases, plugin_args, requires_mcu, subprocess_env

from harness.board.boards import load_board
from harness.board.emulation_guard import GUARD_MAGIC, guard_word
from harness.board.mpu_regions import region_table
from harness.build.driver import build_program
from harness.core.crash import parse_hardfault_line
from harness.runners.qemu import qemu_command

GUARDED_BOARDS = ("bluepill", "netduinoplus2", "mps2_an505")
TOP, EXTERNAL = 0xFFFFFFF0, 0x60000000
# fixture stem -> (case name, address; None = the first address past the board's RAM)
PROGRAMS: dict[str, tuple[str, int | None]] = {
    "unmapped_read_top": ("ReadsTop", TOP),
    "unmapped_write_top": ("WritesTop", TOP),
    "unmapped_read_external": ("ReadsExternal", EXTERNAL),
    "unmapped_write_external": ("WritesExternal", EXTERNAL),
    "unmapped_read_past_ram": ("ReadsPastRam", None),
    "unmapped_write_past_ram": ("WritesPastRam", None),
}


def _ram_end(board: str) -> int:
    ram = load_board(board).ram
    assert ram is not None
    return ram.origin + ram.size


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in subprocess_env().items():
        monkeypatch.setenv(key, value)


@requires_mcu
@pytest.mark.emulator
def test_unmapped_accesses_crash_and_name_the_address(pytester: pytest.Pytester, env: None, tmp_path: Path) -> None:
    for stem in PROGRAMS:
        shutil.copyfile(FIXTURES / f"{stem}_fixture.cc", pytester.path / f"{stem}_test.cc")
    xml = tmp_path / "junit.xml"
    boards = ",".join(("host", *GUARDED_BOARDS))
    pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", f"--board={boards}", "--qemu",
                                  "--micro-timeout=60", f"--junitxml={xml}", timeout=900)
    cases = junit_cases(xml)
    for stem, (case, address) in PROGRAMS.items():
        outcome, text, _ = cases[f"{stem}_test::{case}[host]"]
        assert outcome in ("error", "failure") and "crashed" in text and "SIGSEGV" in text, (stem, outcome, text)
        for board in GUARDED_BOARDS:
            key = f"{stem}_test::{case}[{board}]"
            assert key in cases, f"{key} missing; have {sorted(cases)}"
            outcome, text, _ = cases[key]
            expected = address if address is not None else _ram_end(board)
            assert outcome in ("error", "failure") and f"crashed on {board}" in text, (key, outcome, text)
            assert f"HardFault: MemManage data access violation at 0x{expected:08x}" in text, (key, text)
            # The decoded report: MMFAR shown as valid, the faulting function symbolized.
            assert f"MMFAR = 0x{expected:08x} (valid)" in text, (key, text)
            function = "UnmappedRead" if "_read_" in stem else "UnmappedWrite"
            assert function in text, (key, text)


# ----------------------------------------------------------- direct QEMU runs


def _build(board: str, fixture: str) -> Path:
    result = build_program(load_board(board), FIXTURES / fixture, f"guard_{Path(fixture).stem}", progress=None)
    assert result.error is None and result.elf is not None, result.error
    return result.elf


def _run(board: str, elf: Path, guarded: bool = True) -> tuple[int, str]:
    argv = qemu_command(elf, load_board(board))
    if not guarded:  # what a real chip sees: nobody writes the guard word
        index = argv.index("-device")
        del argv[index : index + 2]
    out = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    return out.returncode, out.stdout.decode("utf-8", "replace")


@requires_mcu
@pytest.mark.emulator
@pytest.mark.parametrize("board", GUARDED_BOARDS)
def test_the_guard_word_is_set_by_the_qemu_runner(board: str) -> None:
    elf = _build(board, "unmapped_write_external_fixture.cc")
    guard = guard_word(elf)
    assert guard is not None
    address, value = guard
    ram = load_board(board).ram
    assert ram is not None and ram.origin <= address < ram.origin + ram.size and value == GUARD_MAGIC
    argv = qemu_command(elf, load_board(board))
    assert argv[argv.index("-device") + 1] == f"loader,addr=0x{address:08x},data=0x{GUARD_MAGIC:08x},data-len=4"
    assert argv.index("-device") < argv.index("-kernel")
    # The guard makes the store a MemManage fault. Without the word the firmware runs with the MPU
    # off, as on silicon: QEMU's own machine decides, and netduino2 (bluepill) lets the store pass,
    # the bug the guard exists to catch.
    code, log = _run(board, elf)
    report = parse_hardfault_line(log)
    assert code == 3 and report is not None and "DACCVIOL" in report.fault_names, log
    assert report.fault_address == EXTERNAL, log
    code, log = _run(board, elf, guarded=False)
    unguarded = parse_hardfault_line(log)
    assert unguarded is None or "DACCVIOL" not in unguarded.fault_names, log
    if board == "bluepill":
        assert unguarded is None and "did not fault" in log, log


def test_no_guard_word_for_host_binaries_and_other_files(tmp_path: Path) -> None:
    assert guard_word(tmp_path / "missing") is None
    text = tmp_path / "notes.txt"
    text.write_text("not an ELF")
    assert guard_word(text) is None
    true = shutil.which("true")
    assert true is not None and guard_word(Path(true)) is None  # a host ELF has no guard symbol


@requires_mcu
@pytest.mark.emulator
def test_stack_overflow_hits_the_stack_guard_on_armv7m() -> None:
    """Cortex-M3 has no stack limit register: with the guard, the overflow stops at the no-access
    region at the bottom of the stack instead of running through .bss first."""
    guard = region_table(load_board("bluepill")).stack_guard
    assert guard is not None
    code, log = _run("bluepill", _build("bluepill", "stack_overflow_fixture.cc"))
    report = parse_hardfault_line(log)
    assert code == 3 and report is not None, log
    assert "DACCVIOL" in report.fault_names and report.fault_address is not None, log
    assert guard.origin <= report.fault_address < guard.origin + guard.size, (hex(report.fault_address), log)
    assert re.search(r"stack guard", report.summary()), report.summary()


@requires_mcu
@pytest.mark.emulator
def test_emulated_rack_runs_with_the_guard(tmp_path: Path) -> None:
    """The emulated rack (QEMU behind its GDB stub, started without firmware): the gdbremote runner
    writes the guard word after loading and resetting, for the rack's devices only."""
    pytest.importorskip("pyocd", reason="the gdbremote runner services semihosting with pyOCD: pip install pyocd")
    from harness.hil.drivers import runner_for_device
    from harness.hil.emulated import emulated_rack

    board = load_board("bluepill")
    elf = _build("bluepill", "unmapped_read_top_fixture.cc")
    rack, emulated = emulated_rack(board, 1, tmp_path)
    try:
        runner = runner_for_device(rack.devices[0], board)
        assert runner.config.emulation_guard
        guarded = runner.run(elf, board, 60.0)
        report = parse_hardfault_line(guarded.log.decode("utf-8", "replace"))
        assert report is not None and report.fault_address == TOP and "DACCVIOL" in report.fault_names, guarded
        unguarded_runner = type(runner)(dataclasses.replace(runner.config, emulation_guard=False))
        unguarded = unguarded_runner.run(elf, board, 60.0)
        assert b"did not fault" in unguarded.log and b"HardFault" not in unguarded.log, unguarded
    finally:
        for qemu in emulated:
            qemu.stop()
