"""Footprint and timing gate: a figure that grew past its threshold against a baseline fails the run.

Figures (per board x binary, and per model for arena and instructions) come from the history's
``measures`` table: ``flash_bytes``, ``ram_bytes``, ``binary_duration_s``, ``arena_bytes``,
``instructions_per_invoke`` and ``case_instructions`` (per micro case under QEMU, the case as subject).
The baseline is a JSON file (``harness farm baseline`` writes one)
or ``last-good``: the latest earlier night on which every run exited 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.farm.history import History

Key = tuple[str, str, str, str]  # figure, board, binary, subject

UNITS = {"flash_bytes": "B", "ram_bytes": "B", "arena_bytes": "B", "instructions_per_invoke": "instr",
         "case_instructions": "instr", "case_cycles": "cycles", "case_stack_bytes": "B", "binary_duration_s": "s"}


@dataclass
class Threshold:
    percent: float  # growth beyond this share fails ...
    floor: float = 0.0  # ... when it is also more than this much (noise floor, in the figure's unit)


DEFAULT_THRESHOLDS: dict[str, Threshold] = {
    "flash_bytes": Threshold(1.0),
    "ram_bytes": Threshold(1.0),
    "arena_bytes": Threshold(1.0),
    "instructions_per_invoke": Threshold(2.0),
    # Per micro case under QEMU: exact and the same on every machine, so no noise to allow for; the floor only
    # keeps a few instructions more in a tiny case from failing a night.
    "case_instructions": Threshold(2.0, 100.0),
    # Estimated cycles per case: as deterministic as the instructions (the same model on the same trace)
    "case_cycles": Threshold(2.0, 200.0),
    # Stack peak per case: a frame more is a real change; the floor lets a few bytes of a new local pass
    "case_stack_bytes": Threshold(10.0, 64.0),
    "binary_duration_s": Threshold(50.0, 1.0),
}


class GateError(Exception):
    pass


def parse_threshold(spec: str, thresholds: dict[str, Threshold]) -> None:
    """``flash_bytes=0.5%`` (share) or ``binary_duration_s=+2`` (noise floor); updates ``thresholds``."""
    name, _, value = spec.partition("=")
    name, value = name.strip(), value.strip()
    if name not in DEFAULT_THRESHOLDS or not value:
        raise GateError(f"--gate-threshold {spec!r}: want FIGURE=PERCENT% or FIGURE=+ABSOLUTE with FIGURE one of "
                        + ", ".join(DEFAULT_THRESHOLDS))
    current = thresholds.setdefault(name, Threshold(DEFAULT_THRESHOLDS[name].percent, DEFAULT_THRESHOLDS[name].floor))
    try:
        if value.endswith("%"):
            current.percent = float(value[:-1])
        elif value.startswith("+"):
            current.floor = float(value[1:])
        else:
            raise ValueError(value)
    except ValueError as error:
        raise GateError(f"--gate-threshold {spec!r}: {value!r} is neither PERCENT% nor +ABSOLUTE") from error


@dataclass
class Baseline:
    source: str  # what it is, for messages: "baseline.json", "last good night 2026-01-02 (commit abc)"
    figures: dict[Key, float]
    night: str | None = None  # the night it was taken from, when it is one


def figures_of_runs(history: History, run_ids: list[str]) -> dict[Key, float]:
    """The figures of these runs; a key measured by several of them takes the latest run's value."""
    if not run_ids:
        return {}
    marks = ", ".join("?" * len(run_ids))
    rows = history.query(
        f"SELECT m.figure, m.board, m.binary, m.subject, m.value FROM measures m JOIN runs USING (run_id) "
        f"WHERE m.run_id IN ({marks}) ORDER BY runs.started_at", run_ids)
    return {(f, b, n, s): float(v) for f, b, n, s, v in rows}


def last_good_baseline(history: History, before_night: str) -> Baseline | None:
    rows = history.query(
        "SELECT night, MIN(COALESCE(exitstatus = 0, 0)) AS good, GROUP_CONCAT(run_id), MAX(commit_sha) "
        "FROM runs WHERE night < ? GROUP BY night ORDER BY night DESC", (before_night,))
    for night, good, run_ids, commit in rows:
        if good:
            commit_text = f", commit {commit[:10]}" if commit else ""
            return Baseline(f"last good night {night}{commit_text}", figures_of_runs(history, run_ids.split(",")),
                            night)
    return None


def load_baseline(path: Path) -> Baseline:
    try:
        data = json.loads(Path(path).read_text())
        figures = {(f["figure"], f["board"], f["binary"], f.get("subject", "")): float(f["value"])
                   for f in data["figures"]}
    except OSError as error:
        raise GateError(f"--gate {path}: {error.strerror}") from error
    except (ValueError, KeyError, TypeError) as error:
        raise GateError(f"--gate {path}: not a baseline file (harness farm baseline writes one): {error}") from error
    return Baseline(str(path), figures)


def baseline_json(source: str, figures: dict[Key, float]) -> dict[str, Any]:
    rows = [{"figure": f, "board": b, "binary": n, "subject": s, "value": v}
            for (f, b, n, s), v in sorted(figures.items())]
    return {"source": source, "figures": rows}


def _fmt(value: float, figure: str) -> str:
    if figure == "binary_duration_s":
        return f"{value:.3f} s"
    return f"{int(round(value)):,} {UNITS.get(figure, '')}".rstrip()


@dataclass
class Violation:
    figure: str
    board: str
    binary: str
    subject: str
    old: float
    new: float
    threshold: Threshold

    @property
    def growth(self) -> float:
        return self.new - self.old

    @property
    def percent(self) -> float:
        return self.growth / self.old * 100.0 if self.old else float("inf")

    def describe(self) -> str:
        what = f"{self.figure} of {self.binary}" + (f" ({self.subject})" if self.subject else "")
        sign = "+" if self.growth >= 0 else ""
        growth = f"{sign}{self.growth:.3f} s" if self.figure == "binary_duration_s" else f"{sign}{int(self.growth):,}"
        limit = f"{self.threshold.percent:g}%" + (f" and +{self.threshold.floor:g}" if self.threshold.floor else "")
        return (f"{what} on {self.board} grew {_fmt(self.old, self.figure)} -> {_fmt(self.new, self.figure)} "
                f"({growth}, {self.percent:+.1f}%; threshold {limit})")


def check(current: dict[Key, float], baseline: Baseline, thresholds: dict[str, Threshold] | None = None
          ) -> list[Violation]:
    """The figures of ``current`` that grew past their threshold against ``baseline``.

    A binary whose cases were counted tonight (``case_instructions``: it ran under QEMU) is not held to its
    wall-clock run time: on an emulator that time moves with the machine's load (a loaded night tripped the
    gate four times on nothing), while the instructions are exact and gated themselves. Wall time stays the
    gate of real boards, where nothing counts instructions.
    """
    limits = dict(DEFAULT_THRESHOLDS)
    limits.update(thresholds or {})
    counted = {(board, binary) for figure, board, binary, _ in current if figure == "case_instructions"}
    found = []
    for key, new in sorted(current.items()):
        old = baseline.figures.get(key)
        figure = key[0]
        if old is None or figure not in limits:
            continue
        if figure == "binary_duration_s" and (key[1], key[2]) in counted:
            continue
        limit = limits[figure]
        growth = new - old
        percent = growth / old * 100.0 if old else (float("inf") if growth > 0 else 0.0)
        if growth > limit.floor and percent > limit.percent:
            found.append(Violation(figure, key[1], key[2], key[3], old, new, limit))
    return found


def missing(current: dict[Key, float], baseline: Baseline, ran: set[tuple[str, str]]) -> list[Key]:
    """Baseline figures with no value tonight although their binary ran on that board tonight (``ran``: board,
    binary): a build that failed, a run that ended before its figures, a case that no longer ends. Said, so a
    figure cannot leave the gate unnoticed."""
    return sorted(key for key in baseline.figures if key not in current and (key[1], key[2]) in ran)
