"""Quarantine file: cases that keep running and being reported but do not fail the run.

    [[quarantine]]
    case = "micro_runtime/kernels/conv_test.cc::Int8*"   # fnmatch pattern over path::Case
    board = "bluepill"                                  # fnmatch pattern, default "*"
    reason = "flips on bluepill since the DMA change"   # required
    link = "https://github.com/org/repo/issues/123"     # required
    expires = 2026-12-31                                # required; the last night it applies

Nothing is quarantined silently: every entry needs a reason, a link and an expiry; each
quarantined item that ran is named in the terminal summary and the report; an expired entry
stops applying and says so; a quarantined case that passed ``fixed_after`` nights in a row is
reported as fixed.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.farm.flaky import SEVERITY
from harness.farm.history import History


class QuarantineError(Exception):
    pass


@dataclass
class Entry:
    case: str
    board: str
    reason: str
    link: str
    expires: dt.date
    line: int = 0  # position in the file (1-based entry number)

    def matches(self, case_id: str, board: str) -> bool:
        return fnmatch.fnmatchcase(case_id, self.case) and fnmatch.fnmatchcase(board, self.board)

    def active_on(self, night: str) -> bool:
        return dt.date.fromisoformat(night) <= self.expires

    def describe(self) -> str:
        return f"{self.case} [{self.board}]: {self.reason} ({self.link}; expires {self.expires})"


def load_quarantine(path: Path) -> list[Entry]:
    try:
        data = tomllib.loads(Path(path).read_text())
    except OSError as error:
        raise QuarantineError(f"{path}: {error.strerror}") from error
    except tomllib.TOMLDecodeError as error:
        raise QuarantineError(f"{path}: not valid TOML: {error}") from error
    unknown = set(data) - {"quarantine"}
    if unknown:
        raise QuarantineError(f"{path}: unknown table(s) {', '.join(sorted(unknown))}; entries are [[quarantine]]")
    entries = []
    for number, raw in enumerate(data.get("quarantine", []), start=1):
        where = f"{path}: entry {number}"
        if not isinstance(raw, dict):
            raise QuarantineError(f"{where}: not a table")
        missing = [key for key in ("case", "reason", "link", "expires") if not raw.get(key)]
        if missing:
            raise QuarantineError(f"{where}: missing {', '.join(missing)} (nothing is quarantined without a case "
                                  "pattern, a reason, a link and an expiry date)")
        extra = set(raw) - {"case", "board", "reason", "link", "expires"}
        if extra:
            raise QuarantineError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
        expires = raw["expires"]
        if isinstance(expires, str):
            try:
                expires = dt.date.fromisoformat(expires)
            except ValueError as error:
                raise QuarantineError(f"{where}: expires = {expires!r} is not a date (YYYY-MM-DD)") from error
        if isinstance(expires, dt.datetime):
            expires = expires.date()
        if not isinstance(expires, dt.date):
            raise QuarantineError(f"{where}: expires must be a date (YYYY-MM-DD)")
        entries.append(Entry(case=str(raw["case"]), board=str(raw.get("board", "*")), reason=str(raw["reason"]),
                             link=str(raw["link"]), expires=expires, line=number))
    return entries


class Quarantine:
    """The entries of one file as they apply on one night."""

    def __init__(self, entries: list[Entry], night: str) -> None:
        self.entries = entries
        self.night = night
        self.active = [e for e in entries if e.active_on(night)]
        self.expired = [e for e in entries if not e.active_on(night)]

    def entry_for(self, case_id: str, board: str) -> Entry | None:
        return next((e for e in self.active if e.matches(case_id, board)), None)


def night_verdicts(history: History, case_id: str, board: str) -> list[tuple[str, str]]:
    """(night, worst outcome that night) of one case on one board, oldest first."""
    rows = history.query("SELECT runs.night, r.outcome FROM results r JOIN runs USING (run_id) "
                         "WHERE r.case_id = ? AND r.board = ? ORDER BY runs.night", (case_id, board))
    by_night: dict[str, str] = {}
    for night, outcome in rows:
        if night not in by_night or SEVERITY.get(outcome, 2) > SEVERITY.get(by_night[night], 2):
            by_night[night] = outcome
    return list(by_night.items())


@dataclass
class Fixed:
    case_id: str
    board: str
    entry: Entry
    nights: int


def fixed_cases(history: History, quarantine: Quarantine, fixed_after: int) -> list[Fixed]:
    """Quarantined cases whose last ``fixed_after`` nights (up to the quarantine's night) all passed."""
    found = []
    pairs = history.query("SELECT DISTINCT case_id, board FROM results")
    for case_id, board in pairs:
        entry = quarantine.entry_for(case_id, board)
        if entry is None:
            continue
        verdicts = [o for night, o in night_verdicts(history, case_id, board) if night <= quarantine.night]
        tail = verdicts[-fixed_after:]
        if len(tail) == fixed_after and all(o == "passed" for o in tail):
            found.append(Fixed(case_id, board, entry, fixed_after))
    return found
