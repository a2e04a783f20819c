"""Renode's own log, replayed from real Renode 1.14.0 recordings (tests/renode_recordings/1.14) through the
run's log watch: what ends a run as a crash, and what is only Renode not modelling a part of the chip."""

from __future__ import annotations

import time
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.core.crash import parse_hardfault_line
from harness.run_result import RunResult
from harness.runners.renode import RenodeLogWatch
from harness.runners.stream import DeviceStream

RECORDED = REPO_ROOT / "tests" / "renode_recordings" / "1.14"
BLUEPILL = load_board("bluepill")


def _replay(name: str, tmp_path: Path, board_name: str = "bluepill") -> tuple[RunResult, RenodeLogWatch]:
    log = tmp_path / "renode.log"
    log.write_bytes(b"")
    stream = DeviceStream(exit_status=False)
    watch = RenodeLogWatch(log, stream, load_board(board_name))
    log.write_bytes((RECORDED / name).read_bytes())
    watch()
    return stream.finish(stream.follow(time.monotonic() + 0.3)), watch


def test_an_unmapped_store_on_the_generated_platform_is_a_crash_naming_it(tmp_path: Path) -> None:
    """2d: the chip's RCC and GPIO (not modelled) only warn; the store to 0x60000000 (FSMC, not on a
    STM32F103C8) ends the run at once, with the address, the PC and the board file to look at."""
    end, watch = _replay("2d_unmapped_minimal_bluepill.renode.log", tmp_path)
    assert end.end_reason == "crash" and watch.fired
    (note,) = end.notes
    assert note.text == ("WriteDoubleWord at 0x60000000 (PC=0x08000668): outside bluepill's memory map "
                         f"({BLUEPILL.path / 'board.toml'} [memory]); the chip would fault there")


def test_a_passing_run_with_unmodelled_peripherals_is_left_alone(tmp_path: Path) -> None:
    """2a: reads and writes of RCC (0x40021018) and GPIOA, and the offline SVD download errors, are
    Renode's limits, not the firmware's faults."""
    end, watch = _replay("2a_pass_bluepill.renode.log", tmp_path)
    assert end.end_reason == "timeout" and not watch.fired and end.notes == []


def test_renodes_cpu_abort_is_a_crash(tmp_path: Path) -> None:
    end, _ = _replay("2b_nullcall_netduinoplus2.renode.log", tmp_path, "netduinoplus2")
    assert end.end_reason == "crash"
    assert end.notes[0].text.startswith("Renode stopped the core: cpu: CPU abort [PC=0x0]")


def test_unmodelled_fault_registers_are_said_not_decoded(tmp_path: Path) -> None:
    """2b/2e: Renode's NVIC does not model HFSR, MMFAR and BFAR (it logs the reads; they read 0). The
    unprivileged store's MemManage fault then names no address rather than 0x00000000."""
    _, watch = _replay("2e_mpu_unpriv_write_bluepill.renode.log", tmp_path)
    assert watch.unmodelled == ["HFSR", "MMFAR", "BFAR"] and not watch.fired
    line = (RECORDED / "2e_mpu_unpriv_write_bluepill.uart.log").read_text().splitlines()[-1]
    crash = parse_hardfault_line(line)
    assert crash is not None and "at 0x00000000" in crash.summary()  # what the zeros would say
    crash.unmodelled = tuple(watch.unmodelled)
    assert "MemManage data access violation (address unknown: the emulator does not model MMFAR)" in crash.summary()
    assert "HFSR = not modelled by the emulator" in crash.render()
