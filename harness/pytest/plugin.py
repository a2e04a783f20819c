"""pytest plugin: every TF_LITE_MICRO_TEST of every ``*_test.cc`` becomes a pytest item per board.

    pytest --board=bluepill                      all micro tests, built and run in an emulator
    pytest --board=host,bluepill -n auto         a board matrix, binaries spread over workers
    pytest micro_runtime/kernels/conv_test.cc -k Int8 --board=bluepill --qemu

Items are ``<file>::<Case>[<board>]`` plus one ``<file>::binary-checks[<board>]`` item per binary
(a name no C++ identifier can have) that checks what no case owns (build, fit, how the run
ended, exit status, cases run but not in the source).
Each binary is built (all binaries of a board in one make call) and run once per board and
process; its items read the cached result. Under xdist (``-n``) the items of one binary on one
board are one work unit of the plugin's scheduler (``pytest_xdist_make_scheduler``), so they
run on one worker while node ids stay ``<file>::<Case>[<board>]`` (no ``@group`` suffix).

Outcomes: failing expectation -> FAILED with the failure lines; crash or timeout -> FAILED on
the running case (decoded fault or timeout, log tail); later cases -> ERROR "not reached";
infra problems -> ERROR; a backend that cannot run here -> ERROR naming the fix (SKIPPED only
with ``--skip-unavailable`` / ini ``micro_skip_unavailable = true``). The terminal summary says
how many micro cases ran, on which boards and backends.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError, available_boards, load_board
from harness.build.driver import (
    RUNTIME_DIR,
    BinaryBuild,
    BuildError,
    build,
    build_test,
    elf_path,
    excluded_tests,
    first_error_line,
    gen_dir,
    gen_root,
    is_runtime_test,
    test_binary_name,
)
from harness.core import project
from harness.core.binary_info import declared_tests
from harness.formats.micro_test import source_cases
from harness.outcome import Outcome
from harness.pytest.dut import Dut
from harness.runners import REGISTRY
from harness.session import RunOptions, RunReport, run_binary

if TYPE_CHECKING:
    from harness.formats.base import CaseResult

# --hardware-map: real/emulated boards, leases, infra retry (harness/pytest/hil.py).
# dut / dut_factory / count fixtures and per-test DUT logs (harness/pytest/dut_plugin.py).
pytest_plugins = ["harness.pytest.hil", "harness.pytest.farm", "harness.pytest.dut_plugin"]

BINARY_ITEM = "binary-checks"  # "-" cannot occur in a C++ test name
DEFAULT_MCU_BOARD = "bluepill"  # what `pytest --renode` / `--qemu` run without --board


# ------------------------------------------------------------------ options --
def _known_boards() -> str:
    try:
        return ", ".join(available_boards())
    except project.ProjectError:
        return "see `harness boards`"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness", "micro_runtime tests on boards (harness plugin)")
    group.addoption(
        "--board", action="append", default=[], metavar="NAME[,NAME...]",
        help="board(s) to build and run micro tests for; repeatable or comma-separated "
        "(default: host). Known: " + _known_boards(),
    )
    group.addoption("--qemu", action="store_const", const="qemu", dest="micro_backend",
                    help=f"run MCU boards in QEMU (without --board: {DEFAULT_MCU_BOARD})")
    group.addoption("--renode", action="store_const", const="renode", dest="micro_backend",
                    help=f"run MCU boards in Renode (without --board: {DEFAULT_MCU_BOARD}); without Renode installed "
                    "the items are errors naming the fix (--skip-unavailable skips them)")
    group.addoption("--backend", dest="micro_backend", metavar="NAME",
                    help=f"run MCU boards on this backend ({', '.join(REGISTRY)})")
    from harness.runners.qemu import icount_arg

    group.addoption("--icount", type=icount_arg, default=None, metavar="N",
                    help="QEMU only: run MCU boards with -icount shift=N (deterministic virtual time; "
                    "overrides the board's [qemu] icount). A usage error with a non-QEMU backend")
    from harness.core.argtypes import positive_seconds

    group.addoption("--micro-timeout", type=positive_seconds, default=None, metavar="SECONDS",
                    help="wall-clock limit per test binary (default: the board's [run] timeout_s)")
    group.addoption("--no-micro-tests", action="store_true", default=False,
                    help="do not collect *_test.cc files (only the harness's Python tests)")
    group.addoption("--skip-unavailable", action="store_true", default=None,
                    help="skip micro tests whose board/backend cannot run on this machine (default: they are "
                    "errors, so a CI without the emulator does not go green having tested nothing)")
    parser.addini("micro_skip_unavailable", type="bool", default=False,
                  help="skip (instead of error) micro tests whose backend cannot run here")
    # Read by harness.core.project (also for the CLI); declared here so pytest knows them.
    parser.addini("micro_boards", type="args", help="folders of the project's own board files (<name>/board.toml)")
    parser.addini("micro_build_dir", help="build folder of the project's micro tests (default build/micro-harness)")
    parser.addini("micro_sources", type="args", help="sources linked into every micro test binary (globs)")
    parser.addini("micro_include_dirs", type="args", help="include folders of the project's micro tests")
    parser.addini("micro_warnings_as_errors", type="bool", default=True,
                  help="false: compiler warnings in the project's own sources do not fail their build")


@dataclass
class HarnessState:
    config: pytest.Config
    boards: list[Board]
    backend: str | None
    timeout_s: float | None
    icount: int | None = None  # --icount: QEMU's -icount shift for MCU boards
    wanted: dict[str, set[str]] = field(default_factory=dict)  # board -> in-tree binaries selected
    built: dict[str, dict[str, BinaryBuild]] = field(default_factory=dict)
    excluded: dict[str, dict[str, str]] = field(default_factory=dict)  # board -> test -> Makefile's note
    build_errors: dict[str, str] = field(default_factory=dict)
    outcomes: dict[tuple[str, str], RunReport] = field(default_factory=dict)
    skip_unavailable: bool = False  # --skip-unavailable / ini micro_skip_unavailable

    # -- choices ------------------------------------------------------------------------------
    def resolve(self, board: Board) -> Any:
        """The runner and its report label for ``board`` (``harness.session.resolve_runner``)."""
        from harness.pytest.hil import runner_override
        from harness.session import resolve_runner

        return resolve_runner(board, self.backend, self.icount, map_runner=runner_override(self.config, board))

    def label_for(self, board: Board) -> str:
        """What runs the board's binaries, for reports: its backend, or ``hil:<backend>`` of the map's boards."""
        from harness.runners import ResolveError

        try:
            return str(self.resolve(board).label)
        except ResolveError:
            return self.backend or "?"

    def timeout_for(self, board: Board) -> float:
        """The limit of one binary's run on ``board`` (``--micro-timeout``, else the board's)."""
        from harness.session import timeout_for

        return timeout_for(board, RunOptions(timeout_s=self.timeout_s))

    def options_for(self, board: Board) -> RunOptions:
        from harness.pytest.hil import runner_override

        return RunOptions(backend=self.backend, icount=self.icount, timeout_s=self.timeout_s,
                          map_runner=runner_override(self.config, board))

    def progress(self, message: str) -> None:
        """One ``harness: ...`` line on the terminal now (build and run progress); none with ``-q``.

        An xdist worker has no terminal reporter, but its stderr is the controller's: with capturing
        suspended it writes the line there itself, in one write, prefixed with its id.
        """
        if self.config.getoption("verbose") < 0:  # get_verbosity() needs pytest 8
            return
        capture = self.config.pluginmanager.get_plugin("capturemanager")
        worker = getattr(self.config, "workerinput", None)
        if worker is not None:
            line = f"\nharness: [{worker.get('workerid', '?')}] {message}\n".encode()
            with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
                os.write(2, line)
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        if capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(f"harness: {message}")
        else:
            reporter.write_line(f"harness: {message}")

    @contextlib.contextmanager
    def ticking(self, what: str, every_s: float = 8.0) -> Any:
        """Says ``<what>: still running after N s`` every ``every_s`` while the block runs."""
        import threading
        import time

        done = threading.Event()
        start = time.monotonic()

        def tick() -> None:
            while not done.wait(every_s):
                self.progress(f"{what}: still running after {time.monotonic() - start:.0f} s")

        thread = threading.Thread(target=tick, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    # -- building -------------------------------------------------------------------------
    def binary_build(self, board: Board, binary: str, source: Path) -> BinaryBuild:
        if not is_runtime_test(source):
            # A project's own test (or a fixture firmware named on the command line): one program each.
            return build_test(board, source, progress=self.progress)
        if board.name in self.build_errors:
            raise BuildError(self.build_errors[board.name])
        if board.name not in self.built:
            # One make call for every in-tree binary this session runs on the board.
            skip = self.excluded_on(board)
            names = sorted((self.wanted.get(board.name) or {binary}) - set(skip)) or [binary]
            try:
                self.built[board.name] = build(board, names, progress=self.progress).binaries
            except BuildError as error:
                self.build_errors[board.name] = str(error)
                raise
        found = self.built[board.name].get(binary)
        if found is None:  # not in the session's list (e.g. collected late): build it alone
            found = build(board, [binary], progress=self.progress).binaries[binary]
            self.built[board.name][binary] = found
        return found

    def excluded_on(self, board: Board) -> dict[str, str]:
        if board.name not in self.excluded:
            self.excluded[board.name] = excluded_tests(board) if shutil.which("make") else {}
        return self.excluded[board.name]

    # -- running --------------------------------------------------------------------------
    def outcome(self, board: Board, binary: str, source: Path) -> RunReport:
        """The run of ``binary`` on ``board``, once per process: through the one run session."""
        key = (str(source), board.name)
        if key in self.outcomes:
            return self.outcomes[key]
        built: list[BinaryBuild] = []

        def build_it() -> Path:
            if is_runtime_test(source):
                note = self.excluded_on(board).get(binary)
                if note is not None:  # declared too big for the board (requirements.mk)
                    raise _DoesNotFit(f"does not fit: {note}")
            found = self.binary_build(board, binary, source)
            built.append(found)
            if found.error is not None or found.elf is None:
                raise BuildError(found.error or f"{binary} was not built")
            return found.elf

        def ticking(label: str) -> Any:
            return self.ticking(f"running {binary} on {board.name} ({label})")

        try:
            report = run_binary(board, build_it, self.options_for(board), source=source, wrap=ticking)
        except _DoesNotFit as fit:
            report = RunReport(board=board, backend=self.label_for(board), outcome=Outcome.UNAVAILABLE,
                               summary=str(fit))
        report.build = built[0] if built else None
        self.outcomes[key] = report
        if report.elf is not None and report.outcome not in (Outcome.UNAVAILABLE, Outcome.BUILD_ERROR):
            log_dir = gen_dir(board) / "logs"
            log_dir.mkdir(parents=True, exist_ok=True)
            report.log_path = log_dir / f"{binary}.log"
            report.log_path.write_bytes(report.annotated_log)
        return report


class _DoesNotFit(Exception):
    """A binary the Makefile declares too big for the board (skipped, not an error)."""


_STATE = pytest.StashKey[HarnessState]()
_SESSION = pytest.StashKey[str]()


def _parse_boards(values: list[str], backend: str | None = None) -> list[str]:
    """Board names of the ``--board`` options; an empty name is refused. None given: the host, or with a
    backend for MCU boards (``--qemu``, ``--renode``, ``--backend pyocd``...) the default MCU board."""
    names: list[str] = []
    for value in values:
        for name in value.split(","):
            name = name.strip()
            if not name:
                raise BoardError(f"empty board name in {value!r}; known boards: {', '.join(available_boards())}")
            if name not in names:
                names.append(name)
    if names:
        return names
    return [DEFAULT_MCU_BOARD] if backend is not None and backend != "host" else ["host"]


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "micro: a micro_runtime test case run on a board (harness plugin)")
    try:
        # The project whose tests, boards and build folder these are: inherited from a parent harness
        # process (xdist workers, a run started by `harness`), else the one pytest's rootdir is in.
        if project.inherited() is None:
            project.use(project.load(project.find_root(config.rootpath)))
        project.current()
    except project.ProjectError as error:
        raise pytest.UsageError(f"micro-harness settings: {error}") from error
    try:
        boards = [load_board(name) for name in _parse_boards(config.getoption("board"),
                                                              config.getoption("micro_backend"))]
    except BoardError as error:
        raise pytest.UsageError(f"--board: {error}") from error
    backend = config.getoption("micro_backend")
    if backend and backend not in REGISTRY:
        raise pytest.UsageError(f"--backend: unknown backend '{backend}'; choose one of: {', '.join(REGISTRY)}")
    icount = config.getoption("icount")
    if icount is not None:
        from harness.runners.qemu import icount_problem

        problem = icount_problem("hil" if config.getoption("hardware_map", None) else backend or "qemu")
        if problem is not None:
            raise pytest.UsageError(problem)
    config.stash[_STATE] = HarnessState(
        config=config,
        boards=boards,
        backend=backend,
        timeout_s=config.getoption("micro_timeout"),
        icount=icount,
        skip_unavailable=bool(config.getoption("skip_unavailable") or config.getini("micro_skip_unavailable")),
    )
    from harness.core import procs

    procs.install_signal_handlers()  # SIGTERM/SIGHUP: end every emulator, then stop like Ctrl-C
    if not hasattr(config, "workerinput"):  # xdist workers inherit the controller's session
        config.stash[_SESSION] = procs.new_session()


# <file>_test.cc::<Case or _binary>[<board>]: the node id of a micro item.
_MICRO_NODEID = re.compile(r"^(?P<file>[^:]+_test\.cc)::[^:\[]+\[(?P<board>[^\]]+)\]$")


def xdist_scope(nodeid: str) -> str | None:
    """The xdist work unit of a micro item: its binary on its board (None for other tests)."""
    match = _MICRO_NODEID.match(nodeid)
    return f"{match['file']}[{match['board']}]" if match else None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Items of one binary share one run: schedule them as one unit, on one worker.

    Grouping by node id here (not by an ``xdist_group`` mark) keeps node ids as they are
    without -n, so ``--lf``, -k and JUnit names do not depend on how the run was spread.
    """
    if config.getvalue("dist") not in ("load", "loadgroup") or config.getoption("no_micro_tests"):
        return None  # loadfile/loadscope already keep a file on one worker; each/worksteal as asked
    from xdist.scheduler import LoadGroupScheduling

    # pytest-xdist ships no type information: to mypy LoadGroupScheduling is Any, which strict mode lets
    # a class subclass only when told.
    class BinaryScheduling(LoadGroupScheduling):  # type: ignore[misc]
        """loadgroup where a micro binary per board is a group; other tests as -n/--dist gives them."""

        def _split_scope(self, nodeid: str) -> str:
            scope = xdist_scope(nodeid)
            return scope if scope is not None else super()._split_scope(nodeid)

    return BinaryScheduling(config, log)


def _state(config: pytest.Config) -> HarnessState:
    return config.stash[_STATE]


# --------------------------------------------------------------- collection --
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if not file_path.name.endswith("_test.cc") or parent.config.getoption("no_micro_tests"):
        return None
    resolved = file_path.resolve()
    if gen_root() in resolved.parents or (RUNTIME_DIR / "gen") in resolved.parents:
        return None
    # Elsewhere in this checkout *_test.cc files are fixture firmware of other tests
    # (tests/hil/fw, tests/fixtures): collected only when named on the command line.
    if project.current().is_checkout and REPO_ROOT in resolved.parents and not is_runtime_test(resolved) \
            and not _named(parent.config, resolved):
        return None
    file: MicroTestFile = MicroTestFile.from_parent(parent, path=file_path)
    return file


def _named(config: pytest.Config, path: Path) -> bool:
    root = Path(config.invocation_params.dir)
    return any((root / arg.split("::")[0]).resolve() == path for arg in config.args)


class MicroTestFile(pytest.File):
    def collect(self) -> list[pytest.Item]:
        try:
            source = self.path.read_text(errors="replace")
        except OSError as error:
            raise self.CollectError(f"cannot read {self.path}: {error.strerror}") from error
        scanned = source_cases(source)
        from harness.formats.case_limits import CaseLimitError, source_case_timeouts

        try:
            source_case_timeouts(source, self.path)
        except CaseLimitError as error:
            raise self.CollectError(str(error)) from error
        binary = self.path.stem
        items: list[pytest.Item] = []
        for board in _state(self.config).boards:
            cases = self._compiled(board, scanned)
            for case in dict.fromkeys(cases):
                items.append(MicroCaseItem.from_parent(self, name=f"{case}[{board.name}]", case=case, board=board,
                                                       binary=binary, source_cases=cases,
                                                       nodeid=self._item_id(case, board)))
            items.append(MicroBinaryItem.from_parent(self, name=f"{BINARY_ITEM}[{board.name}]", case=None,
                                                     board=board, binary=binary, source_cases=cases,
                                                     nodeid=self._item_id(BINARY_ITEM, board)))
        return items

    def _item_id(self, name: str, board: Board) -> str:
        """``<file>::<name>[<board>]``, given as a string so that pytest parses it as it parses the ids it
        stored: pytest 9.2 compares structured ids (name and ``[params]`` apart) for ``--lf``, and an id
        built from the name ``Case[board]`` would never equal the stored ``Case`` + ``board``."""
        return f"{self.nodeid}::{name}[{board.name}]"

    def _compiled(self, board: Board, scanned: list[str]) -> list[str]:
        """The cases to collect on ``board``: the built binary's own list when it is newer than the source
        (so cases the preprocessor removed are no items), else the source scan (before the first build;
        the run is still held against the binary's list, and binary-checks names cases it missed)."""
        name = self.path.stem if is_runtime_test(self.path) else test_binary_name(self.path)
        elf = elf_path(board, name)
        try:
            fresh = elf.stat().st_mtime >= self.path.stat().st_mtime
        except OSError:
            return scanned
        declared = declared_tests(elf) if fresh else None
        if declared is None:
            return scanned
        order = {case: index for index, case in enumerate(scanned)}  # items in source order where known
        return sorted(declared.cases, key=lambda case: (order.get(case, len(order)), case))


class MicroTestFailure(Exception):
    """A micro test that failed on the device; shown as its message, without a Python traceback."""


class _MicroItem(pytest.Item):
    def __init__(self, *, case: str | None, board: Board, binary: str, source_cases: list[str], **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.board = board
        self.binary = binary
        self.source_cases = source_cases
        self.outcome: RunReport | None = None
        # Micro items use no fixtures; plugins that look at every item's fixtures (labgrid's own
        # pytest plugin, which loads whenever labgrid is installed) must find an empty list.
        self.fixturenames: list[str] = []
        self.add_marker(pytest.mark.micro)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        label = self.case or "binary checks"
        return self.path, None, f"{self.binary}::{label}[{self.board.name}]"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, MicroTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def setup(self) -> None:
        state = _state(self.config)
        self.outcome = report = state.outcome(self.board, self.binary, self.path)
        self.user_properties.append(("board", self.board.name))
        self.user_properties.append(("backend", report.backend))
        if report.backend == "qemu" and state.icount is not None:
            self.user_properties.append(("icount", state.icount))
        if report.build is not None and report.build.footprint is not None:
            self.user_properties.append(("flash_bytes", report.build.footprint.flash))
            self.user_properties.append(("ram_bytes", report.build.footprint.ram))
        if report.run is not None:
            self.user_properties.append(("binary_duration_s", round(report.duration_s, 3)))
        if report.records:
            self.user_properties.append(("records", report.records))
        if report.outcome == Outcome.UNAVAILABLE:
            if report.summary.startswith("does not fit: "):
                pytest.skip(report.summary)
            message = f"{report.backend} cannot run {self.board.name}: {report.summary}"
            self.user_properties.append(("unavailable", message))
            if state.skip_unavailable:
                pytest.skip(message)
            pytest.fail(f"{message} (pass --skip-unavailable to skip instead)", pytrace=False)
        if report.outcome == Outcome.BUILD_ERROR:
            self._setup_build_error(report.summary)
        if report.outcome == Outcome.INFRA_ERROR:
            pytest.fail(f"{self.binary} on {report.backend}: {report.summary}", pytrace=False)

    def _setup_build_error(self, message: str) -> None:
        lines = message.splitlines() or [message]
        first = first_error_line(message, self.path) or lines[0]  # at the user's own line, not micro_test.h's
        pytest.fail(f"{self.binary} not built for {self.board.name}: {first}", pytrace=False)

    def _context(self) -> str:
        """Log tail + where the full log is, for crash/timeout messages."""
        assert self.outcome is not None
        report = self.outcome
        parts = []
        if report.crash is not None:
            parts.append(report.crash.render())
        if report.log_tail:
            parts.append("log tail:\n" + "\n".join(f"  | {line}" for line in report.log_tail))
        if report.log_path is not None:
            parts.append(f"full log: {report.log_path}")
        if report.records == "unauthenticated":
            parts.append("records: unauthenticated (no run token reached the device: "
                         f"{report.backend} cannot deliver one)")
        return "\n".join(parts)


class MicroCaseItem(_MicroItem):
    def setup(self) -> None:
        super().setup()
        assert self.outcome is not None
        report = self.outcome
        result = _case_result(report, self.case)
        if result is not None:
            seconds = report.case_seconds.get(result.name)
            if seconds is not None:  # from the live run: a log parsed afterwards has no arrival times
                self.user_properties.append(("duration_s", round(seconds, 4)))
            return
        if self.case not in self.compiled_cases():
            pytest.skip(f"{self.case} is not compiled into {self.binary} for {self.board.name} "
                        "(removed by the preprocessor; not in the binary's case list)")
        dead = next((c for c in report.cases if c.outcome in (Outcome.CRASHED, Outcome.TIMEOUT)), None)
        if report.outcome in (Outcome.CRASHED, Outcome.TIMEOUT):
            verb = "crashed" if report.outcome == Outcome.CRASHED else "timed out"
            where = f"in {dead.name}" if dead is not None else "before its first test"
            pytest.fail(f"not reached: binary {verb} {where} ({report.summary})", pytrace=False)

    def compiled_cases(self) -> list[str]:
        """The binary's own case list (its ELF), else the source's."""
        assert self.outcome is not None
        declared = declared_tests(self.outcome.elf) if self.outcome.elf is not None else None
        return list(declared.cases) if declared is not None else self.source_cases

    def runtest(self) -> None:
        assert self.outcome is not None
        report = self.outcome
        result = _case_result(report, self.case)
        if result is None:
            raise MicroTestFailure(
                f"{self.case} is in {self.path.name} but the binary never ran it "
                f"(binary: {report.summary})\n{self._context()}"
            )
        if result.outcome == Outcome.CRASHED:
            raise MicroTestFailure(f"{self.case} crashed on {self.board.name}: {report.summary}\n{self._context()}")
        if result.outcome == Outcome.TIMEOUT:
            raise MicroTestFailure(f"{self.case} timed out on {self.board.name}: {report.summary}\n{self._context()}")
        if result.outcome == Outcome.SKIPPED:
            lines = "; ".join(m.strip() for m in result.messages[-3:]) or "skipped by the test"
            pytest.skip(f"{self.case} skipped on {self.board.name}: {lines}")
        if result.outcome != Outcome.PASSED:
            lines = "\n".join(result.messages) or "(the case printed no failure message)"
            raise MicroTestFailure(f"{self.case} failed on {self.board.name}:\n{lines}")


class MicroBinaryItem(_MicroItem):
    """Checks that belong to the binary, not to one case: it fails whenever the binary did not
    end cleanly (crash, hang, no exit, inconsistent log, broken record stream), ran no test, ran
    names not in its case list, or has compiled cases that were not collected as items."""

    def _setup_build_error(self, message: str) -> None:
        pytest.fail(message, pytrace=False)  # the full compiler output, once per binary

    def runtest(self) -> None:
        assert self.outcome is not None
        report = self.outcome
        problems = []
        declared = declared_tests(report.elf) if report.elf is not None else None
        ran = [c.name for c in report.cases]
        if declared is None:
            unknown = [name for name in dict.fromkeys(ran) if name not in self.source_cases]
            if unknown:
                problems.append(f"ran tests not found in {self.path.name} (TF_LITE_MICRO_TEST scan): "
                                f"{', '.join(unknown)}")
        else:
            uncollected = [name for name in dict.fromkeys(declared.cases) if name not in self.source_cases]
            if uncollected:
                problems.append(f"cases compiled into the binary have no item (collection scanned the source before "
                                f"the binary existed): {', '.join(uncollected)}; run pytest again to collect them "
                                "from the binary")
        cases = list(declared.cases) if declared is not None else self.source_cases
        duplicates = sorted({c for c in cases if cases.count(c) > 1})
        if duplicates:
            problems.append(f"test names defined twice in {self.path.name}: {', '.join(duplicates)}")
        not_a_case = report.outcome == Outcome.FAILED and not any(c.outcome == Outcome.FAILED for c in report.cases)
        if report.outcome in (Outcome.NO_TESTS, Outcome.CRASHED, Outcome.TIMEOUT) or not_a_case:
            problems.append(report.summary)
        problems += [p for p in report.problems if p not in problems]
        if problems:
            raise MicroTestFailure(f"{self.binary} on {self.board.name}:\n" + "\n".join(problems)
                                   + "\n" + self._context())


_SEVERITY = {Outcome.PASSED: 0, Outcome.SKIPPED: 1, Outcome.FAILED: 2, Outcome.TIMEOUT: 3, Outcome.CRASHED: 4}


def _case_result(report: RunReport, name: str | None) -> CaseResult | None:
    """The result of case ``name``; a name that ran twice (defined twice) reports its worst run."""
    runs = [c for c in report.cases if c.name == name]
    return max(runs, key=lambda c: _SEVERITY.get(Outcome(c.outcome), 5)) if runs else None


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """With nothing collected at all, says where micro tests were looked for (not just "collected 0 items")."""
    if items or config.getoption("no_micro_tests") or _STATE not in config.stash:
        return []
    from harness.build.driver import no_tests_message

    return [f"harness: {no_tests_message()}"]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Records which in-tree binaries each board needs, so one make call builds them all."""
    state = _state(session.config)
    for item in session.items:
        if isinstance(item, _MicroItem) and is_runtime_test(item.path):
            state.wanted.setdefault(item.board.name, set()).add(item.binary)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> Any:
    """Closes what this process kept open between runs (``harness.core.shutdown``: its persistent Renode,
    one per xdist worker; the labgrid places it still holds).

    Then nothing the run started may outlive it (checked once the xdist workers are gone): what
    still runs is killed, named on stderr, and fails the run.
    """
    import sys

    from harness.core.shutdown import run_shutdown

    run_shutdown()
    result = yield
    found = session.config.stash.get(_SESSION, None)
    if found is not None:
        from harness.core import procs

        left = procs.end_leftovers(found)
        if left:
            listed = "; ".join(f"pid {pid}: {cmd[:120]}" for pid, cmd in left)
            print(f"harness: ERROR: {len(left)} process(es) started by this run outlived it and were killed: "
                  f"{listed}", file=sys.stderr)
            if session.exitstatus == 0:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result


def _micro_counts(stats: dict[str, list[Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """("board (backend)" -> micro cases run, reason -> items that could not run) from the terminal
    reporter's reports (on the controller these include every xdist worker's)."""
    ran: dict[str, int] = {}
    not_run: dict[str, int] = {}
    for reports in stats.values():
        for report in reports:
            nodeid = getattr(report, "nodeid", "")
            if getattr(report, "when", None) is None or xdist_scope(nodeid) is None or f"::{BINARY_ITEM}[" in nodeid:
                continue
            props = dict(report.user_properties)
            if "unavailable" in props and report.when == "setup":
                reason = str(props["unavailable"])
                not_run[reason] = not_run.get(reason, 0) + 1
            elif report.when == "call":
                label = f"{props.get('board', '?')} ({props.get('backend', '?')})"
                ran[label] = ran.get(label, 0) + 1
    return ran, not_run


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Always says how many micro cases ran, where; and what could not run, with the fix."""
    if config.getoption("no_micro_tests") or _STATE not in config.stash:
        return
    state = _state(config)
    ran, not_run = _micro_counts(terminalreporter.stats)
    if not ran and not not_run:
        return
    total = sum(ran.values())
    where = ", ".join(f"{label}: {count}" for label, count in sorted(ran.items())) or "none"
    terminalreporter.write_line(f"harness: {total} micro test cases ran ({where}){_default_board_note(config)}")
    for reason, count in sorted(not_run.items()):
        verb = "skipped" if state.skip_unavailable else "could not run (errors)"
        terminalreporter.write_line(f"harness: {count} micro test items {verb}: {reason}",
                                    red=not state.skip_unavailable)


def _default_board_note(config: pytest.Config) -> str:
    """Says that the boards were chosen for the user (an emulator option without --board)."""
    backend = config.getoption("micro_backend")
    if config.getoption("board") or backend in (None, "host"):
        return ""
    return f"; no --board given: {backend} ran {DEFAULT_MCU_BOARD}, the default MCU board"


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = _state(config)
    if config.getoption("no_micro_tests"):
        return []
    parts = [f"{b.name} ({state.label_for(b)})" for b in state.boards]
    proj = project.current()
    where = f"project {proj.root} (build {proj.build_dir})"
    return [f"harness: boards {', '.join(parts)}; {where}; runtime {REPO_ROOT / 'micro_runtime'}"
            f"{_default_board_note(config)}"]


# ----------------------------------------------------------------- fixtures --
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Python-level device tests using ``board``/``dut`` run once per --board."""
    if "board" not in metafunc.fixturenames:
        return
    definitions = metafunc._arg2fixturedefs.get("board")  # only our fixture, not a local override
    if not definitions or getattr(definitions[-1].func, "__module__", None) != __name__:
        return
    boards = _state(metafunc.config).boards
    metafunc.parametrize("board", boards, ids=[b.name for b in boards], indirect=True)


@pytest.fixture(name="board")
def board_fixture(request: pytest.FixtureRequest) -> Board:
    """The Board under test (one per --board; host by default)."""
    param = getattr(request, "param", None)
    if isinstance(param, Board):
        return param
    return _state(request.config).boards[0]


# dut, dut_factory, count and the per-test DUT logs: harness/pytest/dut_plugin.py


__all__ = ["Dut", "MicroBinaryItem", "MicroCaseItem", "MicroTestFile"]
