"""Firmware built by the project's own build system (make, CMake, west, PlatformIO...): the harness runs
the command a ``[[tool.micro-harness.firmware]]`` entry names and hands on the ELF it made.

- the command runs in the project root through the shell, without stdin, in a process group of its
  own that dies with the harness (Ctrl-C ends the whole build);
- one process at a time runs one command (an OS file lock in the build folder): pytest-xdist workers
  that collect the same firmware wait, and then find the build up to date;
- a long build says so every 8 s with the last line it printed (no silent stretch);
- a failed command is a ``BuildError`` headed by its first error line, with the command, its exit status
  and the end of its output; a command that succeeds without making the ELF is one too.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

from harness.build.driver import BuildError
from harness.build.make import Progress, file_lock, follow_output
from harness.core import procs

PROGRESS_EVERY_S = 8.0
TAIL_LINES = 40
_ERROR = re.compile(r"(?:^|[\s:])(?:fatal )?error\b[:!]?|\*\*\*|FAILED:", re.IGNORECASE)


def command_lock(build_dir: Path, key: str, progress: Progress | None = None) -> contextlib.AbstractContextManager[None]:
    """An exclusive lock per (command, folder) shared by every process on this machine."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return file_lock(build_dir / f".external-{digest}.lock",
                     f"waiting for another process running: {key.partition(chr(0))[0]}", progress)


def headline(output: str) -> str:
    """The line that best sums up a failed build: the first that reports an error, else the last one."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    return next((line for line in lines if _ERROR.search(line)), lines[-1] if lines else "(it printed nothing)")


def run_build_command(command: str, cwd: Path, what: str, *, lock_dir: Path, progress: Progress | None = None,
                      produces: Path | None = None) -> str:
    """Runs ``command`` (a shell command line) in ``cwd``; returns its output. ``what`` names the build in
    messages ("app.elf for bluepill"); ``produces``: the file it must leave behind."""
    with command_lock(lock_dir, f"{command}\0{cwd}", progress):
        if progress is not None:
            progress(f"building {what}: {command}")
        try:
            proc = procs.spawn(["/bin/sh", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except OSError as error:
            raise BuildError(f"cannot run the build command of {what} ({command}) in {cwd}: {error}") from error
        assert proc.stdout is not None
        output: list[str] = []

        def tick(elapsed: float) -> None:
            assert progress is not None
            last = next((x for x in reversed(output) if x.strip()), "")
            progress(f"building {what}: still running after {elapsed:.0f} s"
                     + (f" (last line: {last.strip()[:100]})" if last else ""))

        try:
            follow_output((line.decode("utf-8", errors="replace").rstrip("\n") for line in proc.stdout),
                          output.append, tick if progress is not None else None, PROGRESS_EVERY_S)
            status = proc.wait()
        finally:
            procs.reap(proc)  # Ctrl-C or an error here: nothing of the build outlives it
    joined = "\n".join(output)
    if status != 0:
        tail = "\n".join(output[-TAIL_LINES:])
        cut = f"(last {TAIL_LINES} of {len(output)} lines)\n" if len(output) > TAIL_LINES else ""
        raise BuildError(f"{headline(joined)}\nthe build command of {what} failed (exit status {status}): {command} "
                         f"(in {cwd})\n{cut}{tail}")
    if produces is not None and not produces.is_file():
        raise BuildError(f"the build command of {what} succeeded but left no {produces}: {command} (in {cwd}); "
                         "fix the command or the entry's elf path")
    return joined
