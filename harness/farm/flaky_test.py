"""Flaky cases: an outcome that changed on the same binary hash and board type, and its flip rate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.farm.flaky import FlakyCase, flaky_cases, format_flaky, verdict
from harness.farm.history import CaseRecord, History, RunInfo


@pytest.fixture
def history(tmp_path: Path) -> Iterator[History]:
    with History(tmp_path / "farm.db") as opened:
        yield opened


class Recorder:
    """Runs one after the other (each started later than the one before), one result each."""

    def __init__(self, history: History) -> None:
        self.history = history
        self.count = 0

    def run(self, date: str, *results: tuple[str, str, str, str | None, str | None], finished: bool = True) -> None:
        """``results``: (case, board, outcome, failure class, binary hash); ``finished=False``: killed, no exit
        status."""
        self.count += 1
        run_id = f"run{self.count}"
        self.history.begin_run(RunInfo(run_id, date, 1000.0 + self.count))
        self.history.add_results(CaseRecord(run_id, case, board, outcome, failure_class=cls, binary_hash=digest)
                                 for case, board, outcome, cls, digest in results)
        if finished:
            self.history.finish_run(run_id, 0)


COIN = "coin_test.cc::Coin"


@pytest.mark.parametrize(("outcome", "failure_class", "expected"), [
    ("passed", None, "passed"),
    ("failed", "test", "failed"),
    ("failed", "infra", "failed"),  # a failed verdict is the test's whatever the class says
    ("error", "test", "failed"),  # "not reached": the test's error counts
    ("error", None, "failed"),
    ("error", "infra", None),  # the board's problem says nothing about the test
    ("skipped", None, None),
    ("xfailed", None, None),
])
def test_verdict_counts_only_what_the_test_said(outcome: str, failure_class: str | None,
                                                 expected: str | None) -> None:
    assert verdict(outcome, failure_class) == expected


def test_a_case_alternating_on_one_hash_flips_every_run(history: History) -> None:
    record = Recorder(history)
    for date, outcome in [("2026-03-01", "passed"), ("2026-03-02", "failed"), ("2026-03-03", "passed"),
                          ("2026-03-04", "failed")]:
        record.run(date, (COIN, "host", outcome, "test", "h1"), ("a.cc::Stable", "host", "passed", None, "h1"))
    (case,) = flaky_cases(history)
    assert (case.case_id, case.board, case.runs, case.failures, case.flips, case.transitions) == (
        COIN, "host", 4, 2, 3, 3)
    assert case.flip_rate == 1.0
    assert case.last_outcomes == ["passed", "failed", "passed", "failed"]
    assert case.last_night == "2026-03-04"


def test_a_change_that_came_with_a_new_binary_is_not_flaky(history: History) -> None:
    record = Recorder(history)
    record.run("2026-03-01", (COIN, "host", "passed", None, "old"))
    record.run("2026-03-02", (COIN, "host", "passed", None, "old"))
    record.run("2026-03-03", (COIN, "host", "failed", "test", "new"))
    record.run("2026-03-04", (COIN, "host", "failed", "test", "new"))
    assert flaky_cases(history) == []


def test_skips_and_infra_errors_say_nothing(history: History) -> None:
    record = Recorder(history)
    record.run("2026-03-01", (COIN, "host", "passed", None, "h"))
    record.run("2026-03-02", (COIN, "host", "error", "infra", "h"))
    record.run("2026-03-03", (COIN, "host", "skipped", None, "h"))
    record.run("2026-03-04", (COIN, "host", "passed", None, "h"))
    assert flaky_cases(history) == []


def test_flip_rate_counts_transitions_within_each_hash_only(history: History) -> None:
    record = Recorder(history)
    for outcome in ("passed", "passed", "passed", "failed"):  # hash a: 1 flip in 3 transitions
        record.run("2026-03-01", (COIN, "bluepill", outcome, "test", "a"))
    for outcome in ("failed", "failed"):  # hash b: 0 flips in 1 transition
        record.run("2026-03-02", (COIN, "bluepill", outcome, "test", "b"))
    (case,) = flaky_cases(history)
    assert (case.runs, case.failures, case.flips, case.transitions) == (6, 3, 1, 4)
    assert case.flip_rate == 0.25


def test_most_flipping_first_and_filters_by_board_and_night(history: History) -> None:
    record = Recorder(history)
    for date, first, second in [("2026-03-01", "passed", "passed"), ("2026-03-02", "failed", "passed"),
                                ("2026-03-03", "passed", "passed"), ("2026-03-04", "passed", "failed")]:
        record.run(date, ("x.cc::Often", "host", first, "test", "h"), ("x.cc::Rarely", "bluepill", second, "test", "h"))
    assert [(c.case_id, c.flips, c.transitions) for c in flaky_cases(history)] == [
        ("x.cc::Often", 2, 3), ("x.cc::Rarely", 1, 3)]
    assert [c.case_id for c in flaky_cases(history, board="bluepill")] == ["x.cc::Rarely"]
    # from 2026-03-03 on, Often passed twice: not flaky in that window
    assert [(c.case_id, c.runs) for c in flaky_cases(history, since_night="2026-03-03")] == [("x.cc::Rarely", 2)]


def test_last_outcomes_keep_the_last_20(history: History) -> None:
    record = Recorder(history)
    outcomes = ["passed", "failed"] * 12 + ["passed"]
    for outcome in outcomes:
        record.run("2026-03-01", (COIN, "host", outcome, "test", "h"))
    (case,) = flaky_cases(history)
    assert case.runs == 25 and case.last_outcomes == outcomes[-20:]


def test_last_outcomes_are_oldest_first_when_hashes_interleave(history: History) -> None:
    record = Recorder(history)
    record.run("2026-03-01", (COIN, "host", "passed", None, "a"))
    record.run("2026-03-02", (COIN, "host", "passed", None, "b"))
    record.run("2026-03-03", (COIN, "host", "failed", "test", "a"))
    (case,) = flaky_cases(history)
    assert case.last_outcomes == ["passed", "passed", "failed"]


def test_format_flaky_is_a_table_or_says_there_is_none() -> None:
    assert format_flaky([]) == ("no flaky cases (no case changed its outcome on the same binary hash and board)")
    cases = [FlakyCase("coin_test.cc::Coin", "host", runs=4, failures=2, flips=3, transitions=3,
                       last_night="2026-03-04"),
             FlakyCase("b.cc::B", "bluepill", runs=10, failures=1, flips=1, transitions=8, last_night="2026-03-01")]
    assert format_flaky(cases).splitlines() == [
        "FLIP RATE  FLIPS  FAILS/RUNS  BOARD     CASE                LAST NIGHT",
        "100%       3      2/4         host      coin_test.cc::Coin  2026-03-04",
        "12%        1      1/10        bluepill  b.cc::B             2026-03-01",
    ]


def test_a_run_that_never_finished_says_nothing(history: History) -> None:
    """A killed night (no exit status): what it recorded while its boards were torn down is no verdict."""
    runs = Recorder(history)
    runs.run("2026-01-01", (COIN, "bluepill", "passed", None, "h1"))
    runs.run("2026-01-02", (COIN, "bluepill", "failed", "test", "h1"), finished=False)
    runs.run("2026-01-03", (COIN, "bluepill", "passed", None, "h1"))
    assert flaky_cases(history) == []
