"""Board health: the infrastructure-failure rate of each device, from the history.

One sample per binary x board x run on the device that ran it last (its ``binary-checks`` record,
which every binary has): an infrastructure failure when that record's failure class is ``infra``
(emulator or probe failure, no board could run it). And one infrastructure failure per failed attempt
of a retried run, on the device that failed it (the history's ``attempts``): the board that rescued
the run is not blamed for the one that lost it. A device whose rate over the window is
at least the threshold, with at least ``min_runs`` samples, is unhealthy; with a hardware map
the farm plugin takes it out (the map's quarantine, ``harness devices clear`` brings it back)
and says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from harness.farm.history import FailedAttempt, History

BINARY_SUFFIX = "::binary-checks"
DEFAULT_RATE = 0.25
DEFAULT_MIN_RUNS = 4


@dataclass
class DeviceHealth:
    device_id: str
    board: str
    hosts: str
    runs: int
    infra: int
    retries: int  # its failed attempts that another device then ran
    last_night: str
    last_error: str | None

    @property
    def rate(self) -> float:
        return self.infra / self.runs if self.runs else 0.0

    def unhealthy(self, rate: float = DEFAULT_RATE, min_runs: int = DEFAULT_MIN_RUNS) -> bool:
        return self.runs >= min_runs and self.rate >= rate

    def describe(self) -> str:
        return (f"{self.device_id} ({self.board}): {self.infra} of {self.runs} binary runs failed for infrastructure "
                f"reasons ({self.rate:.0%}) up to night {self.last_night}"
                + (f"; last: {self.last_error}" if self.last_error else ""))


def failed_attempts(run_id: str, board: str, binary: str, run: Any, host: str | None) -> list[FailedAttempt]:
    """The attempts of a retried run (``RunResult.attempts``) that failed before the last one, each on its own
    device, for the history's ``attempts`` table."""
    attempts = list(getattr(run, "attempts", None) or [])
    return [FailedAttempt(run_id, board, binary, index, attempt.device, host,
                          attempt.infra_error or attempt.failure_class, attempt.released_at or time.time())
            for index, attempt in enumerate(attempts[:-1], 1)]


# One sample per binary x board x run on the device that finally ran it (its binary-checks record: infra when
# that run failed for infrastructure reasons), plus one infra sample per failed attempt on the device that
# failed it (a retried run is the failed board's fault, not the rescuer's).
_SAMPLES = """
    SELECT r.device_id AS device_id, r.board AS board, r.host AS host, (r.failure_class = 'infra') AS infra,
           0 AS retried, r.message AS error, runs.night AS night, runs.started_at AS at
    FROM results r JOIN runs USING (run_id)
    WHERE r.case_id LIKE ? AND r.device_id IS NOT NULL
    UNION ALL
    SELECT a.device_id, a.board, a.host, 1, 1, a.error, runs.night, a.at
    FROM attempts a JOIN runs USING (run_id)
"""


def device_health(history: History, since_night: str | None = None) -> list[DeviceHealth]:
    window = " WHERE night >= ?" if since_night is not None else ""
    params: list[str] = ["%" + BINARY_SUFFIX, *([since_night] if since_night is not None else [])]
    sql = (f"SELECT device_id, board, GROUP_CONCAT(DISTINCT host), COUNT(*), SUM(infra), SUM(retried), MAX(night) "
           f"FROM ({_SAMPLES}){window} GROUP BY device_id, board ORDER BY device_id")
    found = []
    for device_id, board, hosts, runs, infra, retries, night in history.query(sql, params):
        # The latest infrastructure error of this device on this board, inside the same window.
        last_sql = (f"SELECT error FROM ({_SAMPLES}) WHERE device_id = ? AND board = ? AND infra"
                    + (" AND night >= ?" if since_night is not None else "") + " ORDER BY night DESC, at DESC LIMIT 1")
        last_params = ["%" + BINARY_SUFFIX, device_id, board, *([since_night] if since_night is not None else [])]
        last = history.query(last_sql, last_params)
        found.append(DeviceHealth(device_id, board, hosts or "", int(runs), int(infra or 0), int(retries or 0),
                                  night, last[0][0] if last else None))
    return found
