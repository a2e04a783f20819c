"""Building the model runner: a ``.tflite`` model and its cases compiled into firmware for a board.

``build_runner`` (and the ``runner_build`` context manager, which keeps the runner from being pruned
while it runs) makes ``micro_runtime``'s ``model_runner`` target for one model, cases file and arena
size under the board's build lock, with the build driver's progress and link-error explanations. Each
(model, cases, arena) gets its own binary, so parallel runs never rebuild one another's; at most
``runner_cache_size()`` of them stay per ``gen/`` folder, least recently used pruned first.
``host_file_runner`` builds the host runner that reads a model and inputs from files.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import Board, load_board
from harness.build.driver import BuildError
from harness.build.make import Progress, board_lock, elf_path, make_paths, run_make

RUNTIME = REPO_ROOT / "micro_runtime"
_OVERFLOW = re.compile(r"region [`']?(\w+)'? overflowed by (\d+) bytes|will not fit in region [`']?(\w+)'?")


class RunnerBuildError(BuildError):
    """The model runner could not be built (does not fit, compile error, bad setting), with the fix."""


def _does_not_fit(board: Board, output: str) -> str | None:
    found = []
    for match in _OVERFLOW.finditer(output):
        region = match.group(1) or match.group(3)
        found.append(f"region {region} overflowed by {match.group(2)} bytes" if match.group(2) else
                     f"a section does not fit in region {region}")
    if not found:
        return None
    limits = []
    if board.flash:
        limits.append(f"flash {board.flash.size // 1024} KB")
    if board.ram:
        limits.append(f"RAM {board.ram.size // 1024} KB")
    return (f"model does not fit board '{board.name}' ({', '.join(limits)}): {'; '.join(dict.fromkeys(found))}; "
            "use a board with more memory, a smaller model, or a smaller ARENA_SIZE if the arena is oversized")


RUNNER_CACHE_SIZE = 8  # runner builds kept per gen/ folder, most recently used first
RUNNER_CACHE_ENV = "HARNESS_RUNNER_CACHE"  # overrides RUNNER_CACHE_SIZE (a number >= 1)
_IN_USE = ".in_use"  # gen/<b>/model_runner/<name>/.in_use: shared flock while a process runs that runner


def runner_cache_size() -> int:
    text = os.environ.get(RUNNER_CACHE_ENV, "")
    try:
        value = int(text) if text else RUNNER_CACHE_SIZE
    except ValueError:
        raise RunnerBuildError(f"{RUNNER_CACHE_ENV}={text!r}: give how many runner builds to keep, 1 or more") from None
    if value < 1:
        raise RunnerBuildError(f"{RUNNER_CACHE_ENV}={text!r}: give how many runner builds to keep, 1 or more")
    return value


def _runner_folder(elf: Path) -> Path:
    """gen/<...>/model_runner/<name>/ of the runner ELF gen/<...>/bin/model_runner_<name>."""
    return elf.parent.parent / "model_runner" / elf.name.removeprefix("model_runner_")


def prune_runners(gen: Path, keep: int) -> list[str]:
    """Deletes all but the ``keep`` most recently used runner builds under ``gen`` (a gen/<...>/ folder).

    A runner's use time is its folder's mtime (touched on every build or use). The caller holds the
    build lock, so no build is under way; a runner another process is running (a shared lock on its
    ``.in_use``) is kept. Returns the names deleted.
    """
    base = gen / "model_runner"
    if not base.is_dir():
        return []
    folders = []
    for folder in base.iterdir():
        try:
            if folder.is_dir():
                folders.append((folder.stat().st_mtime, folder))
        except OSError:
            continue
    folders.sort(reverse=True)
    removed = []
    for _mtime, folder in folders[keep:]:
        try:
            handle = (folder / _IN_USE).open("a")
        except OSError:
            continue
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # running in another process right now
            elf = gen / "bin" / f"model_runner_{folder.name}"
            for leftover in (elf, elf.with_name(elf.name + ".map")):
                leftover.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder.name)
    # Runner ELFs whose folder is gone (deleted by hand, or by an older harness) are not reachable.
    for elf in (gen / "bin").glob("model_runner_*"):
        name = elf.name.removeprefix("model_runner_").removesuffix(".map")
        if not (base / name).is_dir():
            elf.unlink(missing_ok=True)
    return removed


def _make_runner(model: Path, board: Board, cases: Path, arena_size: int | None,
                 make_vars: dict[str, str] | None, progress: Progress | None) -> Path:
    """Runs make for the runner (the caller holds the build lock); returns the ELF path."""
    # One binary per (model, cases, arena): parallel runs with different arenas must not rebuild each
    # other's binary while it runs.
    digest = hashlib.sha1(f"{model.resolve()}|{cases.resolve()}|{arena_size}".encode()).hexdigest()[:8]
    name = re.sub(r"[^0-9A-Za-z_]", "_", model.stem) + "_" + digest
    # print-MR_BIN last: the binary's path, wherever the build variant puts gen/.
    command = ["make", "-s", "--no-print-directory", "-C", str(RUNTIME), f"TARGET={board.name}", *make_paths(board),
               "model_runner",
               f"MODEL={model.resolve()}", f"CASES={cases.resolve()}", f"RUNNER_NAME={name}"]
    if arena_size is not None:
        if isinstance(arena_size, bool) or not isinstance(arena_size, int) or arena_size <= 0:
            raise RunnerBuildError(f"arena size {arena_size!r}: give a number of bytes greater than 0")
        command.append(f"ARENA_SIZE={arena_size}")
    command += [f"{key}={value}" for key, value in (make_vars or {}).items()]
    command.append("print-MR_BIN")
    status, output = run_make(command, progress, f"model runner {model.name} for {board.name}")
    if status != 0:
        reason = _does_not_fit(board, output)
        if reason:
            raise RunnerBuildError(reason)
        # The compiler's/linker's reasons (undefined reference, error: ...) are the useful part.
        keys = ("error", "undefined reference", "multiple definition", "no such file")
        errors = [line for line in output.splitlines() if any(k in line.lower() for k in keys)]
        detail = "\n".join((errors or output.splitlines())[-12:]) or "(make printed nothing)"
        raise RunnerBuildError(f"building the model runner for board '{board.name}' failed "
                               f"(make exit {status}):\n{detail}")
    lines = output.strip().splitlines()
    elf = Path(lines[-1].strip()) if lines else Path()
    if not elf.is_file():
        raise RunnerBuildError(f"the model runner build for '{board.name}' reported no binary:\n{output[-2000:]}")
    return elf


@contextmanager
def runner_build(model: Path, board: Board, cases: Path, arena_size: int | None = None,
                 make_vars: dict[str, str] | None = None, hold: bool = True,
                 progress: Progress | None = None) -> Iterator[Path]:
    """Builds the runner, marks it used and prunes the cache (under the build lock); with ``hold``
    the runner cannot be pruned by another process until the block ends. ``progress`` hears of a long
    build every few seconds (the build driver's)."""
    keep = runner_cache_size()
    with board_lock(board.name, progress):
        elf = _make_runner(model, board, cases, arena_size, make_vars, progress)
        folder = _runner_folder(elf)
        handle = None
        if folder.is_dir():
            os.utime(folder)  # most recently used
            if hold:
                handle = (folder / _IN_USE).open("a")
                fcntl.flock(handle, fcntl.LOCK_SH)
        prune_runners(elf.parent.parent, keep)
    try:
        yield elf
    finally:
        if handle is not None:
            handle.close()


def build_runner(model: Path, board: Board, cases: Path, arena_size: int | None = None,
                 make_vars: dict[str, str] | None = None, progress: Progress | None = None) -> Path:
    """Builds the model runner firmware for ``board``; returns the ELF path.

    make_vars: extra make variables (e.g. {"LTO": "0"}); they may select another gen/ folder.
    At most ``runner_cache_size()`` runner builds stay per gen/ folder (least recently used go first).
    """
    with runner_build(model, board, cases, arena_size, make_vars, hold=False, progress=progress) as elf:
        return elf


def elf_sizes(elf: Path, board: Board) -> tuple[int, int]:
    """(flash bytes, static RAM bytes) of a binary: text+data and data+bss as `size` reports them."""
    tool = board.tool("size") if not board.is_host else "size"
    proc = subprocess.run([tool, str(elf)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RunnerBuildError(f"'{tool} {elf}' failed: {proc.stderr.strip()}; install binutils for the board")
    text, data, bss = (int(v) for v in proc.stdout.splitlines()[1].split()[:3])
    return text + data, data + bss


def host_file_runner(build: bool = True, progress: Progress | None = None) -> Path:
    """Path of the host file runner (micro_runtime/model_runner/host_file_runner.cc), built on demand."""
    binary = elf_path("host", "host_file_runner")
    if build:
        with board_lock("host", progress):
            status, output = run_make(["make", "-s", "-C", str(RUNTIME), "TARGET=host",
                                       *make_paths(load_board("host")), "host_file_runner"], progress,
                                      "the host file runner")
        if status != 0:
            raise RunnerBuildError(f"building the host file runner failed:\n{output[-3000:]}")
    return binary


