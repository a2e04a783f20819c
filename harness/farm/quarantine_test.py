"""The quarantine file: nothing without a reason, a link and an expiry; entries as they apply on one night;
the worst verdict per night; a quarantined case that passed N nights in a row is fixed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.farm.history import CaseRecord, History, RunInfo
from harness.farm.quarantine import Entry, Quarantine, QuarantineError, fixed_cases, load_quarantine, night_verdicts

ENTRY = """
[[quarantine]]
case = "micro_runtime/kernels/conv_test.cc::Int8*"
board = "bluepill"
reason = "flips on bluepill since the DMA change"
link = "https://example.org/issues/123"
expires = 2026-12-31
"""


def entry(case: str = "a.cc::*", board: str = "*", expires: str = "2026-06-30") -> Entry:
    return Entry(case, board, "flaky", "https://example.org/1", dt.date.fromisoformat(expires))


# ----------------------------------------------------------------------------------------------- the file --
def test_a_full_file_loads_with_the_board_defaulting_to_every_board(tmp_path: Path) -> None:
    path = tmp_path / "q.toml"
    path.write_text(ENTRY + '\n[[quarantine]]\ncase = "b.cc::B"\nreason = "r"\nlink = "l"\n'
                    'expires = "2027-01-02"\n')
    first, second = load_quarantine(path)
    assert first == Entry("micro_runtime/kernels/conv_test.cc::Int8*", "bluepill",
                          "flips on bluepill since the DMA change", "https://example.org/issues/123",
                          dt.date(2026, 12, 31), line=1)
    assert second == Entry("b.cc::B", "*", "r", "l", dt.date(2027, 1, 2), line=2)  # a date as a string works too
    assert first.describe() == ("micro_runtime/kernels/conv_test.cc::Int8* [bluepill]: flips on bluepill since the "
                                "DMA change (https://example.org/issues/123; expires 2026-12-31)")
    assert load_quarantine(tmp_path / "q.toml") == [first, second]
    (tmp_path / "empty.toml").write_text("")
    assert load_quarantine(tmp_path / "empty.toml") == []


def test_a_datetime_expiry_is_its_date(tmp_path: Path) -> None:
    path = tmp_path / "q.toml"
    path.write_text(ENTRY.replace("2026-12-31", "2026-12-31T08:00:00"))
    assert load_quarantine(path)[0].expires == dt.date(2026, 12, 31)


@pytest.mark.parametrize(("text", "message"), [
    ('[[quarantine]]\ncase = "*"\nreason = "trust me"\n',
     "entry 1: missing link, expires (nothing is quarantined without a case pattern, a reason, a link and an "
     "expiry date)"),
    (ENTRY + '[[quarantine]]\ncase = "x"\nreason = ""\nlink = "l"\nexpires = 2026-01-01\n', "entry 2: missing reason"),
    (ENTRY.replace('board = "bluepill"', 'boards = "bluepill"'), "entry 1: unknown key(s) boards"),
    (ENTRY.replace("2026-12-31", '"end of year"'), "entry 1: expires = 'end of year' is not a date (YYYY-MM-DD)"),
    (ENTRY.replace("2026-12-31", "20261231"), "entry 1: expires must be a date (YYYY-MM-DD)"),
    (ENTRY + "[settings]\nstrict = true\n", "unknown table(s) settings; entries are [[quarantine]]"),
    ("[[quarantine]\n", "not valid TOML"),
    ("quarantine = [1]\n", "entry 1: not a table"),
])
def test_a_bad_file_is_refused_naming_the_entry(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "q.toml"
    path.write_text(text)
    with pytest.raises(QuarantineError) as error:
        load_quarantine(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)


def test_a_missing_file_is_a_quarantine_error(tmp_path: Path) -> None:
    with pytest.raises(QuarantineError, match=r"nope\.toml: No such file or directory$"):
        load_quarantine(tmp_path / "nope.toml")


# ----------------------------------------------------------------------------------------- one night --
def test_entries_match_case_and_board_patterns_case_sensitively() -> None:
    item = entry("kernels/conv_test.cc::Int8*", "blue*")
    assert item.matches("kernels/conv_test.cc::Int8Depthwise", "bluepill")
    assert not item.matches("kernels/conv_test.cc::Float", "bluepill")
    assert not item.matches("kernels/conv_test.cc::Int8Depthwise", "host")
    assert not item.matches("kernels/conv_test.cc::int8depthwise", "bluepill")


def test_an_entry_applies_up_to_and_including_its_expiry_night() -> None:
    item = entry(expires="2026-06-30")
    assert item.active_on("2026-06-30") and not item.active_on("2026-07-01")
    quarantine = Quarantine([item, entry("b.cc::*", expires="2026-07-31")], "2026-07-01")
    assert [e.case for e in quarantine.active] == ["b.cc::*"]
    assert [e.case for e in quarantine.expired] == ["a.cc::*"]
    assert quarantine.entry_for("a.cc::A", "host") is None  # expired: no longer protects
    found = quarantine.entry_for("b.cc::B", "host")
    assert found is not None and found.case == "b.cc::*"


def test_the_first_active_entry_that_matches_is_the_one() -> None:
    specific, general = entry("a.cc::A", "bluepill"), entry("a.cc::*")
    quarantine = Quarantine([specific, general], "2026-01-01")
    assert quarantine.entry_for("a.cc::A", "bluepill") is specific
    assert quarantine.entry_for("a.cc::A", "host") is general
    assert quarantine.entry_for("z.cc::Z", "host") is None


# ------------------------------------------------------------------------------------ history: fixed --
@pytest.fixture
def history(tmp_path: Path) -> Iterator[History]:
    with History(tmp_path / "farm.db") as opened:
        yield opened


def record(history: History, runs: list[tuple[str, str, str, str]]) -> None:
    """(night, case, board, outcome), each its own run, in order."""
    for number, (night, case, board, outcome) in enumerate(runs):
        run_id = f"r{number}"
        history.begin_run(RunInfo(run_id, night, 100.0 + number))
        history.add_results([CaseRecord(run_id, case, board, outcome)])


def test_night_verdicts_are_the_worst_outcome_of_each_night_oldest_first(history: History) -> None:
    record(history, [
        ("2026-01-02", "a.cc::A", "host", "passed"),
        ("2026-01-01", "a.cc::A", "host", "passed"),
        ("2026-01-01", "a.cc::A", "host", "failed"),
        ("2026-01-01", "a.cc::A", "host", "error"),
        ("2026-01-03", "a.cc::A", "host", "skipped"),
        ("2026-01-03", "a.cc::A", "host", "error"),
        ("2026-01-04", "a.cc::A", "host", "skipped"),
        ("2026-01-04", "a.cc::A", "host", "xpassed"),  # unknown outcomes rank between passed and error
        ("2026-01-04", "a.cc::A", "bluepill", "failed"),  # another board
    ])
    assert night_verdicts(history, "a.cc::A", "host") == [
        ("2026-01-01", "failed"), ("2026-01-02", "passed"), ("2026-01-03", "error"), ("2026-01-04", "xpassed")]


def test_a_quarantined_case_that_passed_the_last_n_nights_is_fixed(history: History) -> None:
    record(history, [
        ("2026-01-01", "a.cc::A", "host", "failed"),
        ("2026-01-02", "a.cc::A", "host", "passed"),
        ("2026-01-03", "a.cc::A", "host", "passed"),
        ("2026-01-03", "a.cc::A", "host", "passed"),
        ("2026-01-04", "a.cc::A", "host", "failed"),  # after the quarantine's night: does not count
        ("2026-01-02", "b.cc::B", "host", "passed"),
        ("2026-01-03", "b.cc::B", "host", "passed"),  # passes too, but is not quarantined
        ("2026-01-02", "c.cc::C", "host", "passed"),
        ("2026-01-03", "c.cc::C", "host", "failed"),
    ])
    quarantine = Quarantine([entry("a.cc::*"), entry("c.cc::*")], "2026-01-03")
    fixed = fixed_cases(history, quarantine, 2)
    assert [(f.case_id, f.board, f.nights, f.entry.case) for f in fixed] == [("a.cc::A", "host", 2, "a.cc::*")]
    assert fixed_cases(history, quarantine, 3) == []  # the night before failed
    assert fixed_cases(history, Quarantine(quarantine.entries, "2026-01-04"), 1) == []  # that night failed


def test_a_case_with_fewer_nights_than_asked_is_not_fixed_yet(history: History) -> None:
    record(history, [("2026-01-01", "a.cc::A", "host", "passed")])
    quarantine = Quarantine([entry()], "2026-01-01")
    assert fixed_cases(history, quarantine, 2) == []
    assert [f.case_id for f in fixed_cases(history, quarantine, 1)] == ["a.cc::A"]


def test_an_expired_entry_reports_nothing_fixed(history: History) -> None:
    record(history, [("2026-08-01", "a.cc::A", "host", "passed"), ("2026-08-02", "a.cc::A", "host", "passed")])
    assert fixed_cases(history, Quarantine([entry(expires="2026-06-30")], "2026-08-02"), 2) == []
