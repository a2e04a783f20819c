"""Results history: one SQLite file, one record per case x board x run.

The schema is versioned (``PRAGMA user_version``) and migrated forward on open, under an
exclusive transaction, so the first of several processes opening an old file migrates it and
the others wait and find it done. Writers (xdist workers, several runs at once, several hosts on
a shared disk) use WAL and ``BEGIN IMMEDIATE`` with a long busy timeout: a writer that finds the
file locked waits its turn instead of losing its records.

Tables (``docs/farm.md`` has the column list):

* ``runs``: one per pytest run: run id, night, commit, host, label, start/end, exit status.
* ``results``: one per case x board x run (primary key run_id, case_id, board): binary and its
  hash, outcome, failure class, durations, flash/RAM, device id, host, infra retries, quarantine.
* ``measures``: per binary x board x run figures: ``flash_bytes``, ``ram_bytes``,
  ``binary_duration_s``, ``arena_bytes`` and ``instructions_per_invoke`` per model (subject).
* ``notes``: what a run decided that is not a result (gate violations, quarantine applied,
  expired or fixed, devices taken out), so nothing is decided silently.
* ``attempts``: each failed attempt of a retried binary, on the device that failed it (schema 3), so board
  health blames the board that failed, not the one that rescued the run.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 3

# Each entry takes the file from version i to i+1. Never edit one that shipped: append.
MIGRATIONS: list[Sequence[str]] = [
    (  # 0 -> 1
        """CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            night TEXT NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL,
            commit_sha TEXT,
            host TEXT,
            label TEXT,
            exitstatus INTEGER
        )""",
        """CREATE TABLE results (
            run_id TEXT NOT NULL,
            case_id TEXT NOT NULL,
            board TEXT NOT NULL,
            binary TEXT,
            backend TEXT,
            binary_hash TEXT,
            outcome TEXT NOT NULL,
            failure_class TEXT,
            duration_s REAL,
            binary_duration_s REAL,
            flash_bytes INTEGER,
            ram_bytes INTEGER,
            device_id TEXT,
            host TEXT,
            infra_retries INTEGER NOT NULL DEFAULT 0,
            quarantined INTEGER NOT NULL DEFAULT 0,
            message TEXT,
            PRIMARY KEY (run_id, case_id, board)
        )""",
        """CREATE TABLE notes (
            run_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            text TEXT NOT NULL,
            at REAL NOT NULL
        )""",
    ),
    (  # 1 -> 2: per-binary figures (arena and instructions per model), worker id, indexes
        """CREATE TABLE measures (
            run_id TEXT NOT NULL,
            board TEXT NOT NULL,
            binary TEXT NOT NULL,
            binary_hash TEXT,
            figure TEXT NOT NULL,
            subject TEXT NOT NULL DEFAULT '',
            value REAL NOT NULL,
            PRIMARY KEY (run_id, board, binary, figure, subject)
        )""",
        "ALTER TABLE results ADD COLUMN worker TEXT",
        "ALTER TABLE results ADD COLUMN recorded_at REAL",
        "CREATE INDEX results_case ON results (case_id, board)",
        "CREATE INDEX runs_night ON runs (night, started_at)",
        "CREATE INDEX notes_run ON notes (run_id)",
    ),
    (  # 2 -> 3: the failed attempts of retried runs, each on the device that failed it (board health's blame)
        """CREATE TABLE attempts (
            run_id TEXT NOT NULL,
            board TEXT NOT NULL,
            binary TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            device_id TEXT NOT NULL,
            host TEXT,
            error TEXT,
            at REAL NOT NULL,
            PRIMARY KEY (run_id, board, binary, attempt)
        )""",
        "CREATE INDEX attempts_device ON attempts (device_id, board)",
    ),
]
assert len(MIGRATIONS) == SCHEMA_VERSION


class HistoryError(Exception):
    pass


@dataclass
class RunInfo:
    run_id: str
    night: str  # YYYY-MM-DD
    started_at: float
    commit_sha: str | None = None
    host: str | None = None
    label: str | None = None
    finished_at: float | None = None
    exitstatus: int | None = None


@dataclass
class CaseRecord:
    run_id: str
    case_id: str  # the node id without its [board] suffix: path::Case
    board: str
    outcome: str  # passed | failed | error | skipped
    binary: str | None = None
    backend: str | None = None
    binary_hash: str | None = None
    failure_class: str | None = None  # test | infra | None
    duration_s: float | None = None
    binary_duration_s: float | None = None
    flash_bytes: int | None = None
    ram_bytes: int | None = None
    device_id: str | None = None
    host: str | None = None
    infra_retries: int = 0
    quarantined: int = 0
    message: str | None = None
    worker: str | None = None
    recorded_at: float | None = None


@dataclass
class Measure:
    run_id: str
    board: str
    binary: str
    # flash_bytes | ram_bytes | binary_duration_s | arena_bytes | instructions_per_invoke | case_instructions |
    # case_cycles | case_stack_bytes
    figure: str
    value: float
    subject: str = ""  # the model (arena_bytes, instructions_per_invoke) or the case (case_* figures)
    binary_hash: str | None = None


@dataclass
class FailedAttempt:
    """One attempt of a binary that failed for infrastructure reasons before another device ran it (or all failed)."""

    run_id: str
    board: str
    binary: str
    attempt: int  # 1 = the first try
    device_id: str
    host: str | None = None
    error: str | None = None
    at: float = 0.0


_RESULT_COLUMNS = [f.name for f in fields(CaseRecord)]
_ATTEMPT_COLUMNS = [f.name for f in fields(FailedAttempt)]
_MEASURE_COLUMNS = [f.name for f in fields(Measure)]
_RUN_COLUMNS = [f.name for f in fields(RunInfo)]


def where_clause(conditions: Sequence[tuple[str, Any]]) -> tuple[str, list[Any]]:
    """`` WHERE a AND b`` of the conditions whose value is not None, and their values."""
    used = [(sql, value) for sql, value in conditions if value is not None]
    if not used:
        return "", []
    return " WHERE " + " AND ".join(sql for sql, _ in used), [value for _, value in used]


def _connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=120.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 120000")
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> int:
    """Brings the file to version ``upto`` (each step in its own exclusive transaction); returns it."""
    while True:
        if schema_version(conn) >= upto:  # cheap check without a write lock
            break
        conn.execute("BEGIN EXCLUSIVE")
        try:
            version = schema_version(conn)  # again, under the lock: another process may have done it
            if version >= upto:
                conn.execute("COMMIT")
                break
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise HistoryError(f"history file has schema version {version}, newer than this harness ({SCHEMA_VERSION}); "
                           "update the harness")
    return version


class History:
    """The history store. Safe to open from many processes at once."""

    def __init__(self, path: Path | str, *, upto: int = SCHEMA_VERSION) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = _connect(path)
            if str(path) != ":memory:":
                # WAL: readers never block the writer; the mode is stored in the file once set.
                self._retry(lambda: self.conn.execute("PRAGMA journal_mode = WAL").fetchone())
            self.conn.execute("PRAGMA synchronous = NORMAL")
            if str(path) != ":memory:" and self.path.stat().st_size > 0:
                self._check_intact()  # before anything is written: a damaged file stays as it was
            self.version = self._retry(lambda: migrate(self.conn, upto))
        except HistoryError as error:
            self.conn.close()
            raise HistoryError(str(error) if str(path) in str(error) else f"{path}: {error}") from error
        except sqlite3.DatabaseError as error:
            self.conn.close()
            raise HistoryError(f"{path}: not a usable history file: {error}; nothing was written to it. Move it "
                               "aside (keep it for the record) and start a new history, or restore a backup") from error

    def _check_intact(self) -> None:
        """SQLite's own check of every page (quick_check): pages damaged behind a valid header are found
        here, at open, instead of as a failed query in the middle of a night after rows were added."""
        problems = [str(row[0]) for row in self._retry(lambda: self.conn.execute("PRAGMA quick_check(5)").fetchall())]
        if problems != ["ok"]:
            raise HistoryError(f"the history file is damaged ({'; '.join(problems)[:300]}); nothing was written to "
                               "it. Move it aside (keep it for the record) and start a new history, or restore a "
                               "backup")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------------------
    @staticmethod
    def _retry(action: Any, attempts: int = 20) -> Any:
        """SQLite's busy handler covers most waits; a lock upgrade deadlock still says 'locked' at once."""
        for attempt in range(attempts):
            try:
                return action()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error) or attempt == attempts - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
        return None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self._retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self._retry(lambda: self.conn.execute("COMMIT"))

    def begin_run(self, run: RunInfo) -> None:
        values = asdict(run)
        with self._write() as conn:
            conn.execute(f"INSERT OR IGNORE INTO runs ({', '.join(_RUN_COLUMNS)}) "
                         f"VALUES ({', '.join('?' * len(_RUN_COLUMNS))})", [values[c] for c in _RUN_COLUMNS])

    def finish_run(self, run_id: str, exitstatus: int, finished_at: float | None = None) -> None:
        with self._write() as conn:
            conn.execute("UPDATE runs SET finished_at = ?, exitstatus = ? WHERE run_id = ?",
                         (finished_at or time.time(), int(exitstatus), run_id))

    def add_results(self, records: Iterable[CaseRecord]) -> int:
        rows = []
        for record in records:
            values = asdict(record)
            values["recorded_at"] = values["recorded_at"] or time.time()
            rows.append([values[c] for c in _RESULT_COLUMNS])
        return self._insert("results", _RESULT_COLUMNS, rows)

    def add_measures(self, measures: Iterable[Measure]) -> int:
        return self._insert("measures", _MEASURE_COLUMNS, [[asdict(m)[c] for c in _MEASURE_COLUMNS] for m in measures])

    def add_failed_attempts(self, attempts: Iterable[FailedAttempt]) -> int:
        """Attempts of a retried binary that failed for infrastructure reasons, each on its own device."""
        return self._insert("attempts", _ATTEMPT_COLUMNS, [[asdict(a)[c] for c in _ATTEMPT_COLUMNS] for a in attempts])

    def _insert(self, table: str, columns: list[str], rows: list[list[Any]]) -> int:
        """Writes ``rows`` (a row replaces one of the same key) in one transaction; how many."""
        if not rows:
            return 0
        with self._write() as conn:
            conn.executemany(f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                             f"VALUES ({', '.join('?' * len(columns))})", rows)
        return len(rows)

    def add_note(self, run_id: str, kind: str, subject: str, text: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT INTO notes (run_id, kind, subject, text, at) VALUES (?, ?, ?, ?, ?)",
                         (run_id, kind, subject, text, time.time()))

    # -- reading ------------------------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params))

    def runs(self) -> list[RunInfo]:
        rows = self.query(f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs ORDER BY night, started_at")
        return [RunInfo(**dict(row)) for row in rows]

    def run(self, run_id: str) -> RunInfo | None:
        rows = self.query(f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs WHERE run_id = ?", (run_id,))
        return RunInfo(**dict(rows[0])) if rows else None

    def nights(self) -> list[str]:
        return [row[0] for row in self.query("SELECT DISTINCT night FROM runs ORDER BY night")]

    def results(self, run_id: str | None = None, night: str | None = None) -> list[CaseRecord]:
        where, params = where_clause([("r.run_id = ?", run_id), ("runs.night = ?", night)])
        sql = (f"SELECT {', '.join('r.' + c for c in _RESULT_COLUMNS)} FROM results r JOIN runs USING (run_id)"
               f"{where} ORDER BY runs.started_at, r.case_id, r.board")
        return [CaseRecord(**dict(row)) for row in self.query(sql, params)]

    def measures(self, run_id: str | None = None) -> list[Measure]:
        sql = f"SELECT {', '.join(_MEASURE_COLUMNS)} FROM measures"
        params: list[Any] = []
        if run_id is not None:
            sql += " WHERE run_id = ?"
            params.append(run_id)
        return [Measure(**dict(row)) for row in self.query(sql, params)]

    def notes(self, run_id: str | None = None) -> list[sqlite3.Row]:
        if run_id is None:
            return self.query("SELECT * FROM notes ORDER BY at")
        return self.query("SELECT * FROM notes WHERE run_id = ? ORDER BY at", (run_id,))
