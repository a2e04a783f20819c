"""The generated Renode platform is the minimal one recorded working on real Renode 1.14.0, from the board file."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import BoardError, load_board
from harness.board.renode_platform import allowed_windows, cpu_type, outside_the_chip, platform_description

RECORDED = REPO_ROOT / "tests" / "renode_recordings" / "1.14" / "stm32f103c8-minimal.repl"


def _entries(text: str) -> list[str]:
    """The platform's lines without comments, with SysTick's frequency (set per board) left out."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip() and not line.startswith("//")]
    return [line for line in lines if "systickFrequency" not in line]


def test_bluepill_is_the_recorded_minimal_platform() -> None:
    """Entry for entry what real Renode 1.14.0 loaded and ran (tests/renode_recordings/1.14): real sizes,
    flash also at 0, the NVIC with 4 priority bits, a Cortex-M3, USART2 on its interrupt."""
    ours = platform_description(load_board("bluepill"))
    assert _entries(ours) == _entries(RECORDED.read_text())
    assert "systickFrequency: 8000000" in ours  # the board's clock (the recording kept Renode's 72 MHz)


def test_netduinoplus2_gets_its_own_sizes_and_the_fpu_core() -> None:
    board = load_board("netduinoplus2")
    text = platform_description(board)
    assert cpu_type(board) == "cortex-m4f" and 'cpuType: "cortex-m4f"' in text
    assert re.search(r"flash: .*\n.*sysbus 0x08000000;\n.*sysbus 0x0\n.*\n    size: 0x100000\n", text)
    assert "sram: Memory.MappedMemory @ sysbus 0x20000000\n    size: 0x20000\n" in text


def test_the_chips_map_is_flash_ram_peripherals_and_the_system_space() -> None:
    board = load_board("bluepill")
    assert not outside_the_chip(board, 0x08000000) and not outside_the_chip(board, 0x20004FFC)
    assert not outside_the_chip(board, 0x40021018)  # RCC: on the chip, not modelled by Renode
    assert not outside_the_chip(board, 0xE0001004)  # DWT in the system control space
    assert not outside_the_chip(board, 0x00000004)  # the boot alias of flash
    for address in (0x60000000, 0x0A000000, 0x20005000, 0x08010000):  # the recorded stores (2c/2d)
        assert outside_the_chip(board, address), hex(address)
    assert {name for _, _, name in allowed_windows(board)} >= {"flash", "RAM", "APB1", "APB2", "AHB"}


def test_a_board_without_what_the_platform_needs_is_told_what_to_add(tmp_path: Path) -> None:
    board = load_board("bluepill")
    raw = {**board.raw, "renode": {"platform": "generated", "uart": "sysbus.usart2"}}
    with pytest.raises(BoardError, match="uart_model"):
        platform_description(dataclasses.replace(board, raw=raw))
    raw["renode"] = {**raw["renode"], "uart_model": "UART.STM32_UART", "uart_irq": "38"}
    with pytest.raises(BoardError, match="uart_irq must be an integer"):
        platform_description(dataclasses.replace(board, raw=raw))


# Renode's own stm32f4.repl (renode 81da46c1 = 1.14.0 lines 16-17 and 35-42; d66b0c2a = 1.16.1 lines 19-20 and
# 38-45, the same text): the STM32F4's USART2, NVIC and core as Renode models them.
STM32F4_REPL = """usart2: UART.STM32_UART @ sysbus <0x40004400, +0x100>
    -> nvic@38

nvic: IRQControllers.NVIC @ sysbus 0xE000E000
    priorityMask: 0xF0
    IRQ -> cpu@0

cpu: CPU.CortexM @ sysbus
    nvic: nvic
"""


def test_netduinoplus2_models_the_stm32f4_as_renodes_own_platform_does() -> None:
    """Not loaded on a real Renode (no recording): held against Renode's stm32f4.repl entry for entry. Only the
    core differs: ``cortex-m4f`` (the F405 has the FPU the firmware is built for; a model Renode knows: its
    NVIC.cs names it, renode-infrastructure 6a0ba28d:351 and add012af:358, and bundled platforms use it), and
    flash is also at 0, the boot alias the chip has (stm32f4.repl maps nothing there: recorded, 2b)."""
    ours = set(_entries(platform_description(load_board("netduinoplus2"))))
    assert set(_entries(STM32F4_REPL)) - ours == set()
    assert {line for line in ours if "cpuType" in line} == {'    cpuType: "cortex-m4f"'}
