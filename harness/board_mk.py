"""Turns a board file into the Make fragment micro_runtime/Makefile includes.

Usage: ``python -m harness.board_mk BOARD > gen/BOARD/board.mk``
"""

from __future__ import annotations

import shlex
import sys

from harness import REPO_ROOT
from harness.boards import Board, BoardError, load_board


def _words(items: tuple[str, ...] | list[str]) -> str:
    return " ".join(shlex.quote(item) for item in items)


def render(board: Board) -> str:
    sources = [str(REPO_ROOT / s) for s in board.sources]
    ldflags = list(board.ldflags)
    link_deps: list[str] = []
    if board.linker_script:
        script = board.path / board.linker_script
        ldflags.append(f"-T{script}")
        link_deps.append(str(script))
    if board.is_host:
        run = ""
    else:
        run = f"PYTHONPATH={REPO_ROOT} $(PYTHON) -m harness run --board {board.name}"
    lines = [
        f"# Generated from {board.path / 'board.toml'} by harness.board_mk; do not edit.",
        f"BOARD_NAME := {board.name}",
        f"BOARD_CC := {board.cc}",
        f"BOARD_CXX := {board.cxx}",
        f"BOARD_AR := {board.toolchain_prefix}ar",
        f"BOARD_SIZE := {board.toolchain_prefix}size",
        f"BOARD_ARCH_FLAGS := {_words(board.arch_flags)}",
        f"BOARD_OPT := {board.opt}",
        f"BOARD_LDFLAGS := {_words(ldflags)}",
        f"BOARD_LIBS := {_words(board.libs)}",
        f"BOARD_TAGS := {_words(board.tags)}",
        f"BOARD_SOURCES := {' '.join(sources)}",
        f"BOARD_LINK_DEPS := {' '.join(link_deps)}",
        f"BOARD_RUN := {run}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m harness.board_mk BOARD", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(render(load_board(argv[1])))
    except BoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
