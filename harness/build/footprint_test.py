"""Flash and RAM of small ELFs built here, against ``arm-none-eabi-size``; does-not-fit messages naming a board
that fits."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness.board.boards import MemoryRegion, load_board
from harness.build.footprint import Footprint, FootprintError, boards_that_fit, check_fits, measure, misfit_message
from harness.testing.mini_fw import GCC, toolchain_missing

SIZE = "arm-none-eabi-size"
BLUEPILL = load_board("bluepill")  # 64 KiB flash at 0x08000000, 20 KiB RAM at 0x20000000
NETDUINO = load_board("netduinoplus2")  # 1 MiB flash, 128 KiB RAM, same origins

SOURCE = """
const char table[{table}] = {{1, 2, 3}};
char buffer[{buffer}];
int counter = 5;
void reset_handler(void) {{ for (;;) {{ buffer[counter++ % {buffer}] = table[counter % {table}]; }} }}
"""
# .data is placed in RAM and loaded from flash; .bss takes RAM only.
LINKER_SCRIPT = """
MEMORY
{{
  FLASH (rx) : ORIGIN = 0x{flash.origin:08x}, LENGTH = {flash.size}
  RAM (rwx)  : ORIGIN = 0x{ram.origin:08x}, LENGTH = {ram.size}
}}
ENTRY(reset_handler)
SECTIONS
{{
  .text : {{ *(.text*) *(.rodata*) }} > FLASH
  .data : {{ *(.data*) }} > RAM AT > FLASH
  .bss (NOLOAD) : {{ *(.bss*) *(COMMON) }} > RAM
}}
"""


def _link(folder: Path, name: str, flash: MemoryRegion, ram: MemoryRegion, table: int, buffer: int,
          *flags: str) -> Path:
    (folder / f"{name}.c").write_text(SOURCE.format(table=table, buffer=buffer))
    (folder / f"{name}.ld").write_text(LINKER_SCRIPT.format(flash=flash, ram=ram))
    elf = folder / f"{name}.elf"
    subprocess.run([GCC, "-mcpu=cortex-m3", "-mthumb", "-O1", "-nostdlib", *flags, "-T", f"{name}.ld",
                    f"{name}.c", "-o", elf.name], cwd=folder, check=True, capture_output=True, text=True)
    return elf


def _size(elf: Path, tool: str = SIZE) -> tuple[int, int, int]:
    """text, data, bss of ``size`` (Berkeley format)."""
    out = subprocess.run([tool, str(elf)], check=True, capture_output=True, text=True).stdout.splitlines()
    text, data, bss = out[1].split()[:3]
    return int(text), int(data), int(bss)


@pytest.fixture(scope="module")
def elfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    missing = toolchain_missing() or (None if shutil.which(SIZE) else f"{SIZE} not found")
    if missing is not None:
        pytest.skip(missing)
    folder = tmp_path_factory.mktemp("footprint")
    assert BLUEPILL.flash is not None and BLUEPILL.ram is not None
    assert NETDUINO.flash is not None and NETDUINO.ram is not None
    return {
        "small": _link(folder, "small", BLUEPILL.flash, BLUEPILL.ram, 1000, 3000),
        "small_be": _link(folder, "small_be", BLUEPILL.flash, BLUEPILL.ram, 1000, 3000, "-mbig-endian"),
        # 30,000 B of RAM: links for the netduino's 128 KiB, not for the bluepill's 20 KiB
        "big_ram": _link(folder, "big_ram", NETDUINO.flash, NETDUINO.ram, 1000, 30000),
        # 70,000 B of flash and of RAM: over both of the bluepill's limits
        "big_both": _link(folder, "big_both", NETDUINO.flash, NETDUINO.ram, 70000, 70000),
    }


@pytest.mark.parametrize("name", ["small", "small_be", "big_ram", "big_both"])
def test_flash_and_ram_agree_with_size(elfs: dict[str, Path], name: str) -> None:
    text, data, bss = _size(elfs[name])
    for board in (BLUEPILL, None):  # RAM by the board's region, and by the writable flag without a board
        footprint = measure(elfs[name], board)
        assert (footprint.flash, footprint.ram) == (text + data, data + bss)


def test_the_sections_counted_are_the_allocated_non_empty_ones(elfs: dict[str, Path]) -> None:
    footprint = measure(elfs["small"], BLUEPILL)
    by_name = {s.name: s for s in footprint.sections}
    assert sorted(by_name) == [".bss", ".data", ".text"]  # not .comment, .ARM.attributes
    assert (by_name[".data"].size, by_name[".bss"].size) == (4, 3000)
    assert by_name[".bss"].nobits and not by_name[".data"].nobits
    assert (footprint.flash, footprint.ram) == (by_name[".text"].size + 4, 3004)


def test_a_host_binary_is_measured_too(tmp_path: Path) -> None:
    if shutil.which("gcc") is None or shutil.which("size") is None:
        pytest.skip("no native gcc/size")
    (tmp_path / "main.c").write_text("int counter = 3; char buffer[100];\n"
                                     "int main(void) { return counter + buffer[counter]; }\n")
    elf = tmp_path / "main"
    subprocess.run(["gcc", "-O1", "main.c", "-o", "main"], cwd=tmp_path, check=True, capture_output=True)
    text, data, bss = _size(elf, "size")
    footprint = measure(elf)
    assert (footprint.flash, footprint.ram) == (text + data, data + bss)


def test_ram_outside_the_boards_ram_region_is_not_counted(elfs: dict[str, Path]) -> None:
    elsewhere = load_board("mps2_an505")  # RAM at 0x38000000: none of this ELF's sections are there
    footprint = measure(elfs["small"], elsewhere)
    assert footprint.ram == 0 and footprint.flash == measure(elfs["small"]).flash


def test_describe_gives_the_share_of_the_board() -> None:
    footprint = Footprint(flash=6554, ram=10240, sections=())
    assert footprint.describe() == "flash 6,554 B, RAM 10,240 B"
    assert footprint.describe(BLUEPILL) == "flash 6,554 B of 65,536 (10%), RAM 10,240 B of 20,480 (50%)"


def test_boards_that_fit_are_mcu_boards_smallest_flash_first() -> None:
    assert boards_that_fit(0, 0) == ["bluepill", "netduinoplus2", "mps2_an505"]  # never the host
    assert boards_that_fit(65536, 20480) == ["bluepill", "netduinoplus2", "mps2_an505"]  # exactly full fits
    assert boards_that_fit(65537, 0) == ["netduinoplus2", "mps2_an505"]
    assert boards_that_fit(100_000, 200_000) == ["mps2_an505"]  # the netduino's RAM is 128 KiB
    assert boards_that_fit(0, 0, exclude="netduinoplus2") == ["bluepill", "mps2_an505"]
    assert boards_that_fit(5_000_000, 0) == []


def test_misfit_message_names_what_overflows_and_a_board_that_fits() -> None:
    assert misfit_message("fw.elf", BLUEPILL, 65536, 20480) is None
    assert misfit_message("fw.elf", BLUEPILL, 70000, 100) == (
        "fw.elf needs 70,000 B flash but bluepill has 65,536 B; try --board=netduinoplus2")
    assert misfit_message("fw.elf", BLUEPILL, 100, 30000) == (
        "fw.elf needs 30,000 B RAM but bluepill has 20,480 B; try --board=netduinoplus2")
    assert misfit_message("fw.elf", BLUEPILL, 70000, 200_000) == (
        "fw.elf needs 70,000 B flash but bluepill has 65,536 B and 200,000 B RAM but bluepill has 20,480 B; "
        "try --board=mps2_an505")
    assert misfit_message("fw.elf", NETDUINO, 5_000_000, 0) == (
        "fw.elf needs 5,000,000 B flash but netduinoplus2 has 1,048,576 B; no board in boards/ is big enough; "
        "shrink the binary or add a board")
    assert misfit_message("fw.elf", load_board("host"), 10**9, 10**9) is None  # the host has no limits


def test_check_fits_returns_the_footprint_or_says_why_not(elfs: dict[str, Path]) -> None:
    assert check_fits(elfs["small"], BLUEPILL) == measure(elfs["small"], BLUEPILL)
    text, data, bss = _size(elfs["big_ram"])
    assert check_fits(elfs["big_ram"], NETDUINO).ram == data + bss
    with pytest.raises(FootprintError) as error:
        check_fits(elfs["big_ram"], BLUEPILL)
    assert str(error.value) == (f"big_ram.elf needs {data + bss:,} B RAM but bluepill has 20,480 B; "
                                "try --board=netduinoplus2")
    text, data, bss = _size(elfs["big_both"])
    with pytest.raises(FootprintError) as error:
        check_fits(elfs["big_both"], BLUEPILL)
    assert str(error.value) == (f"big_both.elf needs {text + data:,} B flash but bluepill has 65,536 B and "
                                f"{data + bss:,} B RAM but bluepill has 20,480 B; try --board=netduinoplus2")


def test_what_is_not_an_elf_is_named(tmp_path: Path, elfs: dict[str, Path]) -> None:
    with pytest.raises(FootprintError, match=r"missing\.elf: No such file or directory; build it first$"):
        measure(tmp_path / "missing.elf")
    binary = tmp_path / "fw.bin"
    binary.write_bytes(b"\x00\x50\x00\x20" * 16)
    with pytest.raises(FootprintError, match=r"fw\.bin is not an ELF file; pass the linked binary, not a \.bin/\.hex"):
        measure(binary)
    cut = tmp_path / "cut.elf"
    cut.write_bytes(elfs["small"].read_bytes()[:40])  # the ELF magic, then nothing usable
    with pytest.raises(FootprintError, match="rebuild it$"):
        measure(cut)
