"""harness.footprint on real ELF files made by the real compilers."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.boards import MemoryRegion, available_boards, load_board
from harness.footprint import FootprintError, check_fits, measure, misfit_message

SOURCE = """
const char big_table[20000] = {1};   /* .rodata: flash only */
char initialised[3000] = {1};        /* .data: flash (load image) and RAM */
char zeroed[5000];                   /* .bss: RAM only */
int main(void) { return big_table[zeroed[7]] + initialised[zeroed[3]]; }
"""

LINKER_SCRIPT = """
MEMORY { FLASH (rx) : ORIGIN = 0x08000000, LENGTH = 64K
         RAM (rwx)  : ORIGIN = 0x20000000, LENGTH = 20K }
ENTRY(main)
SECTIONS {
  .text : { *(.text*) *(.rodata*) } > FLASH
  .data : { *(.data*) } > RAM AT > FLASH
  .bss (NOLOAD) : { *(.bss*) *(COMMON) } > RAM
  .stack (NOLOAD) : { . = . + 2048; } > RAM
}
"""


def _compile(tmp_path: Path, compiler: str, *flags: str) -> Path:
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not found; install it (apt-get install gcc / gcc-arm-none-eabi)")
    source = tmp_path / "sized.c"
    source.write_text(SOURCE)
    elf = tmp_path / "sized.elf"
    subprocess.run([compiler, "-O1", *flags, str(source), "-o", str(elf)], check=True, capture_output=True)
    return elf


def test_host_elf_counts_rodata_and_data_as_flash_and_data_bss_as_ram(tmp_path: Path) -> None:
    elf = _compile(tmp_path, "gcc")
    footprint = measure(elf)
    assert footprint.flash >= 20000 + 3000
    assert footprint.flash < 20000 + 3000 + 20000  # bss is not in flash
    assert 3000 + 5000 <= footprint.ram < 3000 + 5000 + 4096


def test_arm_elf_ram_is_everything_in_the_ram_region_including_the_stack(tmp_path: Path) -> None:
    script = tmp_path / "tiny.ld"
    script.write_text(LINKER_SCRIPT)
    elf = _compile(tmp_path, "arm-none-eabi-gcc", "-mcpu=cortex-m3", "-mthumb", "-nostdlib", f"-T{script}")
    board = dataclasses.replace(load_board("host"), name="tiny", core="cortex-m3",
                                flash=MemoryRegion(0x08000000, 64 * 1024), ram=MemoryRegion(0x20000000, 20 * 1024))
    footprint = check_fits(elf, board)
    assert 23000 <= footprint.flash < 24000
    assert 3000 + 5000 + 2048 <= footprint.ram < 3000 + 5000 + 2048 + 256
    assert "of 65,536 (" in footprint.describe(board)

    smaller = dataclasses.replace(board, flash=MemoryRegion(0x08000000, 16 * 1024))
    with pytest.raises(FootprintError) as error:
        check_fits(elf, smaller)
    message = str(error.value)
    assert f"sized.elf needs {footprint.flash:,} B flash but tiny has 16,384 B" in message
    assert "try --board=" in message or "no board in boards/ is big enough" in message


def test_misfit_suggests_a_board_that_is_big_enough() -> None:
    mcu_boards = [load_board(n) for n in available_boards() if not load_board(n).is_host]
    mcu_boards = [b for b in mcu_boards if b.flash and b.ram]
    if len(mcu_boards) < 2:
        pytest.skip("needs two MCU boards in boards/ to suggest one for the other")
    small = min(mcu_boards, key=lambda b: b.flash.size)  # type: ignore[union-attr]
    big = max(mcu_boards, key=lambda b: b.flash.size)  # type: ignore[union-attr]
    assert small.flash is not None and big.flash is not None
    if big.flash.size <= small.flash.size:
        pytest.skip("all MCU boards have the same flash size")
    need = small.flash.size + 1
    message = misfit_message("big_test", small, need, 16)
    assert message is not None
    assert f"big_test needs {need:,} B flash but {small.name} has {small.flash.size:,} B" in message
    assert "try --board=" in message
    assert misfit_message("big_test", small, 16, 16) is None


def test_not_an_elf_is_a_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "firmware.bin"
    junk.write_bytes(b"\x00\x01" * 100)
    with pytest.raises(FootprintError, match="not an ELF file"):
        measure(junk)
    with pytest.raises(FootprintError, match="build it first"):
        measure(tmp_path / "missing.elf")
