"""What binaries declare: micro_test's framework and compiled cases from the ELF, for host and Cortex-M."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.build.driver import build_program
from harness.core.binary_info import Elf, NotAnElf, declared_tests, symbol_address

GUARDED = REPO_ROOT / "tests" / "fixtures" / "declared" / "guarded_cases_test.cc"


def _built(board_name: str) -> Path:
    board = load_board(board_name)
    built = build_program(board, GUARDED, "binary_info_guarded_test", progress=None)
    assert built.elf is not None, built.error
    return built.elf


@pytest.mark.parametrize("board", ["host", "bluepill"])
def test_the_compiled_case_list_leaves_out_what_the_preprocessor_removed(board: str) -> None:
    if board != "host" and shutil.which("arm-none-eabi-g++") is None:
        pytest.skip("arm-none-eabi-g++ not installed (apt-get install gcc-arm-none-eabi)")
    declared = declared_tests(_built(board))
    assert declared is not None
    assert (declared.framework, declared.version) == ("micro_test", "2")
    assert sorted(declared.cases) == ["Always", "Kept"]


def test_mcu_firmware_has_the_token_block_where_the_symbol_says() -> None:
    if shutil.which("arm-none-eabi-g++") is None:
        pytest.skip("arm-none-eabi-g++ not installed")
    elf = _built("bluepill")
    address = symbol_address(elf, "g_micro_run_token")
    ram = load_board("bluepill").ram
    assert address is not None and ram is not None and ram.origin <= address < ram.origin + ram.size
    noinit = Elf(elf.read_bytes()).section(".noinit")
    assert noinit is not None and noinit.addr <= address < noinit.addr + noinit.size


def test_binaries_that_declare_nothing(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not an ELF")
    assert declared_tests(text) is None
    assert declared_tests(tmp_path / "missing") is None
    assert symbol_address(text, "main") is None
    with pytest.raises(NotAnElf):
        Elf(b"\x7fELF" + b"\x00" * 10)
    plain = Path(shutil.which("true") or "/bin/true")
    assert declared_tests(plain) is None  # an ELF of another kind
