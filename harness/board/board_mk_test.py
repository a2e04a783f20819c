"""The board-driven Make build: board.mk/memory.ld generation, and real firmware built for the
Cortex-M boards and run under QEMU (start-up, exit status, HardFault line, link-time size limits,
TAGS specialization of board sources, log transport selection)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board import board_mk
from harness.board.boards import Board, available_boards, load_board
from harness.board.emulation_guard import guard_word
from harness.build.make import board_lock
from harness.core.run_token import UNKEYED
from harness.formats.micro_test import find_record

RUNTIME = REPO_ROOT / "micro_runtime"
GEN = RUNTIME / "gen"
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "micro"
MCU_BOARDS = [name for name in available_boards() if not load_board(name).is_host]
HARDFAULT = re.compile(
    r"^\*\*\* HardFault: PC=0x([0-9a-f]{8}) LR=0x([0-9a-f]{8}) xPSR=0x([0-9a-f]{8}) CFSR=0x([0-9a-f]{8}) "
    r"HFSR=0x([0-9a-f]{8}) MMFAR=0x([0-9a-f]{8}) BFAR=0x([0-9a-f]{8})\r?$",
    re.MULTILINE,
)
CFSR_PRECISERR = 1 << 9
CFSR_STKERR = 1 << 12
CFSR_IACCVIOL = 1 << 0
CFSR_INVSTATE = 1 << 17
CFSR_STKOF = 1 << 20
CFSR_DIVBYZERO = 1 << 25

needs_arm = pytest.mark.skipif(
    shutil.which("arm-none-eabi-g++") is None,
    reason="arm-none-eabi-g++ not installed: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi",
)
needs_qemu = pytest.mark.skipif(
    shutil.which("qemu-system-arm") is None, reason="qemu-system-arm not installed: apt-get install qemu-system-arm"
)


# ----------------------------------------------------------------- generation


def test_mcu_board_mk_uses_common_script_and_generated_memory_map(tmp_path: Path) -> None:
    board = load_board("bluepill")
    text = board_mk.render(board, tmp_path)
    assert f"-L{tmp_path}" in text and f"-T{board_mk.COMMON_LINKER_SCRIPT}" in text
    assert "BOARD_LOG_TRANSPORTS := uart" in text
    assert "BOARD_FLASH_SIZE := 65536" in text and "BOARD_RAM_SIZE := 20480" in text
    assert "-m harness run --board bluepill" in text
    memory = board_mk.render_memory_ld(board)
    assert "FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = 65536" in memory
    assert "RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = 20480" in memory
    assert "_stack_size = 4096;" in memory


def test_host_board_has_no_memory_map(tmp_path: Path) -> None:
    written = board_mk.write(load_board("host"), tmp_path)
    assert [p.name for p in written] == ["board.mk"]
    text = (tmp_path / "board.mk").read_text()
    assert "-T" not in text and "BOARD_RUN := \n" in text


def test_memory_map_is_rewritten_only_when_it_changes(tmp_path: Path) -> None:
    board = load_board("netduinoplus2")
    board_mk.write(board, tmp_path)
    memory = tmp_path / "memory.ld"
    memory.touch()
    before = memory.stat().st_mtime_ns
    board_mk.write(board, tmp_path)
    assert memory.stat().st_mtime_ns == before  # unchanged content: no relink of every binary


def test_cli_rejects_unknown_board() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "harness.board.board_mk", "no_such_board"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    assert out.returncode == 1
    assert "unknown board 'no_such_board'" in out.stderr and "bluepill" in out.stderr


# --------------------------------------------------------- build and run


def make(target: str, *args: str, variant: str | None = None) -> subprocess.CompletedProcess[str]:
    """One make call under the harness's per-output-folder build lock."""
    with board_lock(variant or target):
        return subprocess.run(
            ["make", "-C", str(RUNTIME), "--no-print-directory", f"TARGET={target}", f"PYTHON={sys.executable}"]
            + list(args),
            capture_output=True,
            text=True,
            timeout=900,
        )


def build_fixture(board: str, fixture: str, *extra: str, variant: str | None = None) -> Path:
    name = f"boards_{Path(fixture).stem}"
    out = make(board, *extra, "program", f"PROGRAM_SRC={FIXTURES / fixture}", f"PROGRAM_NAME={name}", variant=variant)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return GEN / (variant or board) / "bin" / name


def guard_args(elf: Path) -> list[str]:
    """QEMU's loader writing the emulation guard word, as the QEMU runner does (harness/board/emulation_guard.py)."""
    guard = guard_word(elf)
    assert guard is not None, f"{elf} has no emulation guard word"
    return ["-device", f"loader,addr=0x{guard[0]:08x},data=0x{guard[1]:08x},data-len=4"]


def run_qemu(board: Board, elf: Path, uart: bool = True, guard: bool = True) -> tuple[int, str]:
    """QEMU with semihosting and the board's log UART both on stdout (one muxed chardev, so the
    order is kept), or the UART discarded; QEMU's own warnings stay on stderr. ``guard``: with the
    emulation guard on (only the real chip's memory map accessible), like the QEMU runner."""
    cfg = board.section("qemu")
    argv = ["qemu-system-arm", "-M", cfg["machine"], "-display", "none", "-monitor", "none", "-nodefaults"]
    argv += ["-chardev", "stdio,id=log0,mux=on"]
    for _ in range(int(cfg.get("serial", 0))):
        argv += ["-serial", "null"]
    argv += ["-serial", "chardev:log0" if uart else "null"]
    argv += guard_args(elf) if guard else []
    argv += ["-semihosting-config", "enable=on,target=native,chardev=log0", "-kernel", str(elf)]
    out = subprocess.run(argv, capture_output=True, timeout=60)
    return out.returncode, out.stdout.decode("utf-8", "replace")


def records(log: str) -> list[str]:
    """The texts of the authentic micro_test records in ``log``, in order (QEMU started here hands the
    firmware no run token, so they are signed with key 0)."""
    found = (find_record(line.rstrip("\r").encode(), UNKEYED) for line in log.split("\n"))
    return [record.text for record in found if record is not None]


def fault_fields(log: str) -> dict[str, int]:
    match = HARDFAULT.search(log)
    assert match, f"no HardFault line in:\n{log}"
    keys = ("PC", "LR", "xPSR", "CFSR", "HFSR", "MMFAR", "BFAR")
    return {k: int(v, 16) for k, v in zip(keys, match.groups(), strict=True)}


@needs_arm
@needs_qemu
@pytest.mark.emulator
@pytest.mark.parametrize("name", MCU_BOARDS)
def test_passing_failing_and_crashing_programs(name: str) -> None:
    board = load_board(name)
    code, log = run_qemu(board, build_fixture(name, "pytester_pass.cc"))
    assert code == 0 and "DONE PASSED" in records(log), log
    # Semihosting and the UART are merged here: the board's one default transport prints each line once.
    assert records(log).count("DONE PASSED") == 1 and records(log).count("BEGIN AddsUp") == 1, log
    code, log = run_qemu(board, build_fixture(name, "pytester_fail.cc"))
    assert code == 1 and "DONE FAILED" in records(log), log
    code, log = run_qemu(board, build_fixture(name, "null_call_fixture.cc"))
    assert code == 3, log
    fields = fault_fields(log)
    # Under the emulation guard address 0 is outside the chip's map (the flash is at its own base):
    # fetching there is an MPU instruction access violation; without the guard it is INVSTATE.
    assert fields["CFSR"] & CFSR_IACCVIOL and fields["PC"] == 0
    code, log = run_qemu(board, build_fixture(name, "null_call_fixture.cc"), guard=False)
    assert code == 3 and fault_fields(log)["CFSR"] & CFSR_INVSTATE, log
    assert board.flash is not None
    assert board.flash.origin <= fields["LR"] < board.flash.origin + board.flash.size  # the caller
    assert "BEGIN CallsNull" in records(log) and "returned" not in log


UART_BOARDS = [name for name in MCU_BOARDS if "uart" in load_board(name).log_transports]


@needs_arm
@needs_qemu
@pytest.mark.emulator
@pytest.mark.parametrize("name", UART_BOARDS)
def test_runs_stand_alone_without_semihosting(name: str) -> None:
    """No debugger/semihosting host (QEMU without -semihosting): the start-up probe's BKPT faults,
    the fault handler skips it, the tests log on the UART, and MicroExit halts instead of exiting."""
    board = load_board(name)
    elf = build_fixture(name, "pytester_pass.cc")
    cfg = board.section("qemu")
    argv = ["qemu-system-arm", "-M", cfg["machine"], "-display", "none", "-monitor", "none", "-nodefaults"]
    argv += ["-serial", "null"] * int(cfg.get("serial", 0)) + ["-serial", "stdio", *guard_args(elf)]
    argv += ["-kernel", str(elf)]
    with pytest.raises(subprocess.TimeoutExpired) as halted:
        subprocess.run(argv, capture_output=True, timeout=3)
    log = (halted.value.stdout or b"").decode("utf-8", "replace")
    assert "DONE PASSED" in records(log) and "HardFault" not in log, log


@needs_arm
@needs_qemu
@pytest.mark.emulator
@pytest.mark.parametrize("name", MCU_BOARDS)
def test_exception_at_a_bkpt_is_not_taken_for_missing_semihosting(name: str) -> None:
    """Only a BKPT escalation (HFSR DEBUGEVT, or FORCED with CFSR clear) at a BKPT 0xAB is skipped as
    "no semihosting host"; an NMI taken at that BKPT (HFSR clear) is reported like any fault."""
    elf = build_fixture(name, "nmi_at_bkpt_fixture.cc")
    code, log = run_qemu(load_board(name), elf)
    assert code == 3, log
    fields = fault_fields(log)
    assert fields["HFSR"] == 0 and fields["CFSR"] == 0, log
    bkpt = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True).stdout
    sites = [int(line.split(":")[0], 16) for line in bkpt.splitlines() if re.search(r"\bbkpt\s+0x00ab", line)]
    assert fields["PC"] in sites, (hex(fields["PC"]), [hex(s) for s in sites])
    assert "never reported" not in log


@needs_arm
@needs_qemu
@pytest.mark.emulator
@pytest.mark.parametrize("name", MCU_BOARDS)
def test_division_by_zero_traps(name: str) -> None:
    code, log = run_qemu(load_board(name), build_fixture(name, "div_by_zero_fixture.cc"))
    assert code == 3 and fault_fields(log)["CFSR"] & CFSR_DIVBYZERO, log
    assert "instead of trapping" not in log


@needs_arm
@needs_qemu
@pytest.mark.emulator
@pytest.mark.parametrize("name", MCU_BOARDS)
def test_platform_test_passes(name: str) -> None:
    """Static constructors, .data/.bss set-up and monotonic SysTick ticks (micro_runtime/platform/)."""
    out = make(name, "platform_test")
    assert out.returncode == 0, out.stderr[-3000:]
    code, log = run_qemu(load_board(name), GEN / name / "bin" / "platform_test")
    assert code == 0 and "SUMMARY 5/5 tests passed" in records(log), log


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_stack_overflow_and_bus_fault_are_reported_on_armv8m() -> None:
    board = load_board("mps2_an505")
    code, log = run_qemu(board, build_fixture("mps2_an505", "stack_overflow_fixture.cc"))
    assert code == 3 and fault_fields(log)["CFSR"] & CFSR_STKOF, log
    # Without the emulation guard the MPU is off: the store reaches the bus (with it: MemManage,
    # tests/test_emulation_guard.py).
    code, log = run_qemu(board, build_fixture("mps2_an505", "bus_fault_fixture.cc"), guard=False)
    fields = fault_fields(log)
    assert code == 3 and fields["CFSR"] & CFSR_PRECISERR and fields["BFAR"] == 0xFFFFFFF0, log


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_stack_overflow_without_stack_limit_still_reports() -> None:
    """Cortex-M3 has no MSPLIM: without the emulation guard's stack guard (as on silicon) the stack runs
    off the bottom of RAM, stacking fails (STKERR), and the handler, on its own stack, still prints the
    line instead of locking up."""
    elf = build_fixture("bluepill", "stack_overflow_fixture.cc")
    code, log = run_qemu(load_board("bluepill"), elf, guard=False)
    assert code == 3 and fault_fields(log)["CFSR"] & CFSR_STKERR, log


@needs_arm
@pytest.mark.parametrize(
    ("fixture", "region", "limit"),
    [("too_big_flash_fixture.cc", "FLASH", "65536 bytes of flash"), ("too_big_ram_fixture.cc", "RAM", "20480 bytes")],
)
def test_overflow_fails_the_link_naming_the_limit(fixture: str, region: str, limit: str) -> None:
    out = make("bluepill", "program", f"PROGRAM_SRC={FIXTURES / fixture}", "PROGRAM_NAME=boards_overflow")
    assert out.returncode != 0
    assert f"region `{region}' overflowed by" in out.stderr
    assert limit in out.stderr and "boards/bluepill/board.toml" in out.stderr
    assert not (GEN / "bluepill" / "bin" / "boards_overflow").exists()


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_tags_specialize_board_sources() -> None:
    """TAGS=dwt swaps boards/cortex_m/ticks.c for boards/cortex_m/dwt/ticks.c, in its own output folder."""
    plain = make("bluepill", "platform_test")
    assert plain.returncode == 0, plain.stderr[-3000:]
    tagged = make("bluepill", "TAGS=dwt", "platform_test", variant="bluepill_dwt")
    assert tagged.returncode == 0, tagged.stderr[-3000:]
    plain_map = (GEN / "bluepill" / "bin" / "platform_test.map").read_text()
    tagged_map = (GEN / "bluepill_dwt" / "bin" / "platform_test.map").read_text()
    assert "obj/boards/cortex_m/ticks.c.o" in plain_map and "/dwt/ticks.c.o" not in plain_map
    assert "obj/boards/cortex_m/dwt/ticks.c.o" in tagged_map and "obj/boards/cortex_m/ticks.c.o" not in tagged_map
    # QEMU has no DWT cycle counter: the variant falls back to SysTick and still passes.
    code, log = run_qemu(load_board("bluepill"), GEN / "bluepill_dwt" / "bin" / "platform_test")
    assert code == 0, log


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_log_transport_is_selectable() -> None:
    board = load_board("bluepill")
    uart_elf = build_fixture("bluepill", "pytester_pass.cc")
    code, log = run_qemu(board, uart_elf, uart=False)
    assert code == 0 and log == ""  # the default build logs on USART2 only
    semi_elf = build_fixture(
        "bluepill", "pytester_pass.cc", "LOG_TRANSPORTS=semihosting", variant="bluepill_log_semihosting"
    )
    code, log = run_qemu(board, semi_elf, uart=False)
    assert code == 0 and "DONE PASSED" in records(log), log


def test_bad_log_transport_is_rejected() -> None:
    out = make("host", "LOG_TRANSPORTS=jtag", "list_tests", variant="host_log_jtag")
    assert out.returncode != 0 and "each must be one of: semihosting uart rtt semihosting-if-debugger" in out.stderr


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_semihosting_if_debugger_falls_back_to_the_uart() -> None:
    """LOG_TRANSPORTS="semihosting-if-debugger uart": semihosting only while DHCSR.C_DEBUGEN says a
    debugger is attached, else the UART. QEMU reports no debugger (DHCSR reads 0), so with QEMU's
    semihosting on the log still comes from the UART, once, and none through semihosting."""
    board = load_board("bluepill")
    variant = "bluepill_log_semihosting-if-debugger_uart"
    elf = build_fixture("bluepill", "pytester_pass.cc", "LOG_TRANSPORTS=semihosting-if-debugger uart", variant=variant)
    config = (GEN / variant / "board_config.h").read_text()
    assert "BOARD_LOG_SEMIHOSTING_IF_DEBUGGER 1" in config and "BOARD_LOG_SEMIHOSTING 0" in config
    code, log = run_qemu(board, elf)
    assert code == 0 and records(log).count("DONE PASSED") == 1, log
    code, log = run_qemu(board, elf, uart=False)
    assert code == 0 and log == ""  # the exit status still goes through semihosting


def test_both_semihosting_kinds_are_rejected() -> None:
    out = make("host", "LOG_TRANSPORTS=semihosting semihosting-if-debugger", "list_tests", variant="host_log_both")
    assert out.returncode != 0 and '"semihosting-if-debugger", not both' in out.stderr


def _symbols(elf: Path) -> set[str]:
    out = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


@needs_arm
@needs_qemu
@pytest.mark.emulator
def test_rtt_transport_logs_through_the_control_block(tmp_path: Path) -> None:
    """LOG_TRANSPORTS=rtt links boards/cortex_m/rtt.cc (the SEGGER RTT control block) and DebugLog
    writes to its up channel; the gdbremote runner finds _SEGGER_RTT and drains it while QEMU runs
    the firmware behind its GDB stub (the UART is not connected at all)."""
    from harness.formats.reader import parse_log
    from harness.runners.gdbremote.qemu_board import start_qemu_board
    from harness.runners.gdbremote_runner import GdbRemoteConfig, run_over_gdb

    board = load_board("bluepill")
    plain = build_fixture("bluepill", "pytester_pass.cc")
    assert "_SEGGER_RTT" not in _symbols(plain)  # other builds do not carry it
    elf = build_fixture("bluepill", "pytester_pass.cc", "LOG_TRANSPORTS=rtt", variant="bluepill_log_rtt")
    assert "_SEGGER_RTT" in _symbols(elf)
    assert "BOARD_LOG_RTT 1" in (GEN / "bluepill_log_rtt" / "board_config.h").read_text()
    qemu = board.section("qemu")
    with start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)), tmp_path) as emulated:
        run = run_over_gdb(GdbRemoteConfig(emulated.gdb_address, rtt=True), elf, 60.0)
    assert (run.exit_code, run.end_reason) == (0, "exit"), run
    assert records(run.log.decode()).count("DONE PASSED") == 1, run.log
    assert parse_log(run.log, run).outcome == "passed"


@needs_arm
def test_compile_flag_changes_rebuild_the_objects() -> None:
    """Objects depend on gen/<...>/compile_flags.txt: a board flag change (e.g. lto) recompiles
    instead of linking stale objects. Checked with dry runs in a folder of its own."""
    variant = "bluepill_flagprobe"
    build_fixture("bluepill", "pytester_pass.cc", "TAGS=flagprobe", variant=variant)
    flags_file = GEN / variant / "compile_flags.txt"
    flags, recorded = flags_file.read_text(), flags_file.stat()
    assert "-flto" in flags  # bluepill's [build] lto = true
    program = ["program", f"PROGRAM_SRC={FIXTURES / 'pytester_pass.cc'}", "PROGRAM_NAME=boards_pytester_pass"]
    same = make("bluepill", "TAGS=flagprobe", "-n", *program, variant=variant)
    assert same.returncode == 0 and " -c " not in same.stdout, same.stdout[-2000:]
    changed = make("bluepill", "TAGS=flagprobe", "EXTRA_CFLAGS=-DBOARDS_FLAG_PROBE=1", "-n", *program, variant=variant)
    assert changed.returncode == 0 and "boards/cortex_m/startup.c -o" in changed.stdout, changed.stdout[-2000:]
    # The dry run recorded the probe flag: put the real flags and their time back, so the
    # folder's objects count as current again (next run needs no rebuild).
    flags_file.write_text(flags)
    os.utime(flags_file, ns=(recorded.st_atime_ns, recorded.st_mtime_ns))
