"""Turns a board file into what micro_runtime/Makefile needs to build for it.

Usage:
  ``python -m harness.board.board_mk BOARD``                  print the Make fragment (board.mk)
  ``python -m harness.board.board_mk BOARD --out-dir DIR``    write DIR/board.mk and, for MCU boards,
                                                          DIR/memory.ld (the linker memory map)

The board file stays the one source of truth: memory sizes reach the linker
through the generated ``memory.ld`` (INCLUDEd by ``boards/cortex_m/cortex_m.ld``),
flags and sources reach Make through ``board.mk``.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

from harness import PACKAGE_DIR, REPO_ROOT
from harness.board.boards import Board, BoardError, load_board, resolve_board_path
from harness.board.mpu_regions import region_table, render_linker_symbols
from harness.core import project

# The linker script an MCU board uses when its [build] has no linker_script.
COMMON_LINKER_SCRIPT = REPO_ROOT / "boards" / "cortex_m" / "cortex_m.ld"


def _words(items: tuple[str, ...] | list[str]) -> str:
    return " ".join(shlex.quote(item) for item in items)


def linker_script(board: Board) -> Path | None:
    """The board's linker script: its own ([build] linker_script, relative to the
    board folder or the repository) or, for MCU boards, the common Cortex-M one."""
    if board.linker_script:
        candidate = resolve_board_path(board, board.linker_script)
        if candidate is not None and candidate.is_file():
            return candidate
        raise BoardError(
            f"{board.path / 'board.toml'}: [build] linker_script = '{board.linker_script}' not found "
            f"(relative to {board.path}, {project.current().root} or {REPO_ROOT})"
        )
    return None if board.is_host else COMMON_LINKER_SCRIPT


def board_symbol(name: str) -> str:
    """The linker symbol naming the board an MCU ELF was linked for (``BOARD_SYMBOL_PREFIX`` + name)."""
    from harness.board.emulation_guard import BOARD_SYMBOL_PREFIX

    return BOARD_SYMBOL_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", name)


def render_memory_ld(board: Board) -> str:
    """MEMORY regions and the stack size from [memory] / [build] stack_size, and the emulation guard's
    MPU region table (harness/board/mpu_regions.py) as linker symbols."""
    if board.flash is None or board.ram is None:
        raise BoardError(f"board '{board.name}' has no [memory] flash/ram; no memory map to generate")
    return (
        f"/* Generated from {board.path / 'board.toml'} by harness.board.board_mk; do not edit. */\n"
        f"/* Board '{board.name}': flash {board.flash.size} bytes, RAM {board.ram.size} bytes "
        f"(stack {board.stack_size}). */\n"
        "MEMORY\n{\n"
        f"  FLASH (rx)  : ORIGIN = 0x{board.flash.origin:08x}, LENGTH = {board.flash.size}\n"
        f"  RAM   (rwx) : ORIGIN = 0x{board.ram.origin:08x}, LENGTH = {board.ram.size}\n"
        "}\n"
        f"_stack_size = {board.stack_size};\n"
        "/* The board this firmware is built for, read back by `harness run` (harness/board/emulation_guard.py). */\n"
        f"{board_symbol(board.name)} = 1;\n"
        + render_linker_symbols(region_table(board))
    )


def render(board: Board, out_dir: Path | None = None) -> str:
    """The Make fragment. ``out_dir`` is where memory.ld lives (default gen/<board>/)."""
    if out_dir is None:
        out_dir = project.current().build_dir / board.name
    resolved = {s: resolve_board_path(board, s) for s in board.sources}
    missing = [s for s, path in resolved.items() if path is None or not path.is_file()]
    if missing:
        raise BoardError(f"{board.path / 'board.toml'}: [build] sources not found: {', '.join(missing)} "
                         f"(paths are relative to {board.path}, {project.current().root} or {REPO_ROOT})")
    sources = [str(path) for path in resolved.values()]
    ldflags = list(board.ldflags)
    link_deps: list[str] = []
    script = linker_script(board)
    if script is not None:
        if not board.is_host:
            ldflags.append(f"-L{out_dir}")
            link_deps.append(str(out_dir / "memory.ld"))
        ldflags.append(f"-T{script}")
        link_deps.append(str(script))
    # How `make test` / `make run_<name>` run a binary: directly on the host, else via the harness CLI.
    run = "" if board.is_host else f"PYTHONPATH={PACKAGE_DIR.parent} $(PYTHON) -m harness run --board {board.name}"
    flash = board.flash.size if board.flash else 0
    ram = board.ram.size if board.ram else 0
    lines = [
        f"# Generated from {board.path / 'board.toml'} by harness.board.board_mk; do not edit.",
        f"BOARD_NAME := {board.name}",
        f"BOARD_IS_HOST := {1 if board.is_host else 0}",
        f"BOARD_CC := {board.cc}",
        f"BOARD_CXX := {board.cxx}",
        f"BOARD_AR := {board.toolchain_prefix}ar",
        f"BOARD_SIZE := {board.toolchain_prefix}size",
        f"BOARD_ARCH_FLAGS := {_words(board.arch_flags)}",
        f"BOARD_OPT := {board.opt}",
        f"BOARD_KERNEL_OPT := {board.kernel_opt or board.opt}",
        f"BOARD_CFLAGS := {_words(board.cflags)}",
        f"BOARD_CXXFLAGS := {_words(board.cxxflags)}",
        f"BOARD_LDFLAGS := {_words(ldflags)}",
        f"BOARD_LIBS := {_words(board.libs)}",
        f"BOARD_TAGS := {_words(board.tags)}",
        f"BOARD_SOURCES := {' '.join(sources)}",
        f"BOARD_LINK_DEPS := {' '.join(link_deps)}",
        f"BOARD_LOG_TRANSPORTS := {' '.join(board.log_transports)}",
        f"BOARD_CORE_CLOCK_HZ := {board.clock_hz or 0}",
        f"BOARD_UART_BASE := {board.uart_base or 0}",
        f"BOARD_FLASH_SIZE := {flash}",
        f"BOARD_RAM_SIZE := {ram}",
        f"BOARD_STACK_SIZE := {board.stack_size}",
        f"BOARD_LTO := {1 if board.lto else 0}",
        f"BOARD_RUN := {run}",
    ]
    return "\n".join(lines) + "\n"


def write(board: Board, out_dir: Path) -> list[Path]:
    """Writes board.mk (and memory.ld for MCU boards) into ``out_dir``; returns the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if not board.is_host:
        memory = out_dir / "memory.ld"
        text = render_memory_ld(board)
        # Rewritten only when it changes, so the link is not redone for nothing.
        if not memory.is_file() or memory.read_text() != text:
            memory.write_text(text)
        written.append(memory)
    mk = out_dir / "board.mk"
    tmp = out_dir / "board.mk.tmp"
    tmp.write_text(render(board, out_dir))
    tmp.replace(mk)
    written.append(mk)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.board.board_mk", description=__doc__.splitlines()[0])
    parser.add_argument("board")
    parser.add_argument("--out-dir", type=Path, help="write board.mk and memory.ld here instead of printing")
    args = parser.parse_args(argv[1:])
    try:
        board = load_board(args.board)
        if args.out_dir is None:
            sys.stdout.write(render(board))
        else:
            write(board, args.out_dir)
    except BoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
