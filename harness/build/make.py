"""Running make for a board: the project's build folder, make's environment and paths, the per-board
build lock shared by every process on this machine, and ``run_make`` (make's output collected, with a
progress line every few seconds for long builds, with the steps done and the time left when known).
"""

from __future__ import annotations

import fcntl
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness import PACKAGE_DIR, REPO_ROOT
from harness.board.boards import Board
from harness.core import project

RUNTIME_DIR = REPO_ROOT / "micro_runtime"

# How often a long build reports that it is still alive.
_PROGRESS_EVERY_S = 8.0  # under the 10 s a user should wait at most for a sign of life (progress_gaps.py)

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildVariant:
    """A build of every binary of this process with other flags, in its own subfolder of the build folder, so
    the plain build's objects are never touched (``harness.coverage``: gcov-instrumented builds in
    ``<build folder>/coverage/``). ``make_variables(board)``: what every make call for the board adds."""

    folder: str
    make_variables: Callable[[Board], list[str]]


_variant: BuildVariant | None = None


def set_build_variant(variant: BuildVariant | None) -> None:
    """Builds of this process from now on go to ``variant`` (None: the plain build again)."""
    global _variant
    _variant = variant


def build_variant() -> BuildVariant | None:
    return _variant


def gen_root() -> Path:
    """The build folder of the project in use (one folder per board and variant inside)."""
    root = project.current().build_dir
    return root / _variant.folder if _variant is not None else root


def gen_dir(board: Board | str) -> Path:
    return gen_root() / (board if isinstance(board, str) else board.name)


def make_env() -> dict[str, str]:
    """Make's environment: the harness importable by the Python steps of the Makefile, working for the
    same project (its board files)."""
    return dict(os.environ, PYTHONPATH=str(PACKAGE_DIR.parent),
                **{project.PROJECT_ENV: project.env_value(project.current())})


def make_paths(board: Board) -> list[str]:
    """Where make finds the project's build folder, the board file and the harness (see the Makefile)."""
    extra = _variant.make_variables(board) if _variant is not None else []
    return [f"GEN_ROOT={gen_root()}", f"BOARD_FILE={board.path / 'board.toml'}", f"HARNESS_SRC={PACKAGE_DIR}", *extra]


def bin_dir(board: Board | str) -> Path:
    return gen_dir(board) / "bin"


def elf_path(board: Board | str, name: str) -> Path:
    return bin_dir(board) / name


@contextmanager
def file_lock(path: Path, waiting: str | None = None, progress: Progress | None = None) -> Iterator[None]:
    """An exclusive OS lock on ``path`` shared by every process on this machine; ``progress(waiting)`` when
    another process holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if progress is not None and waiting:
                progress(waiting)
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def board_lock(board: Board | str, progress: Progress | None = None) -> Iterator[None]:
    """Exclusive per-board build lock shared by every process on this machine."""
    directory = gen_dir(board)
    with file_lock(directory / ".build.lock", f"waiting for another process building {directory.name}", progress):
        yield


def make_command(board: Board, targets: Sequence[str], jobs: int | None = None, *extra: str) -> list[str]:
    jobs = jobs or os.cpu_count() or 1
    return [
        "make", "-C", str(RUNTIME_DIR), f"TARGET={board.name}", f"PYTHON={sys.executable}", *make_paths(board),
        f"-j{jobs}", "--no-print-directory", *extra, *targets,
    ]


def _is_step(line: str) -> bool:
    return " -c " in line or " -o " in line


def _planned_steps(argv: list[str], env: dict[str, str]) -> int | None:
    """How many compile/link commands ``argv`` will run (``make --dry-run``), for the time left; None if unknown."""
    try:
        proc = subprocess.run([*argv, "--dry-run"], capture_output=True, text=True, errors="replace", env=env,
                              stdin=subprocess.DEVNULL, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return sum(1 for line in proc.stdout.splitlines() if _is_step(line)) or None


def progress_line(what: str, steps: int, total: int | None, elapsed: float) -> str:
    """``<what>: 12/80 compile/link steps in 20 s, about 1 min 53 s left`` (no estimate before the first step)."""
    if total is None or steps == 0:
        return f"{what}: {steps} compile/link steps in {elapsed:.0f} s, still building"
    left = max(0.0, elapsed / steps * (max(total, steps) - steps))
    shown = f"{left:.0f} s" if left < 60 else f"{int(left // 60)} min {left % 60:.0f} s"
    return f"{what}: {steps}/{max(total, steps)} compile/link steps in {elapsed:.0f} s, about {shown} left"


def _pump(stream: Iterable[str], into: queue.Queue[str | None]) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


def follow_output(stream: Iterable[str], on_line: Callable[[str], None], on_tick: Callable[[float], None] | None,
                  every_s: float | None = None) -> None:
    """Reads a build's output to its end, line by line, and calls ``on_tick(seconds so far)`` every ``every_s``
    meanwhile (default every 8 s): a reader thread, so the ticks keep coming while one long step (an LTO link)
    prints nothing."""
    every_s = _PROGRESS_EVERY_S if every_s is None else every_s
    start = time.monotonic()
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(stream, lines), daemon=True)
    reader.start()
    next_tick = start + every_s
    while True:
        try:
            line = lines.get(timeout=max(0.05, next_tick - time.monotonic()))
        except queue.Empty:
            line = ""
        if line is None:
            break
        if line:
            on_line(line)
        now = time.monotonic()
        if on_tick is not None and now >= next_tick:
            on_tick(now - start)
            next_tick = now + every_s
    reader.join()


def run_make(argv: list[str], progress: Progress | None, what: str) -> tuple[int, str]:
    """Runs make, collecting its output; reports progress of long builds (with the time left) every 8 s."""
    env = make_env()
    total = _planned_steps(argv, env) if progress is not None else None
    steps = 0
    lines: list[str] = []
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
        text=True, errors="replace",
    )
    assert proc.stdout is not None

    def on_line(line: str) -> None:
        nonlocal steps
        lines.append(line)
        if _is_step(line):
            steps += 1

    def on_tick(elapsed: float) -> None:
        if progress is not None:
            progress(progress_line(what, steps, total, elapsed))

    follow_output(proc.stdout, on_line, on_tick if progress is not None else None)
    return proc.wait(), "".join(lines)


