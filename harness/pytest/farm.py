"""pytest side of the farm: ``--history``, ``--quarantine``, ``--gate``, board health.

Loaded by harness.pytest.plugin (``pytest_plugins``). Every micro item (``path::Case[board]`` and
``path::binary-checks[board]``) is recorded by the process that ran it (each xdist worker
writes its own records; the history file takes concurrent writers), so a run cut short keeps
what it finished. The controller opens the run, and at the end checks the gate, notes what the
quarantine did, and prints the farm section of the summary.

Size: just over 400 lines: the farm's pytest options and hooks (history, quarantine, gate) belong to
one plugin module; the logic they call is in ``harness.farm``.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness import REPO_ROOT
from harness.core.binary_info import file_sha256
from harness.farm import health
from harness.farm.history import CaseRecord, History, HistoryError, Measure, RunInfo
from harness.formats.micro_test import model_figures
from harness.hil import board_state
from harness.outcome import Outcome

if TYPE_CHECKING:
    from harness.farm.gate import Threshold

_FARM = pytest.StashKey["FarmState"]()
_PHASES = pytest.StashKey[dict[str, pytest.TestReport]]()

QUARANTINE_PREFIX = "quarantined: "


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("farm", "results history, quarantine, gate, board health (docs/farm.md)")
    group.addoption("--history", type=Path, default=None, metavar="PATH",
                    help="append one record per micro case x board of this run to this SQLite history")
    group.addoption("--night", default=None, metavar="YYYY-MM-DD",
                    help="the night this run belongs to (default: $HARNESS_NIGHT, else today)")
    group.addoption("--history-label", default="local", metavar="LABEL", help="run label, e.g. nightly (default local)")
    group.addoption("--history-commit", default=None, metavar="SHA",
                    help="commit recorded for the run (default: git rev-parse HEAD of the checkout)")
    group.addoption("--history-host", default=None, metavar="NAME", help="host recorded (default: this host's name)")
    group.addoption("--quarantine", type=Path, default=None, metavar="FILE",
                    help="quarantine file: matching cases run and are reported but do not fail the run")
    group.addoption("--quarantine-fixed-after", type=int, default=5, metavar="N",
                    help="report a quarantined case as fixed after N passing nights in a row (default 5)")
    group.addoption("--gate", default=None, metavar="BASELINE",
                    help="fail the run when a footprint/timing figure grew past its threshold against BASELINE: "
                    "a file written by `harness farm baseline`, or last-good (needs --history)")
    group.addoption("--gate-threshold", action="append", default=[], metavar="FIGURE=N%|FIGURE=+N",
                    help="gate threshold, e.g. flash_bytes=0.5%% or binary_duration_s=+2 (repeatable)")
    group.addoption("--health-rate", type=float, default=None, metavar="RATE",
                    help="infra-failure rate at which a device is taken out (default 0.25)")
    group.addoption("--health-min-runs", type=int, default=None, metavar="N",
                    help="binary runs a device needs before it can be judged (default 4)")
    group.addoption("--health-nights", type=int, default=7, metavar="N",
                    help="nights of history board health looks at (default 7)")


class FarmState:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.path: Path | None = config.getoption("history")
        worker = getattr(config, "workerinput", None)
        self.worker_id = worker.get("workerid") if worker else None
        shared = worker.get("farm") if worker else None
        if shared:
            self.run_id, self.night, self.host = shared["run_id"], shared["night"], shared["host"]
        else:
            self.run_id = uuid.uuid4().hex[:16]
            self.night = config.getoption("night") or os.environ.get("HARNESS_NIGHT") or dt.date.today().isoformat()
            self.host = config.getoption("history_host") or socket.gethostname()
        try:
            dt.date.fromisoformat(self.night)
        except ValueError as error:
            raise pytest.UsageError(f"--night {self.night!r}: not a date (YYYY-MM-DD)") from error
        self._history: History | None = None
        self.quarantine: Any = None
        self.thresholds: dict[str, Threshold] | None = None  # --gate-threshold over the defaults, with --gate
        self.quarantined_ran: list[tuple[str, str]] = []  # (nodeid, what happened), controller
        self.notes: list[tuple[str, str, str]] = []  # (kind, subject, text) for summary + history
        self.taken_out: list[str] = []
        self._measured: set[tuple[str, str]] = set()

    @property
    def history(self) -> History | None:
        if self.path is not None and self._history is None:
            try:
                self._history = History(self.path)
            except HistoryError as error:
                raise pytest.UsageError(f"--history: {error}") from error
        return self._history

    def binary_hash(self, elf: Path) -> str | None:
        try:
            return file_sha256(elf)[:16]
        except OSError:
            return None

    def note(self, kind: str, subject: str, text: str) -> None:
        self.notes.append((kind, subject, text))
        if self.history is not None:
            self.history.add_note(self.run_id, kind, subject, text)


def _controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def pytest_configure(config: pytest.Config) -> None:
    state = FarmState(config)
    config.stash[_FARM] = state
    quarantine_path = config.getoption("quarantine")
    if quarantine_path is not None:
        from harness.farm.quarantine import Quarantine, QuarantineError, load_quarantine

        try:
            state.quarantine = Quarantine(load_quarantine(quarantine_path), state.night)
        except QuarantineError as error:
            raise pytest.UsageError(f"--quarantine: {error}") from error
    gate = config.getoption("gate")
    if gate is not None and state.path is None:
        raise pytest.UsageError("--gate needs --history (the run's figures are read back from the history)")
    if gate is not None:
        from harness.farm.gate import GateError, parse_threshold

        state.thresholds = {}
        try:
            for spec in config.getoption("gate_threshold"):
                parse_threshold(spec, state.thresholds)
        except GateError as error:
            raise pytest.UsageError(str(error)) from error
    if state.path is None or not _controller(config):
        return
    history = state.history
    assert history is not None
    history.begin_run(RunInfo(run_id=state.run_id, night=state.night, started_at=time.time(),
                              commit_sha=config.getoption("history_commit") or _git_commit(), host=state.host,
                              label=config.getoption("history_label")))
    _take_out_unhealthy(config, state)


def _take_out_unhealthy(config: pytest.Config, state: FarmState) -> None:
    """Devices of the hardware map whose infra-failure rate is too high: quarantined before any run."""
    map_path = config.getoption("hardware_map", None)
    if map_path is None or state.history is None:
        return
    from harness.hil.devices import HardwareMapError, load_hardware_map

    try:
        hardware_map = load_hardware_map(map_path)
    except HardwareMapError:
        return  # hil_plugin reports the bad map
    rate = config.getoption("health_rate")
    min_runs = config.getoption("health_min_runs")
    rate = health.DEFAULT_RATE if rate is None else rate
    min_runs = health.DEFAULT_MIN_RUNS if min_runs is None else min_runs
    since = (dt.date.fromisoformat(state.night) - dt.timedelta(days=config.getoption("health_nights"))).isoformat()
    known = {device.id for device in hardware_map.devices}
    already = board_state.quarantined(hardware_map)
    for device in health.device_health(state.history, since_night=since):
        if device.device_id not in known or not device.unhealthy(rate, min_runs) or device.device_id in already:
            continue
        reason = f"farm health: {device.describe()} (threshold {rate:.0%})"
        board_state.quarantine(hardware_map, device.device_id, reason)
        state.taken_out.append(device.device_id)
        state.note("health", device.device_id,
                   f"taken out: {device.describe()}; `harness devices clear --hardware-map {map_path} "
                   f"{device.device_id}` brings it back")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist: workers record under the controller's run id, night and host."""
    state = node.config.stash[_FARM]
    node.workerinput["farm"] = {"run_id": state.run_id, "night": state.night, "host": state.host}


# ------------------------------------------------------------------ recording --
def _case_id(nodeid: str) -> str:
    return nodeid.rsplit("[", 1)[0]


def _failure_class(item: pytest.Item, props: dict[str, Any]) -> str:
    outcome = getattr(item, "outcome", None)
    if props.get("hil_failure_class") == "infra-error" or "unavailable" in props:
        return "infra"
    if outcome is not None and getattr(outcome, "outcome", None) in (Outcome.UNAVAILABLE, Outcome.INFRA_ERROR):
        return "infra"
    return "test"


def _first_line(report: pytest.TestReport) -> str | None:
    text = str(report.longrepr) if report.longrepr is not None else ""
    if isinstance(report.longrepr, tuple):  # skip: (path, line, reason)
        text = str(report.longrepr[2])
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(lines[:3])[:300] if lines else None


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    result = yield
    report: pytest.TestReport = result.get_result()
    state: FarmState | None = item.config.stash.get(_FARM, None)
    board = getattr(item, "board", None)
    if state is None or board is None or not hasattr(item, "binary"):
        return
    case_id = _case_id(item.nodeid)
    if state.quarantine is not None:
        entry = state.quarantine.entry_for(case_id, board.name)
        if entry is not None:
            if report.when == "setup":
                item.user_properties.append(("quarantined", entry.describe()))
                report.user_properties.append(("quarantined", entry.describe()))
            if report.failed:
                # Reported as an expected failure: it ran, it is in the report, it does not fail the run.
                report.outcome = "skipped"
                report.wasxfail = f"{QUARANTINE_PREFIX}{entry.describe()}"
                item.stash.setdefault(_PHASES, {})[f"{report.when}-quarantined"] = report
    item.stash.setdefault(_PHASES, {})[report.when] = report
    if report.when == "teardown" and state.path is not None:
        _record(item, state, item.stash[_PHASES])


def _record(item: Any, state: FarmState, phases: dict[str, pytest.TestReport]) -> None:
    setup, call, teardown = phases.get("setup"), phases.get("call"), phases.get("teardown")
    quarantined = any(k.endswith("-quarantined") for k in phases)
    outcome, message = "passed", None
    if setup is not None and (setup.failed or "setup-quarantined" in phases):
        outcome, message = "error", _first_line(setup)
    elif setup is not None and setup.skipped:
        outcome, message = "skipped", _first_line(setup)
    elif call is not None and (call.failed or "call-quarantined" in phases):
        outcome, message = "failed", _first_line(call)
    elif call is not None and call.skipped:
        outcome, message = "skipped", _first_line(call)
    elif teardown is not None and teardown.failed:
        outcome, message = "error", _first_line(teardown)
    props = dict(item.user_properties)
    binary_outcome = getattr(item, "outcome", None)
    build = getattr(binary_outcome, "build", None)
    elf = getattr(build, "elf", None)
    binary_hash = state.binary_hash(elf) if elf is not None else None
    backend = str(props.get("backend", getattr(binary_outcome, "backend", "?")))
    attempts = int(props.get("hil_attempts", 1) or 1)
    record = CaseRecord(
        run_id=state.run_id, case_id=_case_id(item.nodeid), board=item.board.name, outcome=outcome,
        binary=item.binary, backend=backend, binary_hash=binary_hash,
        failure_class=None if outcome in ("passed", "skipped") else _failure_class(item, props),
        duration_s=_float(props.get("duration_s")), binary_duration_s=_float(props.get("binary_duration_s")),
        flash_bytes=_int(props.get("flash_bytes")), ram_bytes=_int(props.get("ram_bytes")),
        device_id=_device_id(props, backend, state.host), host=state.host,
        infra_retries=max(0, attempts - 1), quarantined=int(quarantined), message=message,
        worker=state.worker_id)
    history = state.history
    assert history is not None
    history.add_results([record])
    key = (item.binary, item.board.name)
    if key not in state._measured and binary_outcome is not None and build is not None:
        state._measured.add(key)
        history.add_measures(_measures(state, item, binary_outcome, binary_hash))
        # A retried run: each failed try is blamed on its own device (board health), not on the rescuer.
        history.add_failed_attempts(health.failed_attempts(state.run_id, item.board.name, item.binary,
                                                           binary_outcome.run, state.host))


def _device_id(props: dict[str, Any], backend: str, host: str) -> str | None:
    """The device a result ran on: the hardware map's board, else this host's emulator or host runner (``qemu@ci-3``);
    None for a binary that never reached a board of its map (no place was free or usable): that is nobody's
    health sample (the history keeps the result, its failure class says infra)."""
    if props.get("hil_device"):
        return str(props["hil_device"])
    if backend.startswith("hil:"):
        return None
    return f"{backend}@{host}"


def _measures(state: FarmState, item: Any, binary_outcome: Any, binary_hash: str | None) -> list[Measure]:
    found = []

    def add(figure: str, value: float | None, subject: str = "") -> None:
        if value is not None:
            found.append(Measure(state.run_id, item.board.name, item.binary, figure, float(value), subject,
                                 binary_hash))

    footprint = getattr(binary_outcome.build, "footprint", None)
    if footprint is not None:
        add("flash_bytes", footprint.flash)
        add("ram_bytes", footprint.ram)
    if binary_outcome.run is not None:
        add("binary_duration_s", binary_outcome.duration_s)
        for case, count in getattr(binary_outcome, "case_instructions", {}).items():
            add("case_instructions", count, case)
        for case, count in getattr(binary_outcome, "case_cycles", {}).items():
            add("case_cycles", count, case)  # estimated (docs/measurement.md)
        for case, count in getattr(binary_outcome, "case_stack", {}).items():
            add("case_stack_bytes", count, case)
        for figure, model, value in model_figures(binary_outcome.log or b""):
            add(figure, value, model)
    return found


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Quarantined items that ran (on the process printing the summary, from workers' reports too)."""
    if report.when != "teardown" and not getattr(report, "wasxfail", "").startswith(QUARANTINE_PREFIX):
        return
    config = _CONFIG.get("config")
    if config is None:
        return
    state = config.stash.get(_FARM, None)
    if state is None or not _controller(config):
        return
    props = dict(report.user_properties)
    if report.when != "teardown":
        state.quarantined_ran.append((report.nodeid, f"{report.when} failed, not counted"))
    elif "quarantined" in props and not any(n == report.nodeid for n, _ in state.quarantined_ran):
        state.quarantined_ran.append((report.nodeid, "passed"))


_CONFIG: dict[str, pytest.Config] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    _CONFIG["config"] = session.config


# ------------------------------------------------------------------ end of run --
@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash.get(_FARM, None)
    if state is None or not _controller(config):
        return
    if state.quarantine is not None:
        for entry in state.quarantine.expired:
            state.note("quarantine", entry.case, f"expired on {entry.expires}, no longer applies: {entry.describe()}")
        for nodeid, what in state.quarantined_ran:
            entry = state.quarantine.entry_for(_case_id(nodeid), nodeid.rsplit("[", 1)[-1].rstrip("]"))
            state.note("quarantine", nodeid, f"{what} under quarantine: {entry.describe() if entry else '?'}")
    history = state.history
    if history is None:
        return
    _note_unhealthy_places(config, state)
    if config.getoption("gate") is not None:
        _gate(session, state, history)
    if state.quarantine is not None:
        from harness.farm.quarantine import fixed_cases

        after = config.getoption("quarantine_fixed_after")
        for fixed in fixed_cases(history, state.quarantine, after):
            state.note("fixed", f"{fixed.case_id}[{fixed.board}]",
                       f"passed {after} nights in a row under quarantine: fixed? remove its entry "
                       f"({fixed.entry.describe()})")
    history.finish_run(state.run_id, int(session.exitstatus))


def _note_unhealthy_places(config: pytest.Config, state: FarmState) -> None:
    """The farm's places tagged unhealthy at the end of the run (by this run or before it), as health notes in the
    history and the report: a place whose exporter died is not a healthy one that happened to run nothing."""
    map_path = config.getoption("hardware_map", None)
    if map_path is None:
        return
    from harness.hil.devices import HardwareMapError, load_hardware_map

    try:
        farm_table = load_hardware_map(map_path).farm
    except HardwareMapError:
        return
    if not farm_table:
        return
    from harness.farm.places import Farm, FarmError

    coordinator = str(farm_table["coordinator"])
    try:
        farm = Farm(coordinator)
    except FarmError as error:
        state.note("health", "farm", f"ERROR: could not read the places of {coordinator}: {error}")
        return
    try:
        from harness.farm.places import unreachable_reason

        for place in farm.places():
            if place.unhealthy:
                state.note("health", place.name, f"unhealthy on {coordinator} (labgrid tag, board "
                           f"{place.board}, host {place.tags.get('host', '?')}): {place.unhealthy}; after fixing it: "
                           f"harness farm clear --coordinator {coordinator} {place.name}")
            elif place.address("GDBServer") is None:  # not tagged (it may come back), but not healthy either
                state.note("health", place.name, f"not available on {coordinator}: {unreachable_reason(place)}")
    except FarmError as error:
        state.note("health", "farm", f"ERROR: could not read the places of {coordinator}: {error}")
    finally:
        farm.close()


def _gate(session: pytest.Session, state: FarmState, history: History) -> None:
    from harness.farm import gate

    spec = session.config.getoption("gate")
    try:
        baseline = (gate.last_good_baseline(history, state.night) if spec == "last-good"
                    else gate.load_baseline(Path(spec)))
    except gate.GateError as error:
        state.note("gate", "baseline", f"ERROR: {error}")
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
        return
    if baseline is None:
        state.note("gate", "baseline", "no earlier night where every run passed: nothing to compare against yet")
        return
    current = gate.figures_of_runs(history, [state.run_id])
    violations = gate.check(current, baseline, state.thresholds)
    compared = sum(1 for key in current if key in baseline.figures)
    for violation in violations:
        state.note("gate", f"{violation.binary}[{violation.board}]", f"FAILED: {violation.describe()} "
                   f"vs {baseline.source}")
    ran = {(board, binary) for board, binary in history.query(
        "SELECT DISTINCT board, binary FROM results WHERE run_id = ? AND binary IS NOT NULL", (state.run_id,))}
    absent = gate.missing(current, baseline, ran)
    if absent:
        listed = ", ".join(f"{figure} of {binary}{f' ({subject})' if subject else ''} on {board}"
                           for figure, board, binary, subject in absent[:8])
        more = f" and {len(absent) - 8} more" if len(absent) > 8 else ""
        state.note("gate", "baseline", f"MISSING: {len(absent)} baseline figures have no value tonight although "
                   f"their binary ran (a failed build, a run that ended early): {listed}{more}")
    if not violations:
        state.note("gate", "baseline", f"passed: {compared} figures within thresholds vs {baseline.source}")
    elif session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_FARM, None)
    if state is None or not _controller(config):
        return
    lines: list[tuple[str, bool]] = []
    if state.history is not None:
        count = state.history.query("SELECT COUNT(*) FROM results WHERE run_id = ?", (state.run_id,))[0][0]
        lines.append((f"recorded {count} micro results into {state.path} (run {state.run_id}, night {state.night})",
                      False))
    for kind, subject, text in state.notes:
        red = text.startswith(("FAILED", "ERROR", "taken out", "MISSING")) or kind == "health"
        lines.append((f"{kind}: {subject}: {text}", red))
    if not lines:
        return
    terminalreporter.section("farm")
    for line, red in lines:
        terminalreporter.write_line(line, red=red, yellow=not red and not line.startswith("recorded"))
