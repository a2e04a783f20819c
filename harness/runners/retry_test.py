"""run_on_pool: retry on another board after an infrastructure error only; blame a board only where another one
ran the binary; a host-side problem is never retried and blames nobody; every attempt and the board's note
are on the result."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.board.boards import Board
from harness.run_result import Attempt, Note, RunResult
from harness.runners.retry import HostProblem, NoBoard, run_on_pool
from harness.testing.mini_fw import mini_board

ELF = Path("/nonexistent/fw.elf")  # the fake pool never reads it
BOARD = mini_board()

PASSED = RunResult("fake", b"Testing A\n1/1 tests passed\n~~~ALL TESTS PASSED~~~\n", 0, False, 0.5, "exit")
FAILED = RunResult("fake", b"Testing A\na == b failed at x.c:7 (1 vs 2)\n0/1 tests passed\n~~~SOME TESTS FAILED~~~\n",
                   1, False, 0.5, "exit")


def dead(error: str) -> RunResult:
    """A board that could not run the binary (the probe or port failed)."""
    return RunResult("fake", b"", None, False, 0.25, "infra-error", error)


SILENT = RunResult("fake", b"", 0, False, 0.25, "exit")  # not one byte: infra, without an infra_error text


class FakeLease:
    def __init__(self, pool: FakePool, name: str, outcome: RunResult | Exception) -> None:
        self.pool = pool
        self.name = name
        self.outcome = outcome
        self.released = False

    def note(self) -> str:
        return f"[harness] ran on {self.name}"

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: object) -> RunResult:
        self.pool.events.append(f"run {self.name}")
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome

    def release(self) -> None:
        self.released = True
        self.pool.events.append(f"release {self.name}")


class FakePool:
    """Boards in a fixed order, each with its scripted outcome; records what the retry loop asked of it."""

    label = "fakepool"

    def __init__(self, boards: dict[str, RunResult | Exception], prepare_error: HostProblem | None = None,
                 no_board: str = "no free 'mini-stm32f100' board (all 0 busy)") -> None:
        self.boards = boards
        self.prepare_error = prepare_error
        self.no_board = no_board
        self.events: list[str] = []
        self.excluded: list[set[str]] = []  # the ``exclude`` of each acquire, as it was then
        self.blamed: list[tuple[str, str]] = []
        self.leases: list[FakeLease] = []

    def prepare(self, elf: Path, board: Board) -> None:
        self.events.append("prepare")
        if self.prepare_error is not None:
            raise self.prepare_error

    def acquire(self, board: Board, exclude: set[str]) -> FakeLease:
        self.excluded.append(set(exclude))
        for name, outcome in self.boards.items():
            if name not in exclude:
                self.events.append(f"acquire {name}")
                lease = FakeLease(self, name, outcome)
                self.leases.append(lease)
                return lease
        raise NoBoard(self.no_board)

    def blame(self, name: str, reason: str) -> None:
        self.blamed.append((name, reason))


def run(pool: FakePool, max_retries: int = 2, lines: list[str] | None = None,
        attempts: list[Attempt] | None = None) -> RunResult:
    return run_on_pool(pool, ELF, BOARD, 5.0, lines.append if lines is not None else None, max_retries,
                       attempts if attempts is not None else [])


def test_a_pass_on_the_first_board_is_one_attempt_and_carries_the_boards_note() -> None:
    pool = FakePool({"a": PASSED, "b": PASSED})
    attempts: list[Attempt] = []
    result = run(pool, attempts=attempts)
    assert pool.events == ["prepare", "acquire a", "run a", "release a"]
    assert result.log == PASSED.log  # the note is not in the device's bytes
    assert result.notes == [Note(0, "ran on a")]
    assert result.annotated_log.startswith(b"[harness] ran on a\nTesting A\n")
    assert [(a.device, a.failure_class, a.duration_s, a.infra_error) for a in result.attempts] == [
        ("a", "passed", 0.5, None)]
    assert result.attempts == attempts and result.attempts is not attempts
    assert attempts[0].leased_at <= attempts[0].released_at
    assert pool.blamed == []


def test_a_test_failure_is_never_retried() -> None:
    pool = FakePool({"a": FAILED, "b": PASSED})
    result = run(pool, max_retries=3)
    assert pool.events == ["prepare", "acquire a", "run a", "release a"]
    assert result.exit_code == 1 and result.log == FAILED.log
    assert [(a.device, a.failure_class) for a in result.attempts] == [("a", "failed")]
    assert pool.blamed == []


def test_an_infra_error_is_retried_on_another_board_which_then_blames_the_first() -> None:
    pool = FakePool({"a": dead("probe lost"), "b": PASSED})
    lines: list[str] = []
    result = run(pool, lines=lines)
    assert pool.excluded == [set(), {"a"}]
    assert pool.events == ["prepare", "acquire a", "run a", "release a", "acquire b", "run b", "release b"]
    assert result.log == PASSED.log and result.end_reason == "exit" and result.infra_error is None
    assert result.notes == [Note(0, "ran on b, retry after infrastructure error on a: probe lost")]
    assert [(a.device, a.failure_class, a.infra_error) for a in result.attempts] == [
        ("a", "infra-error", "probe lost"), ("b", "passed", None)]
    assert pool.blamed == [("a", "probe lost")]
    # the live log names each board as it is leased, and marks where the retry begins
    assert lines == ["[harness] ran on a",
                     "--- infrastructure error on a: probe lost; retrying on b ---",
                     "[harness] ran on b"]


def test_a_board_that_never_spoke_is_blamed_for_no_output_when_another_board_ran_it() -> None:
    pool = FakePool({"a": SILENT, "b": FAILED})
    lines: list[str] = []
    result = run(pool, lines=lines)
    assert result.exit_code == 1
    assert [(a.device, a.failure_class) for a in result.attempts] == [("a", "infra-error"), ("b", "failed")]
    assert pool.blamed == [("a", "no output at all")]
    assert "--- infrastructure error on a: no output at all; retrying on b ---" in lines
    assert result.notes[0] == Note(0, "ran on b, retry after infrastructure error on a: infra-error")


def test_retries_stop_after_max_retries_and_then_nobody_is_blamed() -> None:
    pool = FakePool({"a": dead("port error A"), "b": dead("port error B"), "c": dead("port error C"),
                     "d": PASSED})
    result = run(pool, max_retries=2)
    assert [lease.name for lease in pool.leases] == ["a", "b", "c"]  # 1 + 2 retries; d is never tried
    assert all(lease.released for lease in pool.leases)
    assert pool.blamed == []
    assert result.end_reason == "infra-error"
    assert result.infra_error == (
        "port error C (tried a, b, c: every board failed, so the firmware or this host is the likely cause, "
        "not the boards; none quarantined. Per board: a: port error A; b: port error B; c: port error C)")
    assert [a.device for a in result.attempts] == ["a", "b", "c"]
    assert result.notes == [Note(0, "ran on c, retry after infrastructure error on a: port error A; "
                                    "b: port error B")]


def test_max_retries_zero_means_a_single_attempt() -> None:
    pool = FakePool({"a": dead("probe lost"), "b": PASSED})
    result = run(pool, max_retries=0)
    assert [lease.name for lease in pool.leases] == ["a"]
    assert result.infra_error is not None
    assert result.infra_error.startswith("probe lost (tried a: no other board was free to tell whether the board "
                                         "or the firmware is at fault; none quarantined.")
    assert pool.blamed == []


def test_running_out_of_boards_after_an_infra_error_keeps_that_error_and_blames_nobody() -> None:
    pool = FakePool({"a": dead("probe lost")})
    result = run(pool, max_retries=3)
    assert pool.excluded == [set(), {"a"}]
    assert result.end_reason == "infra-error"
    assert result.infra_error is not None and "tried a: no other board was free" in result.infra_error
    assert [a.device for a in result.attempts] == ["a"]
    assert pool.blamed == []


def test_no_board_at_all_is_an_infra_error_naming_why() -> None:
    pool = FakePool({}, no_board="no 'mini-stm32f100' board in rack.toml; add one")
    attempts: list[Attempt] = []
    result = run(pool, attempts=attempts)
    assert (result.backend, result.log, result.exit_code, result.end_reason, result.infra_error) == (
        "fakepool", b"", None, "infra-error", "no 'mini-stm32f100' board in rack.toml; add one")
    assert result.attempts == [] and attempts == []
    assert result.notes == []


def test_a_host_problem_in_prepare_leases_no_board_and_blames_nobody() -> None:
    pool = FakePool({"a": PASSED}, prepare_error=HostProblem("cannot read fw.elf"))
    result = run(pool)
    assert pool.events == ["prepare"]
    assert (result.backend, result.end_reason) == ("fakepool", "infra-error")
    assert result.infra_error == ("cannot read fw.elf (a problem of the binary or of this machine: no board "
                                  "retried or quarantined)")
    assert result.attempts == [] and pool.blamed == []


def test_a_host_problem_while_running_is_not_retried_and_the_board_is_released() -> None:
    pool = FakePool({"a": dead("probe lost"), "b": HostProblem("objcopy missing"), "c": PASSED})
    result = run(pool, max_retries=3)
    assert [lease.name for lease in pool.leases] == ["a", "b"]
    assert all(lease.released for lease in pool.leases)
    assert result.infra_error == ("objcopy missing (a problem of the binary or of this machine: no board "
                                  "retried or quarantined)")
    assert pool.blamed == []  # not even board a: no board ran the binary
    assert [a.device for a in result.attempts] == ["a"]


@pytest.mark.parametrize("max_retries", [1, 4])
def test_the_attempts_list_passed_in_receives_every_attempt(max_retries: int) -> None:
    pool = FakePool({name: dead(f"down {name}") for name in "abcdef"})
    attempts: list[Attempt] = []
    result = run(pool, max_retries=max_retries, attempts=attempts)
    assert [a.device for a in attempts] == list("abcdef"[: max_retries + 1])
    assert result.attempts == attempts
