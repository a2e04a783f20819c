"""HardFault decoding: register bits, and symbolization against a real firmware ELF."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.core.crash import parse_hardfault_line, symbolize
from harness.testing.mini_fw import build_mini_firmware, mini_board, toolchain_missing

LINE = (
    "*** HardFault: PC=0x08001234 LR=0x08000567 xPSR=0x01000000 CFSR=0x00000400 "
    "HFSR=0x40000000 MMFAR=0xe000ed34 BFAR=0xe000ed38"
)


def test_parse_registers() -> None:
    report = parse_hardfault_line("noise " + LINE + " trailing")
    assert report is not None
    assert (report.pc, report.lr, report.xpsr) == (0x08001234, 0x08000567, 0x01000000)
    assert (report.cfsr, report.hfsr, report.mmfar, report.bfar) == (0x400, 0x40000000, 0xE000ED34, 0xE000ED38)
    assert report.fault_names == ["IMPRECISERR", "FORCED"]
    assert report.fault_address is None  # neither VALID bit set


@pytest.mark.parametrize(
    "line",
    [
        "HardFault happened",
        LINE.replace("PC=0x08001234", "PC=0x0800123"),  # 7 digits
        LINE.replace(" LR=", " XX="),
        "",
    ],
)
def test_not_a_hardfault_line(line: str) -> None:
    assert parse_hardfault_line(line) is None


@pytest.mark.parametrize(
    ("cfsr", "hfsr", "names"),
    [
        (0x00000001, 0, ["IACCVIOL"]),
        (0x00000082, 0, ["DACCVIOL", "MMARVALID"]),
        (0x00000038, 0, ["MUNSTKERR", "MSTKERR", "MLSPERR"]),
        (0x00008200, 0, ["PRECISERR", "BFARVALID"]),
        (0x00003900, 0, ["IBUSERR", "UNSTKERR", "STKERR", "LSPERR"]),
        (0x000F0000, 0, ["UNDEFINSTR", "INVSTATE", "INVPC", "NOCP"]),
        (0x03100000, 0, ["STKOF", "UNALIGNED", "DIVBYZERO"]),
        (0, 0x80000002, ["VECTTBL", "DEBUGEVT"]),
        (0x00000040, 0, ["CFSR bit 6"]),
    ],
)
def test_fault_bits(cfsr: int, hfsr: int, names: list[str]) -> None:
    line = LINE.replace("CFSR=0x00000400", f"CFSR=0x{cfsr:08x}").replace("HFSR=0x40000000", f"HFSR=0x{hfsr:08x}")
    report = parse_hardfault_line(line)
    assert report is not None
    assert report.fault_names == names


def test_fault_addresses_only_when_valid() -> None:
    valid = parse_hardfault_line(LINE.replace("CFSR=0x00000400", "CFSR=0x00008282"))
    assert valid is not None
    text = valid.render()
    assert "MMFAR = 0xe000ed34 (valid)" in text and "BFAR  = 0xe000ed38 (valid)" in text
    assert valid.fault_address == 0xE000ED38
    invalid = parse_hardfault_line(LINE)
    assert invalid is not None
    assert "MMFAR =" not in invalid.render() and "BFAR  =" not in invalid.render()


def test_render_explains_bits() -> None:
    report = parse_hardfault_line(LINE.replace("CFSR=0x00000400", "CFSR=0x02000000"))
    assert report is not None
    text = report.render()
    assert "DIVBYZERO: integer division by zero" in text
    assert "FORCED:" in text and "thread mode" in text


def test_missing_addr2line_degrades(tmp_path: Path) -> None:
    elf = tmp_path / "fw.elf"
    elf.write_bytes(b"\x7fELF")
    report = parse_hardfault_line(LINE)
    assert report is not None
    symbolize(report, elf, addr2line="no-such-addr2line")
    assert "gcc-arm-none-eabi" in (report.note or "")
    assert report.fault_names == ["IMPRECISERR", "FORCED"]  # registers still decoded
    assert "note:" in report.render()


def test_missing_elf_degrades(tmp_path: Path) -> None:
    report = parse_hardfault_line(LINE)
    assert report is not None
    symbolize(report, tmp_path / "gone.elf")
    assert "not found" in (report.note or "")


@pytest.mark.emulator
def test_real_crash_symbolized(tmp_path: Path) -> None:
    """Runs the crashing firmware in QEMU and decodes its actual HardFault line."""
    missing = toolchain_missing() or (None if shutil.which("qemu-system-arm") else "qemu-system-arm not found")
    if missing:
        pytest.skip(missing)
    from harness.formats.reader import parse_log
    from harness.runners import get_runner

    elf = build_mini_firmware("CRASH", tmp_path)
    board = mini_board()
    run = get_runner("qemu").run(elf, board, timeout_s=10)
    report = parse_log(run.log, run, elf, board)
    assert report.outcome == "crashed", report.summary
    crash = report.crash
    assert crash is not None
    assert "PRECISERR" in crash.fault_names and crash.fault_address == 0x70000000
    pc, lr = crash.frames
    assert pc.function == "crashing_read" and pc.location is not None
    assert pc.location.endswith("mini.c:" + str(_line_of("return (int)*p;")))
    assert lr.function == "reset_handler"
    assert crash.note is None
    assert "crashing_read" in report.summary and "in test Mini" in report.summary


def _line_of(text: str) -> int:
    source = (Path(__file__).resolve().parents[1] / "testdata" / "fw" / "mini.c").read_text().splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line)


@pytest.mark.parametrize(
    ("cfsr", "expected"),
    [
        # The emulation guard's MPU fault (docs/boards.md): the address from MMFAR, valid.
        (0x00000082, "HardFault: MemManage data access violation at 0xe000ed34 [DACCVIOL, FORCED], PC=0x08001234"),
        (0x00000002, "MemManage data access violation (address not recorded) [DACCVIOL, FORCED]"),
        (0x00000092, "at 0xe000ed34; MemManage fault while stacking (stack overflow into the stack guard?)"),
        (0x00008200, "HardFault: BusFault: precise data bus error at 0xe000ed38 [PRECISERR, FORCED], PC="),
        (0x00000001, "MemManage instruction fetch violation (execute-never or unmapped memory) [IACCVIOL, FORCED]"),
        (0x02000000, "HardFault: DIVBYZERO, FORCED at PC=0x08001234"),  # not an access fault: as before
    ],
)
def test_summary_says_which_access_faulted_and_where(cfsr: int, expected: str) -> None:
    report = parse_hardfault_line(LINE.replace("CFSR=0x00000400", f"CFSR=0x{cfsr:08x}"))
    assert report is not None
    assert expected in report.summary()
    assert report.render().startswith(report.summary())
