"""Flaky cases from the history: the outcome changed on the same binary hash and board type.

Only verdicts about the test count (passed, failed, and errors of class ``test`` such as "not
reached"); skips, infrastructure errors and runs that never finished say nothing about the test. Runs are taken in the
order they started. The flip rate of a case on a board is the share of consecutive runs (of one
binary hash) whose verdicts differ: 0 for a stable case, 1 for one that alternates every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.farm.history import History, where_clause

# Worst first: the verdict of a case on a board for a night with several runs.
SEVERITY = {"failed": 4, "error": 3, "passed": 1, "skipped": 0}


@dataclass
class FlakyCase:
    case_id: str
    board: str
    runs: int = 0  # verdicts counted (over all hashes)
    failures: int = 0
    flips: int = 0
    transitions: int = 0  # consecutive pairs of runs with the same hash
    last_outcomes: list[str] = field(default_factory=list)  # oldest first, the last 20
    last_night: str = ""

    @property
    def flip_rate(self) -> float:
        return self.flips / self.transitions if self.transitions else 0.0


def verdict(outcome: str, failure_class: str | None) -> str | None:
    """passed / failed (errors of the test count as failed) or None when the run says nothing."""
    if outcome == "passed":
        return "passed"
    if outcome == "failed" or (outcome == "error" and failure_class != "infra"):
        return "failed"
    return None


def flaky_cases(history: History, since_night: str | None = None, board: str | None = None) -> list[FlakyCase]:
    """Flaky cases, highest flip rate first."""
    # A run that never finished (killed: no exit status) counts nothing: what it recorded while it was being
    # torn down (boards stopped under running binaries) is no verdict about the tests.
    where, params = where_clause([("runs.night >= ?", since_night), ("r.board = ?", board)])
    where = f"{where} AND runs.exitstatus IS NOT NULL" if where else " WHERE runs.exitstatus IS NOT NULL"
    sql = ("SELECT r.case_id, r.board, r.binary_hash, r.outcome, r.failure_class, runs.night "
           f"FROM results r JOIN runs USING (run_id){where} ORDER BY runs.started_at")
    # (case, board) -> hash -> verdicts in run order; and every verdict in run order, whatever its hash
    series: dict[tuple[str, str], dict[str, list[str]]] = {}
    in_order: dict[tuple[str, str], list[str]] = {}
    nights: dict[tuple[str, str], str] = {}
    for case_id, board_name, binary_hash, outcome, failure_class, night in history.conn.execute(sql, params):
        v = verdict(outcome, failure_class)
        if v is None:
            continue
        key = (case_id, board_name)
        series.setdefault(key, {}).setdefault(binary_hash or "", []).append(v)
        in_order.setdefault(key, []).append(v)
        nights[key] = night
    found: list[FlakyCase] = []
    for (case_id, board_name), by_hash in series.items():
        if not any(len(set(verdicts)) > 1 for verdicts in by_hash.values()):
            continue
        case = FlakyCase(case_id, board_name, last_night=nights[(case_id, board_name)])
        for verdicts in by_hash.values():
            case.runs += len(verdicts)
            case.failures += verdicts.count("failed")
            case.transitions += len(verdicts) - 1
            case.flips += sum(1 for a, b in zip(verdicts, verdicts[1:], strict=False) if a != b)
        case.last_outcomes = in_order[(case_id, board_name)][-20:]  # oldest first, across hashes (two hosts)
        found.append(case)
    found.sort(key=lambda c: (-c.flip_rate, -c.flips, c.case_id, c.board))
    return found


def format_flaky(cases: list[FlakyCase]) -> str:
    if not cases:
        return "no flaky cases (no case changed its outcome on the same binary hash and board)"
    rows = [("FLIP RATE", "FLIPS", "FAILS/RUNS", "BOARD", "CASE", "LAST NIGHT")]
    for case in cases:
        rows.append((f"{case.flip_rate:.0%}", str(case.flips), f"{case.failures}/{case.runs}", case.board,
                     case.case_id, case.last_night))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)
