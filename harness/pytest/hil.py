"""pytest side of hardware-in-the-loop runs: ``--hardware-map``, failure classes in reports.

Loaded by harness.pytest.plugin (``pytest_plugins = ["harness.pytest.hil"]``).

    pytest --board=bluepill --hardware-map rack.toml -n 3

runs every binary on a board of the map instead of an emulator; with several
boards of one type the xdist workers share them, each board leased by one
worker at a time (harness.hil.lease). Infrastructure errors are retried on another
board and the board is quarantined (harness.hil.board_state); test failures are
never retried. Each item gets JUnit properties ``hil_device``,
``hil_failure_class``, ``hil_attempts`` (and ``hil_retried`` after a retry);
the terminal summary lists retries and quarantined boards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.board.boards import Board
from harness.hil import board_state

_MAP_KEY = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness")
    group.addoption(
        "--hardware-map",
        dest="hardware_map",
        type=Path,
        default=None,
        metavar="FILE",
        help="run MCU boards on the real (or emulated) boards listed in this TOML file "
        "(harness devices scan writes one; see docs/hardware.md)",
    )
    group.addoption(
        "--hil-retries",
        dest="hil_retries",
        type=int,
        default=None,
        metavar="N",
        help="retries on another board after an infrastructure error (default: 2)",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("hardware_map", None)
    if path is None:
        return
    from harness.hil.devices import HardwareMapError, load_hardware_map

    try:
        config.stash[_MAP_KEY] = load_hardware_map(path)
    except HardwareMapError as error:
        raise pytest.UsageError(f"--hardware-map: {error}") from error


def runner_override(config: pytest.Config, board: Board) -> Any | None:
    """The runner for ``board`` when ``--hardware-map`` is given (None: use the normal backend)."""
    hardware_map = config.stash.get(_MAP_KEY, None)
    if hardware_map is None or board.is_host:
        return None
    from harness.hil.pool import MAX_RETRIES, select_runner_for

    retries = config.getoption("hil_retries", None)
    return select_runner_for(hardware_map, MAX_RETRIES if retries is None else max(0, retries))


def hil_properties(attempts: list[Any]) -> list[tuple[str, str]]:
    """JUnit properties of the HIL run of one binary from its attempts (``RunResult.attempts``: empty if it did
    not run through a pool of the map or the farm)."""
    if not attempts:
        return []
    last = attempts[-1]
    props = [
        ("hil_device", last.device),
        ("hil_failure_class", str(last.failure_class)),  # plain text: xdist sends properties between processes
        ("hil_attempts", str(len(attempts))),
    ]
    if len(attempts) > 1:
        earlier = "; ".join(f"{a.device}: {a.infra_error or a.failure_class}" for a in attempts[:-1])
        props.append(("hil_retried", earlier))
    return props


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    board = getattr(item, "board", None)
    outcome_of_binary = getattr(item, "outcome", None)
    run = getattr(outcome_of_binary, "run", None)
    if board is None or run is None or report.when == "teardown":
        return
    present = {name for name, _ in item.user_properties}
    for name, value in hil_properties(run.attempts):
        if name not in present:
            item.user_properties.append((name, value))
            report.user_properties.append((name, value))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Runs on the xdist controller too: aggregate from the reports' properties.
    props = dict(report.user_properties)
    if "hil_device" not in props:
        return
    seen = _SEEN.setdefault(report.nodeid.split("::")[0] + "|" + str(props.get("board", "")), {})
    seen.update({k: str(v) for k, v in props.items() if k.startswith("hil_")})


_SEEN: dict[str, dict[str, str]] = {}


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    hardware_map = config.stash.get(_MAP_KEY, None)
    if hardware_map is None:
        return
    lines = []
    by_device: dict[str, int] = {}
    for binary, props in sorted(_SEEN.items()):
        by_device[props["hil_device"]] = by_device.get(props["hil_device"], 0) + 1
        if "hil_retried" in props:
            lines.append(f"retried {binary.split('|')[0]} on {props['hil_device']} after: {props['hil_retried']}")
        if props.get("hil_failure_class") == "infra-error":
            lines.append(f"infrastructure error: {binary.split('|')[0]} (no board could run it)")
    quarantined = board_state.quarantined(hardware_map)
    if not (lines or quarantined or by_device):
        return
    terminalreporter.section("hardware in the loop")
    usage = ", ".join(f"{device}: {count}" for device, count in sorted(by_device.items()))
    if usage:
        terminalreporter.write_line(f"binaries per board: {usage}")
    for line in lines:
        terminalreporter.write_line(line)
    for device_id, entry in quarantined.items():
        terminalreporter.write_line(
            f"QUARANTINED {device_id}: {entry.get('reason', '')} (since {entry.get('since', '?')}; "
            f"harness devices clear --hardware-map {hardware_map.path} {device_id})"
        )
