"""Board health: the infrastructure-failure rate of each device, from the history.

One sample per binary x board x run (its ``binary-checks`` record, which every binary has): an
infrastructure failure when that record's failure class is ``infra`` (emulator or probe failure,
no board could run it) or the run needed infra retries. A device whose rate over the window is
at least the threshold, with at least ``min_runs`` samples, is unhealthy; with a hardware map
the farm plugin takes it out (the map's quarantine, ``harness devices clear`` brings it back)
and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.farm.history import History

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
    retries: int
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


def device_health(history: History, since_night: str | None = None) -> list[DeviceHealth]:
    sql = ("SELECT r.device_id, r.board, GROUP_CONCAT(DISTINCT r.host), COUNT(*), "
           "SUM(r.failure_class = 'infra' OR r.infra_retries > 0), SUM(r.infra_retries), MAX(runs.night) "
           "FROM results r JOIN runs USING (run_id) WHERE r.case_id LIKE ? AND r.device_id IS NOT NULL")
    params: list[str] = ["%" + BINARY_SUFFIX]
    if since_night is not None:
        sql += " AND runs.night >= ?"
        params.append(since_night)
    sql += " GROUP BY r.device_id, r.board ORDER BY r.device_id"
    found = []
    for device_id, board, hosts, runs, infra, retries, night in history.query(sql, params):
        # The latest infrastructure error of this device on this board, inside the same window.
        last_sql = ("SELECT r.message FROM results r JOIN runs USING (run_id) WHERE r.device_id = ? AND r.board = ? "
                    "AND r.case_id LIKE ? AND r.failure_class = 'infra'")
        last_params: list[str] = [device_id, board, "%" + BINARY_SUFFIX]
        if since_night is not None:
            last_sql += " AND runs.night >= ?"
            last_params.append(since_night)
        last = history.query(last_sql + " ORDER BY runs.started_at DESC LIMIT 1", last_params)
        found.append(DeviceHealth(device_id, board, hosts or "", int(runs), int(infra or 0), int(retries or 0),
                                  night, last[0][0] if last else None))
    return found
