"""The coverage build: every binary compiled with gcov instrumentation into ``<build folder>/coverage/``, so the
plain build's objects are never touched (``harness.build.make.BuildVariant``).

- host: ``--coverage``; the program writes its .gcda files itself at exit (libgcov), where ``GCOV_PREFIX``
  says (``harness.coverage.collect``).
- Cortex-M boards: ``--coverage -fprofile-info-section=gcov_info`` (GCC 12+; no constructors, a table of the
  objects' gcov_info instead), linked with ``boards/cortex_m/gcov_dump.c`` (compiled here, uninstrumented,
  for the board), ``-Wl,--wrap=MicroExit`` (the dump runs at exit, before the exit status is reported) and
  libgcov (only its freestanding ``__gcov_info_to_gcda`` and counter merging are used); without link-time
  optimization, whatever the board's ``[build] lto`` says (``--wrap`` does not reach calls inside an LTO unit).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import Board
from harness.build.driver import BuildError
from harness.build.make import BuildVariant, gen_root

FOLDER = "coverage"  # <build folder>/coverage/<board>/...
DUMP_SOURCE = REPO_ROOT / "boards" / "cortex_m" / "gcov_dump.c"
# MICRO_RUNTIME_COVERAGE: the arm_dsp kernels take their C forms (their inline assembly needs registers gcov's
# counters take; micro_runtime/kernels/arm_dsp/dsp.h)
TARGET_FLAGS = ["--coverage", "-fprofile-info-section=gcov_info", "-DMICRO_RUNTIME_COVERAGE=1"]


class CoverageBuildError(BuildError):
    """The board cannot be built for coverage (the message names why and the fix)."""


def supported(board: Board) -> str | None:
    """Why ``board`` cannot be built for coverage, or None."""
    if board.is_host:
        return None
    if board.toolchain_prefix != "arm-none-eabi-" or not board.core.startswith("cortex-m"):
        return (f"coverage builds support the host and Cortex-M boards built with arm-none-eabi-gcc; board "
                f"'{board.name}' is {board.core} with {board.cc}")
    return None


def dump_object(board: Board) -> Path:
    """``gcov_dump.c`` compiled for ``board`` (not instrumented), built once per source and flags: the object's
    name carries their hash, so a change relinks every binary (the link flags change)."""
    flags = [*board.arch_flags, "-Os", "-g", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{REPO_ROOT}",
             "-ffunction-sections"]
    digest = hashlib.sha256("\0".join([board.cc, *flags]).encode() + DUMP_SOURCE.read_bytes()).hexdigest()[:12]
    out = gen_root() / board.name / f"gcov_dump-{digest}.o"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f"{out.name}.{os.getpid()}.tmp")
    try:
        proc = subprocess.run([board.cc, *flags, "-c", str(DUMP_SOURCE), "-o", str(partial)], capture_output=True,
                              text=True, check=False, stdin=subprocess.DEVNULL)
    except OSError as error:
        raise CoverageBuildError(f"cannot compile {DUMP_SOURCE} for {board.name}: {error}") from error
    if proc.returncode != 0:
        partial.unlink(missing_ok=True)
        raise CoverageBuildError(f"cannot compile {DUMP_SOURCE} for {board.name}:\n{proc.stderr.strip()}")
    os.replace(partial, out)  # atomic: a concurrent build sees the whole object or none
    return out


def make_variables(board: Board) -> list[str]:
    """What every make call of a coverage build adds for ``board`` (the Makefile's EXTRA_* flags)."""
    problem = supported(board)
    if problem is not None:
        raise CoverageBuildError(problem)
    if board.is_host:
        return ["EXTRA_CFLAGS=--coverage", "EXTRA_CXXFLAGS=--coverage", "EXTRA_LDFLAGS=--coverage"]
    flags = " ".join(TARGET_FLAGS)
    # BOARD_LTO=0 overrides the board's [build] lto (board.mk) without changing the output folder (LTO=0 would):
    # under LTO the linker resolves MicroExit inside the LTO unit and --wrap never takes effect.
    return ["BOARD_LTO=0", f"EXTRA_CFLAGS={flags}", f"EXTRA_CXXFLAGS={flags}",
            f"EXTRA_LDFLAGS={dump_object(board)} -Wl,--wrap=MicroExit -lgcov"]


VARIANT = BuildVariant(FOLDER, make_variables)
