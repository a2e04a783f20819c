"""Coverage of one run: the .gcda files a coverage build's binary left, turned into its reports, and the
status of every binary (with the coverage it has, or why it has none), merged at the end of the run.

Layout of a run's coverage folder (``CoverageRun.folder``)::

    <folder>/<board>/<binary>/gcda/...      the binary's .gcda files (gcov's own paths under it), .gcno beside
    <folder>/<board>/<binary>/coverage.{json,info,xml}, index.html     its reports (harness.coverage.report)
    <folder>/<board>/<binary>/status.json   outcome of the run, coverage found or why it is missing
    <folder>/<board>/merged/...             every binary of the board together
    <folder>/merged/...                     every binary on every board together

How the .gcda files come back: a host binary writes them itself at exit (libgcov), under ``GCOV_PREFIX`` (set
for the binary's run: this process runs one binary at a time); a Cortex-M binary streams them at exit
(``boards/cortex_m/gcov_dump.c``) to ``<ELF>.gcov`` over semihosting, or over the log (``~~~GCOV`` lines).
A binary that crashed, hung or could not run has no coverage, and its status says so: it is never dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from harness import REPO_ROOT
from harness.board.boards import Board
from harness.build.make import gen_root
from harness.coverage import report as reports
from harness.coverage.stream import StreamError, from_log, parse
from harness.outcome import Outcome
from harness.session import RunReport

STATUS = "status.json"
ROOMY_BOARDS = ("--board=netduinoplus2", "--board=mps2_an505", "--board=host")
MERGED = "merged"


@dataclass
class BinaryCoverage:
    """One binary's coverage on one board, or why there is none (``reason``)."""

    board: str
    binary: str
    outcome: str  # the run's outcome (harness.outcome.Outcome value)
    ok: bool
    reason: str = ""
    via: str = ""  # how the data came: "gcda" (host), "semihosting", "log"
    lines_covered: int = 0
    lines_total: int = 0
    functions_covered: int = 0
    functions_total: int = 0
    folder: str = ""
    files: int = 0  # .gcda files

    @classmethod
    def load(cls, path: Path) -> BinaryCoverage:
        return cls(**json.loads(path.read_text()))


def stream_path(elf: Path) -> Path:
    """Where a Cortex-M binary's stream arrives: ``<ELF>.gcov`` (the ELF as QEMU was given it, resolved)."""
    return Path(f"{elf.resolve()}.gcov")


def gcov_tool(board: Board) -> str:
    """The gcov of the board's compiler (``arm-none-eabi-gcov``; the host's ``gcov`` beside its gcc)."""
    if board.is_host:
        cc = shutil.which(board.cc)
        beside = Path(cc).with_name(Path(board.cc).name.replace("gcc", "gcov")) if cc else None
        return str(beside) if beside is not None and beside.is_file() else "gcov"
    return board.tool("gcov")


@dataclass
class CoverageRun:
    """The coverage of the binaries this process runs, written under ``folder``."""

    folder: Path
    root: Path = REPO_ROOT  # sources are reported relative to it
    results: list[BinaryCoverage] = field(default_factory=list)

    def binary_folder(self, board: Board, binary: str) -> Path:
        return self.folder / board.name / binary

    @contextmanager
    def running(self, board: Board, binary: str, elf: Path | None) -> Iterator[None]:
        """Around one binary's run: a clean folder for it, no stale stream, and for the host ``GCOV_PREFIX``."""
        folder = self.binary_folder(board, binary)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        if elf is not None:
            with contextlib.suppress(OSError):  # a stale stream must not pass for this run's
                stream_path(elf).unlink(missing_ok=True)
        saved = {key: os.environ.get(key) for key in ("GCOV_PREFIX", "GCOV_PREFIX_STRIP")}
        if board.is_host:
            os.environ["GCOV_PREFIX"] = str(folder / "gcda")
            os.environ["GCOV_PREFIX_STRIP"] = "0"
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def collect(self, board: Board, binary: str, run: RunReport) -> BinaryCoverage:
        """The binary's coverage after its run (reports written), or why it has none; saved as its status."""
        folder = self.binary_folder(board, binary)
        result = BinaryCoverage(board.name, binary, str(run.outcome.value), ok=False, folder=str(folder))
        try:
            self._collect(board, binary, run, folder, result)
        except (OSError, StreamError, reports.ReportError) as error:
            result.ok, result.reason = False, str(error)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / STATUS).write_text(json.dumps(asdict(result), indent=1))
        self.results.append(result)
        return result

    def _collect(self, board: Board, binary: str, run: RunReport, folder: Path, result: BinaryCoverage) -> None:
        if run.outcome in (Outcome.BUILD_ERROR, Outcome.UNAVAILABLE) or run.elf is None:
            first = (run.summary or "").strip().splitlines()[:1]
            result.reason = f"not run ({run.outcome.value}): {first[0] if first else 'no binary'}"
            if run.outcome is Outcome.BUILD_ERROR and " needs " in result.reason and " but " in result.reason:
                result.reason += (f"; instrumented binaries are bigger (counters in RAM, calls in flash): measure "
                                  f"coverage on a board with room ({', '.join(ROOMY_BOARDS)})")
            return
        gcda_dir = folder / "gcda"
        if board.is_host:
            result.via = "gcda"
            found = sorted(gcda_dir.rglob("*.gcda")) if gcda_dir.is_dir() else []
            for gcda in found:  # gcov's own path under the prefix: its .gcno is at that path
                _link_gcno(gcda, Path("/") / gcda.relative_to(gcda_dir))
        else:
            found = self._target_gcda(run, gcda_dir, result)
        if not found:
            result.reason = result.reason or _why_nothing(run)
            return
        result.files = len(found)
        title = f"{binary} on {board.name} ({run.outcome.value})"
        totals = reports.from_gcda(gcda_dir, folder, root=self.root, gcov=gcov_tool(board),
                                   exclude=[gen_root()], title=title)
        result.ok = True
        result.lines_covered, result.lines_total = totals.lines_covered, totals.lines_total
        result.functions_covered, result.functions_total = totals.functions_covered, totals.functions_total

    def _target_gcda(self, run: RunReport, gcda_dir: Path, result: BinaryCoverage) -> list[Path]:
        assert run.elf is not None
        path = stream_path(run.elf)
        data: bytes | None = None
        if path.is_file():
            data, result.via = path.read_bytes(), "semihosting"
            path.unlink()
        else:
            data = from_log(run.log)
            result.via = "log" if data is not None else ""
        if data is None:
            return []
        stream = parse(data)
        if not stream.complete:
            result.reason = f"incomplete coverage data ({result.via}): {stream.problem}; {_why_nothing(run)}"
            return []
        written = []
        for name, content in stream.files.items():
            original = Path(name)
            gcda = gcda_dir / original.relative_to(original.anchor)
            gcda.parent.mkdir(parents=True, exist_ok=True)
            gcda.write_bytes(content)
            _link_gcno(gcda, original)
            written.append(gcda)
        return written


def _link_gcno(gcda: Path, original: Path) -> None:
    """gcov reads a .gcda's notes from the .gcno beside it: a link to the one the compiler wrote."""
    gcno, notes = gcda.with_suffix(".gcno"), original.with_suffix(".gcno")
    if not gcno.exists() and notes.is_file():
        gcno.symlink_to(notes)


def _why_nothing(run: RunReport) -> str:
    first = (run.summary or "").strip().splitlines()[:1]
    said = f": {first[0]}" if first else ""
    if run.outcome in (Outcome.CRASHED, Outcome.TIMEOUT, Outcome.INFRA_ERROR):
        return f"no coverage data: the run ended ({run.outcome.value}) before the binary's exit wrote it{said}"
    return f"no coverage data came from the binary (run {run.outcome.value}{said})"


def load_results(folder: Path) -> list[BinaryCoverage]:
    """Every binary's status under a run's coverage folder (written by this or another process)."""
    return [BinaryCoverage.load(path) for path in sorted(folder.rglob(STATUS)) if "gcda" not in path.parts]


@dataclass
class Merged:
    folder: Path
    totals: reports.Totals
    binaries: int


def merge(folder: Path, results: list[BinaryCoverage], root: Path = REPO_ROOT) -> list[Merged]:
    """Per board and (with several boards) over all boards: one report of every binary that has coverage."""
    done: list[Merged] = []
    with_data = [r for r in results if r.ok]
    boards = sorted({r.board for r in with_data})
    for board in boards:
        traces = [Path(r.folder) / reports.JSON for r in with_data if r.board == board]
        target = folder / board / MERGED
        done.append(Merged(target, reports.merged(traces, target, root=root, title=f"{board}: {len(traces)} "
                                                  "binaries"), len(traces)))
    if len(boards) > 1:
        traces = [Path(r.folder) / reports.JSON for r in with_data]
        target = folder / MERGED
        done.append(Merged(target, reports.merged(traces, target, root=root,
                                                  title=f"{', '.join(boards)}: {len(traces)} binaries"), len(traces)))
    return done


def default_folder(base: Path) -> Path:
    """``<base>/report-<date>-<time>-<pid>``: a fresh folder per run."""
    return base / f"report-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


def summary_lines(folder: Path, results: list[BinaryCoverage], merged: list[Merged]) -> list[str]:
    """What the end of the run says: where the reports are, and every binary without coverage, with why."""
    lines: list[str] = []
    for entry in merged:
        lines.append(f"coverage {entry.folder.relative_to(folder)} ({entry.binaries} binaries): {entry.totals}")
        lines.append(f"  LCOV {entry.folder / reports.LCOV}")
        lines.append(f"  Cobertura {entry.folder / reports.COBERTURA}")
        lines.append(f"  HTML {entry.folder / reports.HTML}")
    missing = [r for r in results if not r.ok]
    ok = len(results) - len(missing)
    lines.append(f"coverage: {ok} of {len(results)} binaries with coverage, per binary in {folder}/<board>/<binary>/")
    for r in missing:
        lines.append(f"coverage MISSING for {r.binary} on {r.board}: {r.reason}")
    return lines


def as_dict(results: list[BinaryCoverage]) -> list[dict[str, Any]]:
    return [asdict(r) for r in results]
