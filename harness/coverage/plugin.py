"""pytest's side of coverage on the target: ``--micro-coverage`` (registered by ``harness.pytest.plugin``).

    pytest --board=netduinoplus2,host --micro-coverage -m micro micro_runtime

builds every micro test with gcov instrumentation into ``<build folder>/coverage/`` (``harness.coverage.build``;
the plain build is untouched), runs them as usual (verdicts are the same), collects each binary's counters
after its run (``harness.coverage.collect``) and at the end merges them and prints where the LCOV, Cobertura
and HTML reports are, and every binary that has no coverage with why. The option is not ``--cov``/``--coverage``:
those are pytest-cov's and Python's coverage of the test code, this is the firmware's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.build.make import elf_path, gen_root, set_build_variant
from harness.coverage import build as coverage_build
from harness.coverage.collect import CoverageRun, as_dict, default_folder, load_results, merge, summary_lines
from harness.coverage.report import ReportError, gcovr_problem
from harness.pytest.items import MicroItem
from harness.pytest.state import STATE_KEY, harness_state

RUN_KEY = pytest.StashKey[CoverageRun]()
_WORKER_INPUT = "micro_coverage_dir"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness")
    group.addoption("--micro-coverage", action="store_true", default=False,
                    help="measure the micro tests' line coverage on the board: build them with gcov "
                    "instrumentation (into <build folder>/coverage/), collect each binary's counters after its run, "
                    "write LCOV, Cobertura XML and HTML per binary and merged (host and Cortex-M boards with room: "
                    "netduinoplus2, mps2_an505)")
    group.addoption("--micro-coverage-dir", default=None, metavar="DIR",
                    help="where --micro-coverage writes its reports (default: <build folder>/coverage/"
                    "report-<date>-<time>-<pid>/)")


def enabled(config: pytest.Config) -> bool:
    return bool(config.getoption("micro_coverage", False) or config.getoption("micro_coverage_dir", None))


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    if not enabled(config) or config.getoption("no_micro_tests"):
        return
    problem = gcovr_problem()
    if problem is not None:
        raise pytest.UsageError(f"--micro-coverage: {problem}")
    set_build_variant(coverage_build.VARIANT)
    config.add_cleanup(lambda: set_build_variant(None))


def _run(config: pytest.Config) -> CoverageRun:
    """This process's coverage run (made on first use, once the project and its build folder are known)."""
    found = config.stash.get(RUN_KEY, None)
    if found is None:
        worker = getattr(config, "workerinput", None)
        chosen = worker.get(_WORKER_INPUT) if worker is not None else config.getoption("micro_coverage_dir")
        folder = Path(chosen).resolve() if chosen else default_folder(gen_root())
        found = config.stash[RUN_KEY] = CoverageRun(folder)
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if not enabled(config) or STATE_KEY not in config.stash:
        return
    for board in harness_state(config).boards:
        problem = coverage_build.supported(board)
        if problem is not None:
            raise pytest.UsageError(f"--micro-coverage: {problem}")
    _run(config).folder.mkdir(parents=True, exist_ok=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist: every worker writes into the controller's coverage folder."""
    if enabled(node.config) and STATE_KEY in node.config.stash:
        node.workerinput[_WORKER_INPUT] = str(_run(node.config).folder)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Around the item that runs a binary (the first of its items here): a clean start, then its coverage."""
    config = item.config
    if (not enabled(config) or STATE_KEY not in config.stash or not isinstance(item, MicroItem)
            or not item.path.name.endswith("_test.cc")):
        return (yield)
    state = harness_state(config)
    key = (str(item.path), item.board.name)
    if key in state.outcomes:
        return (yield)
    run = _run(config)
    with run.running(item.board, item.binary, elf_path(item.board, item.binary)):
        result = yield
    report = state.outcomes.get(key)
    if report is not None:
        found = run.collect(item.board, item.binary, report)
        if not found.ok:
            state.progress(f"coverage MISSING for {item.binary} on {item.board.name}: {found.reason}")
    return result


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Merges every binary's coverage (the workers' too) and says where the reports are."""
    if not enabled(config) or RUN_KEY not in config.stash:
        return
    run = config.stash[RUN_KEY]
    results = load_results(run.folder)
    if not results:
        terminalreporter.write_line(f"harness: coverage: no micro binary ran, nothing measured ({run.folder})")
        return
    state = harness_state(config)
    with_data = sum(1 for r in results if r.ok)
    state.progress(f"coverage: merging the reports of {with_data} binaries")
    try:
        with state.ticking("coverage: merging"):
            merged = merge(run.folder, results)
    except ReportError as error:
        terminalreporter.write_line(f"harness: coverage: merging failed: {error}", red=True)
        merged = []
    (run.folder / "summary.json").write_text(json.dumps(
        {"binaries": as_dict(results),
         "merged": [{"folder": str(m.folder), "binaries": m.binaries, "lines_covered": m.totals.lines_covered,
                     "lines_total": m.totals.lines_total} for m in merged]}, indent=1))
    for line in summary_lines(run.folder, results, merged):
        terminalreporter.write_line(f"harness: {line}", red=line.startswith("coverage MISSING"))
