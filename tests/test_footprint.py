"""harness.build.footprint on real ELF files made by the real compilers."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.board.boards import MemoryRegion, available_boards, load_board
from harness.build.footprint import FootprintError, check_fits, measure, misfit_message

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


# ------------------------------------------------------ footprint report --
MAP = """\
Discarded input sections

 .text.unused   0x0000000000000000       0x40 /repo/gen/obj/a.o

Linker script and memory map

LOAD /repo/gen/obj/a.o
.text           0x08000000      0x130
 *(.text*)
 .text          0x08000000       0x80 /repo/gen/obj/a.o
                0x08000000                main
 .text.a_very_long_function_name_that_wraps
                0x08000080       0x40 /repo/gen/lib/libx.a(b.o)
 *fill*         0x080000c0       0x10
 .text          0x080000d0       0x60 /tmp/ccAbCd.ltrans0.ltrans.o

.data           0x20000000        0x8 load address 0x08000130
 .data          0x20000000        0x8 /repo/gen/obj/a.o
                0x00001000                _stack_size = 0x1000

.debug_info     0x0000000000000000      0x999
 .debug_info    0x0000000000000000      0x999 /repo/gen/obj/a.o
"""


def test_link_map_input_sections_per_object(tmp_path: Path) -> None:
    from harness.build.footprint import map_input_sections

    path = tmp_path / "x.map"
    path.write_text(MAP)
    assert map_input_sections(path, Path("/repo")) == [
        (".text", "gen/obj/a.o", 0x80),
        (".text", "gen/lib/libx.a(b.o)", 0x40),  # name on the line before its numbers
        (".text", "(fill)", 0x10),
        (".text", "<lto>.ltrans0", 0x60),  # no random temporary name: comparable across builds
        (".data", "gen/obj/a.o", 8),
        (".debug_info", "gen/obj/a.o", 0x999),  # binary_report drops it: not allocated in the ELF
    ]


def _check_report_entry(entry: dict, elf: Path, board_name: str) -> None:
    footprint = measure(elf, load_board(board_name))
    assert entry["flash"] == footprint.flash and entry["ram"] == footprint.ram
    assert sum(s["flash"] for s in entry["sections"].values()) == footprint.flash
    assert sum(s["ram"] for s in entry["sections"].values()) == footprint.ram
    objects = entry["objects"]
    assert objects, entry.get("objects_note")
    # Every byte is owned by an object file (or the linker script's stack/heap entry).
    assert sum(o["flash"] for o in objects.values()) == footprint.flash
    assert sum(o["ram"] for o in objects.values()) == footprint.ram


def test_build_writes_the_footprint_report_per_binary_section_and_object() -> None:
    import json

    from harness import REPO_ROOT
    from harness.build.driver import FOOTPRINT_JSON, build
    from harness.build.make import gen_dir

    board = load_board("host")
    result = build(board, ["add_test", "conv_test"], progress=None)
    assert result.ok, result.output
    build(board, ["add_test"], progress=None)  # a later build of fewer binaries keeps the others' entries
    report = json.loads((gen_dir(board) / FOOTPRINT_JSON).read_text())
    assert report["board"] == "host" and report["schema"] == 1 and report["lto"] is False
    for name in ("add_test", "conv_test"):
        entry = report["binaries"][name]
        assert entry["elf"] == f"micro_runtime/gen/host/bin/{name}"
        _check_report_entry(entry, REPO_ROOT / entry["elf"], "host")
    objects = report["binaries"]["add_test"]["objects"]
    own = objects["micro_runtime/gen/host/obj/micro_runtime/kernels/add_test.cc.o"]
    assert own["flash"] > 0 and ".text" in own["sections"]
    assert any(name.startswith("micro_runtime/gen/host/lib/libmicro_runtime.a(") for name in objects)


@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs apt-get install gcc-arm-none-eabi")
def test_lto_board_report_says_per_object_figures_need_lto_0() -> None:
    import json

    from harness import REPO_ROOT
    from harness.build.driver import FOOTPRINT_JSON, build
    from harness.build.footprint import LTO_NOTE
    from harness.build.make import gen_dir

    board = load_board("bluepill")
    assert board.lto  # bluepill links with LTO by default (docs/build.md)
    assert build(board, ["add_test"], progress=None).ok
    report = json.loads((gen_dir(board) / FOOTPRINT_JSON).read_text())
    assert report["lto"] is True and report["note"] == LTO_NOTE and "LTO=0" in LTO_NOTE
    entry = report["binaries"]["add_test"]
    assert entry["objects_note"] == LTO_NOTE
    _check_report_entry(entry, REPO_ROOT / entry["elf"], "bluepill")
    assert "<lto>.ltrans0" in entry["objects"] and entry["sections"][".stack"]["ram"] > 0
    assert entry["flash"] <= report["limits"]["flash"]
