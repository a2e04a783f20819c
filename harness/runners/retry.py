"""Strategy: run a binary on one board of a pool; after an infrastructure error, on another.

What a pool *has* and how to lease from it lives with the pool (resources and drivers): the
hardware map's devices with file leases (``harness.hil.pool.DevicePool``), labgrid places
through the coordinator (``harness.farm.farm_runner.PlacePool``). How to bring a run up and when to
retry is here, once, for both:

- the binary is checked before any board is leased (``Pool.prepare``): a fault of the binary or of
  this machine (``HostProblem``) is never retried and blames no board;
- a run whose failure class is ``infra`` (no output, probe or emulator gone, port error) is retried
  on a board not tried yet, up to ``max_retries`` times; the retry's lines are marked in the live log;
- boards are blamed (quarantined, tagged unhealthy) only when another board then ran the same binary
  and it spoke: if every board failed, the binary or this host is the likely cause and none is blamed;
- every attempt is recorded (``Attempt``) for reports; the live log names each board as it is leased,
  and the log of the result starts with a note naming the board that ran it and the ones that failed
  before.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from harness.board.boards import Board
from harness.run_result import NOTE_PREFIX, Attempt, Note, RunResult
from harness.runners.base import OnLine
from harness.runners.failure_classes import INFRA, classify_run


class HostProblem(Exception):
    """A fault of this machine or of the binary (unreadable ELF, missing tool, failed variant build):
    no board can help, so nothing is retried and no board is blamed."""


class NoBoard(Exception):
    """The pool has no (further) board for this run; the message says why and what to do."""


class Lease(Protocol):
    """One leased board of a pool: runs a binary, then is released."""

    name: str

    def note(self) -> str:
        """The ``[harness] ...`` line naming this board at the top of the run's log."""

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine) -> RunResult:
        """Runs ``elf``; raises HostProblem for a fault no other board could fix."""

    def release(self) -> None: ...


class Pool(Protocol):
    label: str  # the RunResult backend of runs that never reached a board

    def prepare(self, elf: Path, board: Board) -> None:
        """Checks (and builds what is needed for) ``elf`` before any board is leased; raises HostProblem."""

    def acquire(self, board: Board, exclude: set[str]) -> Lease:
        """A free board of ``board``'s type not in ``exclude``; raises NoBoard with the reason."""

    def blame(self, name: str, reason: str) -> None:
        """Takes a board out of service (quarantine, unhealthy tag) after it failed where another worked."""


def first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else text
    return line if len(line) <= limit else line[: limit - 3] + "..."


def host_side(label: str, problem: str) -> RunResult:
    message = f"{problem} (a problem of the binary or of this machine: no board retried or quarantined)"
    return RunResult(label, b"", None, False, 0.0, "infra-error", message)


def run_on_pool(pool: Pool, elf: Path, board: Board, timeout_s: float, on_line: OnLine, max_retries: int,
                attempts: list[Attempt]) -> RunResult:
    """Runs ``elf`` on a board of ``pool`` with the retry rules above; ``attempts`` receives each attempt,
    and the result carries them (``RunResult.attempts``)."""
    result = _run_on_pool(pool, elf, board, timeout_s, on_line, max_retries, attempts)
    return replace(result, attempts=list(attempts))


def _run_on_pool(pool: Pool, elf: Path, board: Board, timeout_s: float, on_line: OnLine, max_retries: int,
                 attempts: list[Attempt]) -> RunResult:
    try:
        pool.prepare(elf, board)
    except HostProblem as error:
        return host_side(pool.label, str(error))
    tried: set[str] = set()
    last: RunResult | None = None
    for _ in range(max_retries + 1):
        try:
            lease = pool.acquire(board, tried)
        except NoBoard as error:
            if last is None:
                return RunResult(pool.label, b"", None, False, 0.0, "infra-error", str(error))
            break
        tried.add(lease.name)
        if attempts and on_line is not None:
            # The failed board's lines were already shown live: mark where the retry's begin.
            previous = attempts[-1]
            on_line(f"--- infrastructure error on {previous.device}: "
                    f"{first_line(previous.infra_error or 'no output at all')}; retrying on {lease.name} ---")
        if on_line is not None:
            on_line(lease.note())  # the live log names the board as soon as it is leased
        leased_at = time.time()
        try:
            result = lease.run(elf, board, timeout_s, on_line)
        except HostProblem as error:
            return host_side(pool.label, str(error))
        finally:
            lease.release()
        failure_class = classify_run(result)
        attempts.append(Attempt(lease.name, str(failure_class), result.duration_s, result.infra_error, leased_at,
                                time.time()))
        note = lease.note()
        if len(attempts) > 1:
            earlier = "; ".join(f"{a.device}: {a.infra_error or a.failure_class}" for a in attempts[:-1])
            note += f", retry after infrastructure error on {earlier}"
        result = replace(result, notes=[Note(0, note.removeprefix(NOTE_PREFIX)), *result.notes])
        if failure_class != INFRA:
            # This board ran the same binary and spoke: the boards that failed it are at fault.
            for failed in attempts[:-1]:
                pool.blame(failed.device, failed.infra_error or "no output at all")
            return result
        last = result
    if last is None:
        return RunResult(pool.label, b"", None, False, 0.0, "infra-error", f"no usable '{board.name}' board")
    # No board ran it: nothing shows that the boards are at fault, so none is blamed.
    if len(attempts) == 1:
        verdict = "no other board was free to tell whether the board or the firmware is at fault"
    else:
        verdict = "every board failed, so the firmware or this host is the likely cause, not the boards"
    per_board = "; ".join(f"{a.device}: {first_line(a.infra_error or 'no output at all')}" for a in attempts)
    return replace(
        last,
        infra_error=f"{last.infra_error} (tried {', '.join(a.device for a in attempts)}: {verdict}; "
        f"none quarantined. Per board: {per_board})",
        end_reason="infra-error",
    )
