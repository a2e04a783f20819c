"""Runs a native (host board) test binary as a subprocess.

DebugLog writes to stdout, DebugRead reads stdin (what ``dut.write`` sends; /dev/null
otherwise) and MicroExit() exits with the status; stderr is
merged into the log so sanitizer reports and abort() messages stay in order
with the test output. A negative exit code means the process died from that
signal (Python's convention), which the log parser reports as a crash.

The run follows the binary's whole process group (``harness.runners.process``): a forked child's
output is part of the log, and a child still running after the main process exited fails the
run (``RunResult.problems``). A death by SIGTERM, SIGKILL, SIGINT or SIGHUP is the test's own crash
unless the harness sent that group a signal before it died, or the harness itself was stopped
(``harness.core.procs``): only then is it an infrastructure error.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from harness.board.boards import Board
from harness.core import procs
from harness.core.run_token import TOKEN_ENV
from harness.formats.reader import board_format
from harness.runners.base import OnLine, RunResult
from harness.runners.control import active_control
from harness.runners.process import ProcessOutcome, run_process

# Signals that stop a process rather than report a fault: a test may send them to itself, but so
# does whoever stops a run (the harness, a CI cancel, a user).
_STOP_SIGNALS = {signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
# A signal to the harness may arrive a moment after the same stop killed the test (a CI cancel that
# signals every process): how long to wait for it before calling the death the test's own.
_SETTLE_S = 0.2


class HostRunner:
    name = "host"

    def unavailable_reason(self, board: Board) -> str | None:
        if not board.is_host:
            return f"the host backend only runs native binaries; board '{board.name}' has core '{board.core}'"
        return None

    def input_problem(self, board: Board) -> str | None:
        """``dut.write`` reaches the binary's stdin (``DebugRead`` on the host board)."""
        return self.unavailable_reason(board)

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        elf = Path(elf)
        if not elf.is_file():
            return _infra(f"binary {elf} does not exist; build it first (make -C micro_runtime TARGET=host)")
        if not os.access(elf, os.X_OK):
            return _infra(f"binary {elf} is not executable; rebuild it or chmod +x it")
        out = run_process([elf.resolve()], timeout_s, on_line, merge_stderr=True, cwd=elf.resolve().parent,
                          fmt=board_format(board), env=_token_env())
        if out.start_error is not None:
            return _infra(f"cannot start {elf}: {out.start_error}; is it a binary for this machine?")
        stopped = _stopped_by_harness(elf, out)
        if stopped is not None:
            return RunResult(self.name, out.log, None, False, out.duration_s, "infra-error", infra_error=stopped,
                             case_seconds=out.case_seconds, problems=out.problems, notes=out.notes)
        return RunResult(
            case_seconds=out.case_seconds,
            backend=self.name,
            log=out.log,
            exit_code=out.returncode,
            timed_out=out.timed_out,
            duration_s=out.duration_s,
            end_reason=out.end_reason,
            problems=out.problems,
            notes=out.notes,
        )


def _token_env() -> dict[str, str] | None:
    """The environment that hands the caller's run token to the binary (``harness.core.run_token``), or None."""
    control = active_control()
    if control is None or control.token is None:
        return None
    control.token_delivered("environment")
    return {**os.environ, TOKEN_ENV: control.token.hex}


def _stopped_by_harness(elf: Path, out: ProcessOutcome) -> str | None:
    """The infrastructure error when the binary's death by a signal was the harness's doing (it signalled
    the binary's process group before the death, or was itself stopped during the run), else None:
    any other death by a signal, also SIGTERM or SIGKILL, is the test's own crash."""
    if out.returncode is None or out.returncode >= 0:
        return None
    number = -out.returncode
    if number not in _STOP_SIGNALS:
        return None  # a fault (SIGSEGV, SIGABRT...): always the test's
    name = signal.Signals(number).name
    sent = procs.signal_sent(out.pid, before=out.exited_at) if out.pid is not None else None
    if sent is not None:
        return f"{elf.name} was killed by {name} after the harness sent {sent} to its process group; run it again"
    stop = procs.harness_signal(since=out.started_at)
    if stop is None:
        time.sleep(_SETTLE_S)  # the same stop may reach the harness a moment later
        stop = procs.harness_signal(since=out.started_at)
    if stop is not None:
        return (f"the harness was stopped by {stop} while {elf.name} ran ({elf.name} was killed by {name}); "
                "run it again")
    return None


def _infra(message: str) -> RunResult:
    return RunResult("host", b"", None, False, 0.0, "infra-error", infra_error=message)
