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

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError, available_boards, load_board
from harness.build.driver import is_runtime_test
from harness.build.make import RUNTIME_DIR, gen_root
from harness.core import project
from harness.pytest.dut import Dut
from harness.pytest.items import BINARY_ITEM, MicroItem, MicroTestFile, named
from harness.pytest.state import SESSION_KEY, STATE_KEY, HarnessState, harness_state
from harness.runners import REGISTRY

if TYPE_CHECKING:
    pass

# --hardware-map: real/emulated boards, leases, infra retry (harness/pytest/hil.py).
# dut / dut_factory / count fixtures and per-test DUT logs (harness/pytest/dut_plugin.py).
# --micro-coverage: gcov-instrumented builds, coverage per binary and merged (harness/coverage/plugin.py).
pytest_plugins = ["harness.pytest.hil", "harness.pytest.farm", "harness.pytest.dut_plugin", "harness.coverage.plugin"]

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
    from harness.formats import FORMATS

    group.addoption("--framework", dest="micro_framework", metavar="NAME", choices=list(FORMATS),
                    help="test framework of firmware ELFs named on the command line (default: detected from "
                    f"their output): {', '.join(FORMATS)}")
    group.addoption("--no-exit-status", action="store_true", default=False,
                    help="firmware ELFs named on the command line never exit: their framework's end of run ends "
                    "the run (default: the board's [run] exit_status)")
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
    from harness.pytest.firmware import check_frameworks

    check_frameworks()
    config.stash[STATE_KEY] = HarnessState(
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
        config.stash[SESSION_KEY] = procs.new_session()


# <file>::<Case or binary-checks>[<board>]: the node id of a micro item, where <file> is a *_test.cc or a
# foreign firmware's ELF (harness.pytest.firmware); never a Python module.
_MICRO_NODEID = re.compile(r"^(?P<file>[^:]+)::[^:\[]+\[(?P<board>[^\]]+)\]$")


def xdist_scope(nodeid: str) -> str | None:
    """The xdist work unit of a micro item: its binary on its board (None for other tests)."""
    match = _MICRO_NODEID.match(nodeid)
    if match is None or match["file"].endswith(".py"):
        return None
    return f"{match['file']}[{match['board']}]"


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


# --------------------------------------------------------------- collection --
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if parent.config.getoption("no_micro_tests"):
        return None
    if not file_path.name.endswith("_test.cc"):
        return _named_firmware(file_path, parent)
    resolved = file_path.resolve()
    if gen_root() in resolved.parents or (RUNTIME_DIR / "gen") in resolved.parents:
        return None
    # Elsewhere in this checkout *_test.cc files are fixture firmware of other tests
    # (tests/hil/fw, tests/fixtures): collected only when named on the command line.
    if project.current().is_checkout and REPO_ROOT in resolved.parents and not is_runtime_test(resolved) \
            and not named(parent.config, resolved):
        return None
    file: MicroTestFile = MicroTestFile.from_parent(parent, path=file_path)
    return file


def _named_firmware(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A firmware ELF named on the command line (``pytest build/app.elf --board=bluepill``): its items."""
    from harness.pytest.firmware import FirmwareFile, for_named_elf, is_elf

    if not named(parent.config, file_path.resolve()) or not is_elf(file_path):
        return None
    firmware, boards = for_named_elf(parent.config, file_path)
    harness_state(parent.config).firmware_paths.add(file_path.resolve())
    collector: FirmwareFile = FirmwareFile.from_parent(parent, path=file_path, firmware=firmware, boards=boards)
    return collector


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Adds the project's declared foreign firmware (``[[tool.micro-harness.firmware]]``) when this call collects
    the whole project; first, so that -k, --deselect and --lf select among its items too."""
    if config.getoption("no_micro_tests") or STATE_KEY not in config.stash:
        return
    from harness.pytest.firmware import FirmwareFile, covers_project, firmware_files

    if not project.current().firmware or not covers_project(config):
        return
    state = harness_state(config)
    for firmware, path, boards in firmware_files(config):
        if path in state.firmware_paths:
            continue  # also named on the command line: collected there
        state.firmware_paths.add(path)
        collector = FirmwareFile.from_parent(session, path=path, firmware=firmware, boards=boards)
        items.extend(session.genitems(collector))


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """With nothing collected at all, says where micro tests were looked for (not just "collected 0 items")."""
    if items or config.getoption("no_micro_tests") or STATE_KEY not in config.stash:
        return []
    from harness.build.driver import no_tests_message

    return [f"harness: {no_tests_message()}"]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Records which in-tree binaries each board needs, so one make call builds them all."""
    state = harness_state(session.config)
    for item in session.items:
        if isinstance(item, MicroItem) and is_runtime_test(item.path):
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
    found = session.config.stash.get(SESSION_KEY, None)
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
    if config.getoption("no_micro_tests") or STATE_KEY not in config.stash:
        return
    state = harness_state(config)
    for note in dict.fromkeys(state.notes):
        terminalreporter.write_line(f"harness: {note}")
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
    state = harness_state(config)
    if config.getoption("no_micro_tests"):
        return []
    parts = [f"{b.name} ({state.label_for(b)})" for b in state.boards]
    proj = project.current()
    where = f"project {proj.root} (build {proj.build_dir})"
    lines = [f"harness: boards {', '.join(parts)}; {where}; runtime {REPO_ROOT / 'micro_runtime'}"
             f"{_default_board_note(config)}"]
    if proj.firmware:
        chosen = {b.name for b in state.boards} if config.getoption("board") else None
        listed = []
        for firmware in proj.firmware:
            on = [name for name in firmware.boards if chosen is None or name in chosen]
            listed.append(f"{firmware.label} on {', '.join(on) or 'none of the chosen boards'}")
        own = "" if chosen is not None else " (its own boards: no --board given)"
        lines.append(f"harness: firmware of {proj.config_file.name if proj.config_file else 'the project'}{own}: "
                     + "; ".join(listed))
    return lines


# ----------------------------------------------------------------- fixtures --
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Python-level device tests using ``board``/``dut`` run once per --board."""
    if "board" not in metafunc.fixturenames:
        return
    definitions = metafunc._arg2fixturedefs.get("board")  # only our fixture, not a local override
    if not definitions or getattr(definitions[-1].func, "__module__", None) != __name__:
        return
    boards = harness_state(metafunc.config).boards
    metafunc.parametrize("board", boards, ids=[b.name for b in boards], indirect=True)


@pytest.fixture(name="board")
def board_fixture(request: pytest.FixtureRequest) -> Board:
    """The Board under test (one per --board; host by default)."""
    param = getattr(request, "param", None)
    if isinstance(param, Board):
        return param
    return harness_state(request.config).boards[0]


# dut, dut_factory, count and the per-test DUT logs: harness/pytest/dut_plugin.py


__all__ = ["Dut"]
