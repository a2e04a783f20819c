"""The footprint and timing gate: thresholds, baselines (file and last good night), and what counts as grown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.farm import gate
from harness.farm.gate import Baseline, GateError, Threshold, Violation
from harness.farm.history import History, Measure, RunInfo


@pytest.fixture
def history(tmp_path: Path) -> Iterator[History]:
    with History(tmp_path / "farm.db") as opened:
        yield opened


def night(history: History, run_id: str, date: str, started_at: float, exitstatus: int | None,
          figures: dict[tuple[str, str, str, str], float], commit: str | None = None) -> None:
    """One recorded run of ``date`` with its figures (figure, board, binary, subject) -> value."""
    history.begin_run(RunInfo(run_id, date, started_at, commit_sha=commit))
    history.add_measures(Measure(run_id, board, binary, figure, value, subject)
                         for (figure, board, binary, subject), value in figures.items())
    if exitstatus is not None:
        history.finish_run(run_id, exitstatus, started_at + 10)


FLASH = ("flash_bytes", "bluepill", "conv_test", "")
ARENA = ("arena_bytes", "host", "model_test", "kws")
DURATION = ("binary_duration_s", "host", "conv_test", "")


# ------------------------------------------------------------------------------------------- thresholds --
def test_parse_threshold_sets_the_share_or_the_floor_and_leaves_the_defaults_alone() -> None:
    thresholds: dict[str, Threshold] = {}
    gate.parse_threshold("flash_bytes=0.5%", thresholds)
    gate.parse_threshold(" binary_duration_s = +2 ", thresholds)
    gate.parse_threshold("binary_duration_s=10%", thresholds)
    assert thresholds == {"flash_bytes": Threshold(0.5, 0.0), "binary_duration_s": Threshold(10.0, 2.0)}
    assert gate.DEFAULT_THRESHOLDS["flash_bytes"] == Threshold(1.0)
    assert gate.DEFAULT_THRESHOLDS["binary_duration_s"] == Threshold(50.0, 1.0)


@pytest.mark.parametrize(("spec", "message"), [
    ("stack_bytes=1%", "want FIGURE=PERCENT% or FIGURE=+ABSOLUTE with FIGURE one of flash_bytes, ram_bytes, "
                       "arena_bytes, instructions_per_invoke, case_instructions, case_cycles, case_stack_bytes, "
                       "binary_duration_s"),
    ("flash_bytes=", "want FIGURE=PERCENT%"),
    ("flash_bytes", "want FIGURE=PERCENT%"),
    ("flash_bytes=2", "'2' is neither PERCENT% nor +ABSOLUTE"),
    ("flash_bytes=lots%", "'lots%' is neither PERCENT% nor +ABSOLUTE"),
])
def test_parse_threshold_refuses_what_it_cannot_read(spec: str, message: str) -> None:
    with pytest.raises(GateError) as error:
        gate.parse_threshold(spec, {})
    assert str(error.value).startswith(f"--gate-threshold {spec!r}: ")
    assert message in str(error.value)


# ------------------------------------------------------------------------------------------------ check --
def test_a_figure_fails_only_when_it_grew_past_both_the_share_and_the_floor() -> None:
    baseline = Baseline("b.json", {FLASH: 10_000, ARENA: 1000, DURATION: 2.0, ("ram_bytes", "x", "y", ""): 500})
    current = {
        FLASH: 10_101,  # +1.01% > 1%
        ARENA: 1010,  # +1.0%: not past 1%
        DURATION: 2.9,  # +45%, +0.9 s: under both
        ("ram_bytes", "x", "y", ""): 400,  # shrank
        ("flash_bytes", "bluepill", "new_test", ""): 99_999,  # not in the baseline
    }
    assert [(v.figure, v.binary, v.old, v.new) for v in gate.check(current, baseline)] == [
        ("flash_bytes", "conv_test", 10_000, 10_101)]


def test_the_duration_needs_the_noise_floor_too() -> None:
    baseline = Baseline("b.json", {DURATION: 1.0})
    assert gate.check({DURATION: 1.9}, baseline) == []  # +90%, but only +0.9 s
    found = gate.check({DURATION: 2.1}, baseline)
    assert [(v.old, v.new, v.threshold) for v in found] == [(1.0, 2.1, Threshold(50.0, 1.0))]


def test_a_binary_counted_under_qemu_is_gated_on_its_instructions_not_its_wall_time() -> None:
    """On an emulator the wall time moves with the machine's load; the counted instructions do not. A binary
    with case_instructions tonight is held to those; a real board's binary (no counts) to its wall time."""
    counted = ("case_instructions", "bluepill", "conv_test", "Int8Conv")
    slow = ("binary_duration_s", "bluepill", "conv_test", "")
    real = ("binary_duration_s", "bluepill-hw", "conv_test", "")
    baseline = Baseline("b.json", {counted: 100_000, slow: 0.5, real: 0.5})
    loaded_night = {counted: 100_000, slow: 3.4, real: 3.4}  # the load made both runs slower
    assert [(v.figure, v.board) for v in gate.check(loaded_night, baseline)] == [("binary_duration_s", "bluepill-hw")]
    slower_code = {counted: 103_000, slow: 0.5, real: 0.5}
    found = gate.check(slower_code, baseline)
    assert [(v.figure, v.subject, v.old, v.new) for v in found] == [
        ("case_instructions", "Int8Conv", 100_000, 103_000)]
    assert "case_instructions of conv_test (Int8Conv) on bluepill grew 100,000 instr -> 103,000 instr" in \
        found[0].describe()
    tiny = ("case_instructions", "bluepill", "conv_test", "Empty")
    assert gate.check({tiny: 60}, Baseline("b.json", {tiny: 10})) == []  # +500 %, but under the +100 floor


def test_estimated_cycles_and_stack_per_case_are_gated() -> None:
    """A change that keeps the instructions but costs cycles (a flash table where SRAM was, a worse schedule)
    and one that deepens the stack by a frame fail the night; a few bytes of a new local do not."""
    cycles = ("case_cycles", "netduinoplus2", "conv_test", "Int8Conv")
    stack = ("case_stack_bytes", "netduinoplus2", "conv_test", "Int8Conv")
    baseline = Baseline("b.json", {cycles: 150_000, stack: 1_024})
    found = gate.check({cycles: 156_000, stack: 1_400}, baseline)
    assert [(v.figure, v.old, v.new) for v in found] == [("case_cycles", 150_000, 156_000),
                                                         ("case_stack_bytes", 1_024, 1_400)]
    assert "grew 150,000 cycles -> 156,000 cycles" in found[0].describe()
    assert gate.check({cycles: 150_100, stack: 1_060}, baseline) == []  # under the floors


def test_thresholds_given_replace_the_defaults_per_figure() -> None:
    baseline = Baseline("b.json", {FLASH: 10_000, ARENA: 1000})
    current: dict[gate.Key, float] = {FLASH: 10_300, ARENA: 1500}
    found = gate.check(current, baseline, {"arena_bytes": Threshold(60.0)})
    assert [v.figure for v in found] == ["flash_bytes"]
    assert [v.figure for v in gate.check(current, baseline)] == ["arena_bytes", "flash_bytes"]  # sorted keys


def test_growth_from_zero_fails_and_zero_stays_zero() -> None:
    baseline = Baseline("b.json", {FLASH: 0.0})
    assert gate.check({FLASH: 0.0}, baseline) == []
    (violation,) = gate.check({FLASH: 8.0}, baseline)
    assert violation.percent == float("inf")


def test_a_violation_describes_figure_subject_board_change_and_threshold() -> None:
    flash = Violation("flash_bytes", "bluepill", "conv_test", "", 10_000, 10_200, Threshold(1.0))
    assert flash.describe() == ("flash_bytes of conv_test on bluepill grew 10,000 B -> 10,200 B (+200, +2.0%; "
                                "threshold 1%)")
    arena = Violation("arena_bytes", "host", "model_test", "kws", 1000, 1500, Threshold(1.0))
    assert arena.describe() == ("arena_bytes of model_test (kws) on host grew 1,000 B -> 1,500 B (+500, +50.0%; "
                                "threshold 1%)")
    duration = Violation("binary_duration_s", "host", "conv_test", "", 2.0, 3.5, Threshold(50.0, 1.0))
    assert duration.describe() == ("binary_duration_s of conv_test on host grew 2.000 s -> 3.500 s (+1.500 s, "
                                   "+75.0%; threshold 50% and +1)")
    instructions = Violation("instructions_per_invoke", "host", "m", "kws", 200, 210, Threshold(2.0))
    assert instructions.describe().endswith("grew 200 instr -> 210 instr (+10, +5.0%; threshold 2%)")


# -------------------------------------------------------------------------------------------- baselines --
def test_figures_of_runs_take_the_latest_runs_value(history: History) -> None:
    night(history, "late", "2026-01-01", 200.0, 0, {FLASH: 300})
    night(history, "early", "2026-01-01", 100.0, 0, {FLASH: 100, ARENA: 7})
    night(history, "other", "2026-01-01", 300.0, 0, {FLASH: 999})
    assert gate.figures_of_runs(history, ["early", "late"]) == {FLASH: 300.0, ARENA: 7.0}
    assert gate.figures_of_runs(history, []) == {}


def test_the_last_good_night_is_the_latest_earlier_night_where_every_run_exited_0(history: History) -> None:
    night(history, "n1", "2026-01-01", 100.0, 0, {FLASH: 1000}, commit="aaaaaaaaaaaaaaaa")
    night(history, "n2a", "2026-01-02", 200.0, 0, {FLASH: 2000}, commit="bbbbbbbbbbbbbbbb")
    night(history, "n2b", "2026-01-02", 210.0, 0, {ARENA: 20}, commit="bbbbbbbbbbbbbbbb")
    night(history, "n3a", "2026-01-03", 300.0, 0, {FLASH: 3000})
    night(history, "n3b", "2026-01-03", 310.0, 1, {FLASH: 3100})  # one failed run spoils the night
    night(history, "n4", "2026-01-04", 400.0, None, {FLASH: 4000})  # never finished: not good either
    night(history, "n5", "2026-01-05", 500.0, 0, {FLASH: 5000})  # the night being gated
    baseline = gate.last_good_baseline(history, "2026-01-05")
    assert baseline is not None
    assert baseline.source == "last good night 2026-01-02, commit bbbbbbbbbb"
    assert baseline.figures == {FLASH: 2000.0, ARENA: 20.0}
    first = gate.last_good_baseline(history, "2026-01-02")
    assert first is not None and first.source == "last good night 2026-01-01, commit aaaaaaaaaa"
    assert gate.last_good_baseline(history, "2026-01-01") is None


def test_a_good_night_without_a_commit_says_so_without_one(history: History) -> None:
    night(history, "n1", "2026-01-01", 100.0, 0, {FLASH: 1000})
    baseline = gate.last_good_baseline(history, "2026-02-01")
    assert baseline is not None and baseline.source == "last good night 2026-01-01"


def test_a_baseline_file_round_trips(tmp_path: Path) -> None:
    figures = {FLASH: 1000.0, ARENA: 20.0}
    data = gate.baseline_json("night 2026-01-01", figures)
    assert data["source"] == "night 2026-01-01"
    assert data["figures"][0] == {"figure": "arena_bytes", "board": "host", "binary": "model_test", "subject": "kws",
                                  "value": 20.0}
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data))
    loaded = gate.load_baseline(path)
    assert (loaded.source, loaded.figures) == (str(path), figures)
    path.write_text(json.dumps({"figures": [{"figure": "flash_bytes", "board": "b", "binary": "n", "value": 5}]}))
    assert gate.load_baseline(path).figures == {("flash_bytes", "b", "n", ""): 5.0}  # subject defaults to ""


def test_a_missing_or_foreign_baseline_file_is_a_gate_error(tmp_path: Path) -> None:
    with pytest.raises(GateError, match=r"^--gate .*missing\.json: No such file or directory$"):
        gate.load_baseline(tmp_path / "missing.json")
    path = tmp_path / "other.json"
    for text in ("not json", '{"results": []}', '{"figures": [{"figure": "flash_bytes"}]}'):
        path.write_text(text)
        with pytest.raises(GateError, match="not a baseline file \\(harness farm baseline writes one\\)"):
            gate.load_baseline(path)


def test_baseline_figures_missing_tonight_are_named_for_binaries_that_ran() -> None:
    counted = ("case_instructions", "bluepill", "conv_test", "Int8Conv")
    baseline = Baseline("b.json", {FLASH: 10_000, counted: 5_000, ("flash_bytes", "bluepill", "gone_test", ""): 1.0})
    tonight: dict[gate.Key, float] = {FLASH: 10_000}  # conv_test ran, but its case did not end tonight
    assert gate.missing(tonight, baseline, {("bluepill", "conv_test")}) == [counted]
    assert gate.missing(tonight, baseline, set()) == []  # nothing of it ran tonight (deselected): not missing
