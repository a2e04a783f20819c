"""Runs a native (host board) test binary as a subprocess.

DebugLog writes to stdout, DebugRead reads stdin (what ``dut.write`` sends; /dev/null
otherwise) and MicroExit() exits with the status; stderr is
merged into the log so sanitizer reports and abort() messages stay in order
with the test output. A negative exit code means the process died from that
signal (Python's convention), which the log parser reports as a crash.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

from harness.boards import Board
from harness.formats.reader import board_format
from harness.run_token import TOKEN_ENV
from harness.runners._process import run_process
from harness.runners.base import RunResult
from harness.runners.control import active_control

# Signals a test process does not send itself when it crashes: someone stopped it.
_OUTSIDE_SIGNALS = {signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


class HostRunner:
    name = "host"

    def unavailable_reason(self, board: Board) -> str | None:
        if not board.is_host:
            return f"the host backend only runs native binaries; board '{board.name}' has core '{board.core}'"
        return None

    def input_problem(self, board: Board) -> str | None:
        """``dut.write`` reaches the binary's stdin (``DebugRead`` on the host board)."""
        return self.unavailable_reason(board)

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
        out = run_process([elf.resolve()], timeout_s, on_line, merge_stderr=True, cwd=elf.resolve().parent,
                          fmt=board_format(board), env=_token_env())
        if out.start_error is not None:
            return _infra(f"cannot start {elf}: {out.start_error}; is it a binary for this machine?")
        if out.returncode is not None and -out.returncode in _OUTSIDE_SIGNALS:
            name = signal.Signals(-out.returncode).name
            return RunResult(self.name, out.log, None, False, out.duration_s, "infra-error",
                             infra_error=f"{elf.name} was killed by {name} from outside the run "
                             "(a CI cancel, the OOM killer, a user); run it again",
                             case_seconds=out.case_seconds)
        return RunResult(
            case_seconds=out.case_seconds,
            backend=self.name,
            log=out.log,
            exit_code=out.returncode,
            timed_out=out.timed_out,
            duration_s=out.duration_s,
            end_reason=out.end_reason,
        )


def _token_env() -> dict[str, str] | None:
    """The environment that hands the caller's run token to the binary (``harness.run_token``), or None."""
    control = active_control()
    if control is None or control.token is None:
        return None
    control.token_delivered("environment")
    return {**os.environ, TOKEN_ENV: control.token.hex}


def _infra(message: str) -> RunResult:
    return RunResult("host", b"", None, False, 0.0, "infra-error", infra_error=message)
