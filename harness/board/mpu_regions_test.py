"""The emulation guard's MPU region table, generated from the board files: encodings checked by
decoding the register values the way the cores do (ARMv7-M RBAR/RASR, ARMv8-M RBAR/RLAR), and
the board-file errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from harness.board import board_mk
from harness.board.boards import Board, BoardError, MemoryRegion, available_boards, load_board
from harness.board.mpu_regions import MPU_SLOTS, STACK_GUARD_SIZE, V8M_MAIR0, _v7m_blocks, region_table

GUARDED = [name for name in available_boards() if region_table(load_board(name)).arch is not None]


def _access(board: Board, address: int) -> str | None:
    """What the programmed MPU allows at ``address``: "ro", "rw", "rox" (read-only, executable), "none"
    (a matching no-access region), or None (no region: MemManage with the background map off).
    Decoded from the register values only, with the architecture's rules: ARMv7-M, the highest
    matching region wins; ARMv8-M, exactly one region may match."""
    table = region_table(board)
    hits: list[tuple[int, int, int]] = []  # (slot, AP, XN)
    for slot, region in enumerate(table.regions):
        if table.arch == "armv7m":
            rasr = region.attr
            if not rasr & 1:
                continue
            size = 1 << (((rasr >> 1) & 0x1F) + 1)
            base = region.rbar & ~(size - 1)
            if not base <= address < base + size:
                continue
            if size >= 256 and (rasr >> 8) >> ((address - base) // (size // 8)) & 1:
                continue  # subregion disabled
            ap = (rasr >> 24) & 7
            hits.append((slot, {0b000: 0, 0b011: 3, 0b110: 6, 0b111: 6}[ap], (rasr >> 28) & 1))
        else:
            base, limit = region.rbar & ~0x1F, region.attr | 0x1F
            if region.attr & 1 and base <= address <= limit:
                ap = (region.rbar >> 1) & 3
                hits.append((slot, 6 if ap & 2 else 3, region.rbar & 1))
    if not hits:
        return None
    if table.arch == "armv8m":
        assert len(hits) == 1, f"ARMv8-M regions overlap at 0x{address:08x} (that access would fault)"
    _, ap, xn = max(hits)
    if ap == 0:
        return "none"
    return ("ro" if ap == 6 else "rw") + ("" if xn else "x")


@pytest.mark.parametrize("name", GUARDED)
def test_declared_map_is_allowed_and_nothing_else(name: str) -> None:
    board = load_board(name)
    assert board.flash is not None and board.ram is not None
    flash_end, ram_end = board.flash.origin + board.flash.size, board.ram.origin + board.ram.size
    assert _access(board, board.flash.origin) == "rox" and _access(board, flash_end - 4) == "rox"
    assert _access(board, board.ram.origin) == "rw" and _access(board, ram_end - 4) == "rw"  # RAM is execute-never
    assert _access(board, ram_end) is None  # the first address past the chip's RAM
    assert _access(board, 0xFFFFFFF0) is None and _access(board, 0x60000000) is None
    assert _access(board, board.flash.origin - 4) is None and _access(board, flash_end) is None
    if board.uart_base is not None:
        assert _access(board, board.uart_base) == "rw"  # the log UART
    for window in board.section("memory")["peripherals"]:
        assert _access(board, window["origin"]) == "rw"
        assert _access(board, window["origin"] + window["size"] - 4) == "rw"
    assert len(region_table(board).regions) <= MPU_SLOTS


def test_bluepill_table() -> None:
    board = load_board("bluepill")
    table = region_table(board)
    assert table.arch == "armv7m"
    flash, ram = table.regions[0], table.regions[1]
    assert (flash.rbar, flash.covered) == (0x08000000, ((0x08000000, 0x08010000),))
    # 20 KB of RAM: a 32 KB region with its top three 4 KB subregions disabled.
    assert ram.rbar == 0x20000000 and (ram.attr >> 8) & 0xFF == 0b11100000 and (ram.attr >> 1) & 0x1F == 14
    assert ram.covered == ((0x20000000, 0x20005000),)
    assert [r.window.name for r in table.regions] == ["flash", "RAM", "APB1", "APB2", "AHB", "stack guard"]
    # The stack guard: last (wins over RAM), no access, at the bottom of the 4 KB stack.
    guard = table.regions[-1]
    assert table.stack_guard is not None and guard.window == table.stack_guard
    assert guard.covered == ((0x20005000 - 4096, 0x20005000 - 4096 + STACK_GUARD_SIZE),)
    assert _access(board, 0x20004000) == "none" and _access(board, 0x20004100) == "rw"


def test_netduinoplus2_ahb1_uses_subregions_of_a_shared_block() -> None:
    table = region_table(load_board("netduinoplus2"))
    ahb1 = next(r for r in table.regions if r.window.name == "AHB1")
    # 0x40020000-0x4007ffff: a 512 KB block at 0x40000000 without its first two 64 KB subregions,
    # so it does not grant APB1/APB2's gaps.
    assert ahb1.rbar == 0x40000000 and (ahb1.attr >> 8) & 0xFF == 0b00000011
    assert ahb1.covered == ((0x40020000, 0x40080000),)


def test_mps2_an505_uses_armv8m_base_limit_and_no_stack_guard() -> None:
    table = region_table(load_board("mps2_an505"))
    assert table.arch == "armv8m" and table.mair0 == V8M_MAIR0 and table.stack_guard is None  # MSPLIM does it
    flash, ram = table.regions[0], table.regions[1]
    assert flash.rbar == 0x10000000 | 0b11 << 1  # read-only, executable
    assert flash.attr == 0x103FFFE0 | 1 << 1 | 1  # limit, MAIR attribute 1, enabled
    assert ram.rbar == 0x38000000 | 0b01 << 1 | 1  # read-write, execute-never
    assert ram.attr == 0x381FFFE0 | 2 << 1 | 1


def test_a_window_straddling_a_big_boundary_is_split() -> None:
    # One block covering 0x0fff0000-0x1000ffff would be 512 MB (64 MB subregions): split instead.
    blocks = _v7m_blocks(0x0FFF0000, 0x10010000)
    assert blocks == [(0x0FFF0000, 16, 0), (0x10000000, 16, 0)]
    assert _v7m_blocks(0x20000000, 0x20000020) == [(0x20000000, 5, 0)]  # the 32-byte minimum


def _board_with(name: str, **memory: Any) -> Board:
    board = load_board(name)
    raw = dict(board.raw, memory=dict(board.raw["memory"], **memory))
    return dataclasses.replace(board, raw=raw)


def test_board_file_errors_name_the_fix() -> None:
    overlapping = _board_with("bluepill", peripherals=[{"name": "bad", "origin": 0x20004000, "size": 0x2000}])
    with pytest.raises(BoardError, match="RAM and bad overlap"):
        region_table(overlapping)
    # 0x5100 bytes of RAM round up to 0x6000 (4 KB subregions), over the window declared after it.
    rounding = dataclasses.replace(
        _board_with("bluepill", peripherals=[{"name": "near RAM", "origin": 0x20005800, "size": 0x100}]),
        ram=MemoryRegion(0x20000000, 0x5100),
    )
    with pytest.raises(BoardError, match=r"overlap after rounding.*RAM: 0x20000000-0x20005fff and near RAM"):
        region_table(rounding)
    many = [{"origin": 0x40000000 + 0x10000 * i, "size": 0x400} for i in range(6)]
    with pytest.raises(BoardError, match=r"needs 9 MPU regions, the core has 8.*merge \[memory\] peripherals"):
        region_table(_board_with("bluepill", peripherals=many))
    with pytest.raises(BoardError, match="needs integer origin and size"):
        region_table(_board_with("bluepill", peripherals=[{"origin": 0x40000000}]))


def test_memory_ld_carries_the_table_as_linker_symbols(tmp_path: Path) -> None:
    board = load_board("bluepill")
    board_mk.write(board, tmp_path)
    text = (tmp_path / "memory.ld").read_text()
    table = region_table(board)
    assert f"__emu_guard_regions = {len(table.regions)};" in text
    for slot, region in enumerate(table.regions):
        assert f"__emu_guard_rbar{slot} = 0x{region.rbar:08x}; __emu_guard_attr{slot} = 0x{region.attr:08x};" in text
    assert f"__emu_guard_rbar{MPU_SLOTS - 1} = 0x00000000; __emu_guard_attr{MPU_SLOTS - 1} = 0x00000000;" in text
    assert region_table(load_board("host")).regions == ()
