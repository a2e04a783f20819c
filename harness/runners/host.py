"""Runs a native (host board) test binary as a subprocess.

DebugLog writes to stdout and MicroExit() exits with the status; stderr is
merged into the log so sanitizer reports and abort() messages stay in order
with the test output. A negative exit code means the process died from that
signal (Python's convention), which the log parser reports as a crash.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from harness.boards import Board
from harness.runners._process import run_process
from harness.runners.base import RunResult


class HostRunner:
    name = "host"

    def unavailable_reason(self, board: Board) -> str | None:
        if not board.is_host:
            return f"the host backend only runs native binaries; board '{board.name}' has core '{board.core}'"
        return None

    def run(
        self,
        elf: Path,
        board: Board,
        timeout_s: float,
        on_line: Callable[[str], None] | None = None,
    ) -> RunResult:
        elf = Path(elf)
        if not elf.is_file():
            return _infra(f"binary {elf} does not exist; build it first (make -C micro_runtime TARGET=host)")
        if not os.access(elf, os.X_OK):
            return _infra(f"binary {elf} is not executable; rebuild it or chmod +x it")
        out = run_process([elf.resolve()], timeout_s, on_line, merge_stderr=True, cwd=elf.resolve().parent)
        if out.start_error is not None:
            return _infra(f"cannot start {elf}: {out.start_error}; is it a binary for this machine?")
        return RunResult(
            backend=self.name,
            log=out.log,
            exit_code=out.returncode,
            timed_out=out.timed_out,
            duration_s=out.duration_s,
            end_reason=out.end_reason,
        )


def _infra(message: str) -> RunResult:
    return RunResult("host", b"", None, False, 0.0, "infra-error", infra_error=message)
