"""pytest fixtures for Python-level device tests: ``dut``, ``dut_factory``, ``count``; per-test DUT logs.

    def test_echo(dut):                                   # one DUT on the --board under test
        dut.start("echo_test"); dut.write("hi\\n"); dut.expect_exact("echo: hi")

    @pytest.mark.parametrize("count", [2], indirect=True)  # pytest-embedded's convention
    def test_pair(dut):                                    # dut is then a tuple of 2 Duts
        a, b = dut

    def test_mixed(dut_factory):                           # any number, any boards
        host, mcu = dut_factory("host"), dut_factory("bluepill")

Every DUT is independent: its own runner thread and device process, so several run at once
(Renode runs one binary at a time per pytest process: its DUTs take turns). At teardown each is
stopped, its process killed and reaped. Everything a DUT printed is written, as it arrives, to
``<run dir>/<test node id, sanitized>/<dut name>.log`` (``dut.log``, or ``dut-0.log``,
``dut-1.log`` ... with ``count``); a failing test's report lists these files. The run dir is
``--run-dir DIR``, by default ``<build folder>/runs/<date>-<time>-<pid>`` (the build folder is
``micro_runtime/gen`` in this repository), the newest also reachable as ``runs/latest``; xdist
workers share the controller's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from harness.board.boards import Board, BoardError, load_board
from harness.pytest.dut import Dut

KEEP_RUNS = 20  # run dirs kept in the default location (older ones are deleted when a new one starts)
_RUN_DIR = pytest.StashKey[Path]()
_DEFAULT = pytest.StashKey[bool]()
_LOGS = pytest.StashKey[dict[str, Path]]()
_NAME_MAX = 120


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness", "micro_runtime tests on boards (harness plugin)")
    group.addoption("--run-dir", default=None, metavar="DIR",
                    help="folder of this run's DUT logs: DIR/<test>/<dut>.log (default: <build folder>/runs/"
                    "<date>-<time>-<pid>, the newest also as <build folder>/runs/latest)")


def _runs_root() -> Path:
    from harness.build.make import gen_dir

    return gen_dir("runs")  # <build folder>/runs


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    worker = getattr(config, "workerinput", None)
    chosen = config.getoption("run_dir", None)
    if worker is not None and worker.get("harness_run_dir"):
        config.stash[_RUN_DIR] = Path(worker["harness_run_dir"])
        config.stash[_DEFAULT] = bool(worker.get("harness_run_dir_default"))
    elif chosen:
        config.stash[_RUN_DIR] = Path(chosen).resolve()
        config.stash[_DEFAULT] = False
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        config.stash[_RUN_DIR] = _runs_root() / f"{stamp}-{os.getpid()}"
        config.stash[_DEFAULT] = True


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist: every worker writes into the controller's run dir."""
    node.workerinput["harness_run_dir"] = str(node.config.stash[_RUN_DIR])
    node.workerinput["harness_run_dir_default"] = node.config.stash[_DEFAULT]


def run_dir(config: pytest.Config) -> Path:
    """This run's DUT log folder, created on first use (runs without DUTs leave nothing behind)."""
    path = config.stash[_RUN_DIR]
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        if config.stash[_DEFAULT]:
            _point_latest(path)
            _prune(path.parent, keep=path)
    return path


def _point_latest(path: Path) -> None:
    link = path.parent / "latest"
    temp = path.parent / f".latest-{os.getpid()}"
    with contextlib.suppress(OSError):
        if temp.is_symlink():
            temp.unlink()
        temp.symlink_to(path.name)
        os.replace(temp, link)


def _prune(root: Path, keep: Path) -> None:
    runs = sorted(p for p in root.iterdir()
                  if p.is_dir() and not p.is_symlink() and re.match(r"\d{8}-\d{6}-\d+$", p.name))
    for old in runs[:-KEEP_RUNS]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def log_dir_name(nodeid: str) -> str:
    """A node id as one folder name: path separators, ``::`` and brackets become ``_`` or ``.``."""
    name = re.sub(r"[^A-Za-z0-9._=-]+", "_", nodeid.replace("::", ".")).strip("._") or "test"
    if len(name) > _NAME_MAX:
        digest = hashlib.sha1(nodeid.encode()).hexdigest()[:10]
        name = f"{name[:_NAME_MAX - 11]}-{digest}"
    return name


class DutFactory:
    """Makes Duts for one test: ``dut_factory(board=None, name=None)``; all are closed at teardown."""

    def __init__(self, request: pytest.FixtureRequest, board: Board) -> None:
        self._request = request
        self._board = board
        self.duts: list[Dut] = []

    def _name(self, wanted: str | None) -> str:
        taken = {d.name for d in self.duts}
        if wanted is not None:
            if wanted in taken or not re.fullmatch(r"[A-Za-z0-9._-]+", wanted):
                raise ValueError(f"DUT name {wanted!r} is taken or not a plain file name (letters, digits, . _ -)")
            return wanted
        if "dut" not in taken and not self.duts:
            return "dut"
        index = len(self.duts)
        while f"dut-{index}" in taken:
            index += 1
        return f"dut-{index}"

    def __call__(self, board: str | Board | None = None, *, name: str | None = None,
                 timeout: float | None = None, expect_timeout: float | None = None) -> Dut:
        """A new Dut on ``board`` (a name or Board; default: the test's ``board``), named ``name``
        (default ``dut``, then ``dut-1``, ``dut-2`` ...); ``timeout``: its default run limit."""
        from harness.pytest.state import harness_state as _state
        from harness.runners import ResolveError

        config = self._request.config
        state = _state(config)
        if board is None:
            target = self._board
        elif isinstance(board, Board):
            target = board
        else:
            try:
                target = load_board(board)
            except BoardError as error:
                raise pytest.UsageError(f"dut_factory: {error}") from error
        try:
            resolved = state.resolve(target)
        except ResolveError as error:
            raise pytest.UsageError(str(error)) from error
        reason = resolved.runner.unavailable_reason(target)
        if reason is not None:
            message = f"{resolved.label} cannot run {target.name}: {reason}"
            if state.skip_unavailable:
                pytest.skip(message)
            pytest.fail(f"{message} (pass --skip-unavailable to skip instead)", pytrace=False)
        dut_name = self._name(name)
        log_path = run_dir(config) / log_dir_name(self._request.node.nodeid) / f"{dut_name}.log"
        device = Dut(target, resolved.label, timeout if timeout is not None else state.timeout_for(target),
                     progress=state.progress, runner=resolved.runner, name=dut_name, log_path=log_path)
        if expect_timeout is not None:
            device.expect_timeout = expect_timeout
        self.duts.append(device)
        logs = self._request.node.stash.setdefault(_LOGS, {})
        logs[dut_name] = log_path
        self._request.node.user_properties.append((f"dut_log_{dut_name}", str(log_path)))
        return device

    def close_all(self) -> None:
        """Stops every Dut (all at once, then waits for each); the first failure is raised after all."""
        for device in self.duts:
            if device.running and device._control is not None:
                device._control.stop(f"stopped at the end of the test ({device.name})")
        errors = []
        for device in self.duts:
            try:
                device.close()
            except Exception as error:  # every DUT is closed before one failure is reported
                errors.append(error)
        if errors:
            raise errors[0]


@pytest.fixture
def count(request: pytest.FixtureRequest) -> int:
    """How many DUTs ``dut`` gives: 1, or what ``@pytest.mark.parametrize("count", [N], indirect=True)`` says."""
    value = getattr(request, "param", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise pytest.UsageError(f"count must be an integer >= 1, not {value!r}")
    return value


@pytest.fixture
def dut_factory(board: Board, request: pytest.FixtureRequest) -> Any:
    """Makes Duts on demand: ``dut_factory()`` (the test's board), ``dut_factory("host", name="peer")``."""
    factory = DutFactory(request, board)
    yield factory
    factory.close_all()


@pytest.fixture
def dut(dut_factory: DutFactory, count: int) -> Any:
    """A Dut on the board under test (``dut.start``, ``write``, ``expect``, ``expect_exact``, ``wait``);
    with ``count`` > 1 a tuple of Duts ``dut-0``, ``dut-1``, ..."""
    if count == 1:
        return dut_factory(name="dut")
    return tuple(dut_factory(name=f"dut-{index}") for index in range(count))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing test that used DUTs names their full logs in its report."""
    report = yield
    logs = item.stash.get(_LOGS, None)
    if logs and report.failed:
        report.sections.append(("dut logs", "\n".join(f"{name}: {path}" for name, path in logs.items())))
    return report
