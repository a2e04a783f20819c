"""Board files: every shipped board loads and is usable; broken board files get errors that name the fix."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board import boards
from harness.board.boards import BoardError, available_boards, load_board

MCU_BOARDS = [name for name in available_boards() if not load_board(name).is_host]


def test_shipped_boards_are_listed() -> None:
    names = available_boards()
    assert {"host", "bluepill", "netduinoplus2", "mps2_an505"} <= set(names)


@pytest.mark.parametrize("name", MCU_BOARDS)
def test_mcu_boards_are_complete(name: str) -> None:
    board = load_board(name)
    assert board.name == name
    assert board.toolchain_prefix == "arm-none-eabi-"
    assert board.flash is not None and board.ram is not None
    assert board.flash.size > 0 and board.ram.size > board.stack_size > 0
    assert board.clock_hz and board.clock_hz > 0
    assert board.log_transports and set(board.log_transports) <= set(boards.LOG_TRANSPORTS)
    assert board.section("qemu").get("machine")
    assert "qemu" in board.backends
    assert board.tool("size") == "arm-none-eabi-size"
    for source in board.sources:
        assert (REPO_ROOT / source).is_file(), source


@pytest.mark.parametrize("name", MCU_BOARDS)
def test_mcu_boards_log_on_one_transport(name: str) -> None:
    """Two plain transports print every line twice in a merged log (QEMU muxes semihosting and the
    UART), so each shipped board defaults to exactly one; "semihosting-if-debugger" is exclusive by
    design and may come with a fallback transport."""
    plain = [t for t in load_board(name).log_transports if t != "semihosting-if-debugger"]
    assert len(plain) == 1, plain


def test_bluepill_links_with_lto_by_default() -> None:
    assert load_board("bluepill").lto  # the biggest tests only fit the 64 KB with it


def test_bluepill_has_the_real_chip_limits() -> None:
    board = load_board("bluepill")
    assert board.flash is not None and board.ram is not None
    assert (board.flash.origin, board.flash.size) == (0x08000000, 64 * 1024)
    assert (board.ram.origin, board.ram.size) == (0x20000000, 20 * 1024)
    assert board.uart_base == 0x40004400
    assert board.section("pyocd")["target"] == "stm32f103c8"
    assert board.section("renode")["uart"] == "sysbus.usart2"


@pytest.mark.skipif(shutil.which("qemu-system-arm") is None, reason="qemu-system-arm not installed")
@pytest.mark.parametrize("name", MCU_BOARDS)
def test_qemu_knows_the_machine(name: str) -> None:
    machines = subprocess.run(["qemu-system-arm", "-M", "help"], capture_output=True, text=True, check=True).stdout
    machine = load_board(name).section("qemu")["machine"]
    assert any(line.split()[0] == machine for line in machines.splitlines() if line.strip()), machine


def test_host_board_needs_no_memory() -> None:
    board = load_board("host")
    assert board.is_host
    assert board.flash is None and board.ram is None


# ------------------------------------------------------------ bad board files

GOOD = """
[board]
name = "tiny"
core = "cortex-m3"
clock_hz = 8000000
[build]
toolchain_prefix = "arm-none-eabi-"
stack_size = 1024
[memory]
flash = { origin = 0x0, size = 4096 }
ram = { origin = 0x20000000, size = 2048 }
[log]
transports = ["uart"]
uart_base = 0x40000000
"""


@pytest.fixture
def board_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A boards/ folder of our own, so broken files never touch the real one."""
    monkeypatch.setattr(boards, "BOARDS_DIR", tmp_path)
    return tmp_path


def _write(board_dir: Path, text: str) -> None:
    (board_dir / "tiny").mkdir(exist_ok=True)
    (board_dir / "tiny" / "board.toml").write_text(text)


def test_good_file_loads(board_dir: Path) -> None:
    _write(board_dir, GOOD)
    board = load_board("tiny")
    assert board.stack_size == 1024 and board.uart_base == 0x40000000 and board.clock_hz == 8_000_000


@pytest.mark.parametrize("transports", [["rtt"], ["semihosting-if-debugger", "uart"], ["semihosting-if-debugger"]])
def test_rtt_and_debugger_only_semihosting_are_transports(board_dir: Path, transports: list[str]) -> None:
    _write(board_dir, GOOD.replace('["uart"]', str(transports).replace("'", '"')))
    assert load_board("tiny").log_transports == tuple(transports)


def test_unknown_board_lists_the_known_ones(board_dir: Path) -> None:
    _write(board_dir, GOOD)
    with pytest.raises(BoardError, match=r"unknown board 'nope'.*known boards: tiny"):
        load_board("nope")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('core = "cortex-m3"', ""), r"missing or malformed field: 'core'"),
        (lambda t: t + "[[[", r"not valid TOML"),
        (lambda t: t.replace("ram = { origin = 0x20000000, size = 2048 }", ""), r"needs \[memory\] flash"),
        (lambda t: t.replace("clock_hz = 8000000", ""), r"needs \[board\] clock_hz"),
        (lambda t: t.replace('["uart"]', '["jtag"]'), r"unknown \['jtag'\]"),
        (lambda t: t.replace("uart_base = 0x40000000", ""), r"no \[log\] uart_base"),
        (lambda t: t.replace("stack_size = 1024", "stack_size = 4096"), r"stack_size = 4096 must be"),
        (lambda t: t.replace("stack_size = 1024", "stack_size = 1020"), r"multiple of 8"),
        (lambda t: t.replace('transports = ["uart"]', "transports = []"), r"needs \[log\] transports"),
        (
            lambda t: t.replace('["uart"]', '["semihosting", "semihosting-if-debugger"]'),
            r'use "semihosting" \(always\) or "semihosting-if-debugger", not both',
        ),
    ],
)
def test_broken_files_name_the_fix(board_dir: Path, edit: Callable[[str], str], message: str) -> None:
    _write(board_dir, edit(GOOD))
    with pytest.raises(BoardError, match=message):
        load_board("tiny")
