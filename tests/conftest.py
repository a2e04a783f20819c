"""Fixtures of the harness integration tests; the helpers live in harness_helpers.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, MCU_BOARD, PROGRAMS, compile_host_program, mcu_unavailable


@pytest.fixture(scope="session")
def host_programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("g++") is None:
        pytest.skip("g++ not found; install: apt-get install g++")
    out_dir = tmp_path_factory.mktemp("host_programs")
    return {name: compile_host_program(name, out_dir) for name in PROGRAMS}


@pytest.fixture(scope="session")
def mcu_programs() -> dict[str, Path]:
    """The fixture programs built for the MCU board through the Makefile's ``program`` goal."""
    reason = mcu_unavailable()
    if reason is not None:
        pytest.skip(reason)
    from harness.board.boards import load_board
    from harness.build.driver import build_program

    board = load_board(MCU_BOARD)
    built = {}
    for name in PROGRAMS:
        result = build_program(board, FIXTURES / f"pytester_{name}.cc", f"harness_fx_{name}_test", progress=None)
        assert result.error is None and result.elf is not None, result.error
        built[name] = result.elf
    return built
