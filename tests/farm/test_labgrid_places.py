"""The device farm through a real labgrid: a labgrid-coordinator and two labgrid-exporter
processes ("hosts") on 127.0.0.1, each exporting an emulated bluepill (QEMU behind a GDB stub and
a raw TCP UART). Nothing here is mocked: the places are acquired in-process through labgrid's
client library, the micro tests run on the QEMU boards through their GDB stubs.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_helpers import mcu_unavailable, subprocess_env

from harness import REPO_ROOT
from harness.board.boards import load_board

pytest.importorskip("labgrid", reason="the device farm needs labgrid: pip install labgrid")
pytestmark = pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))

BLUEPILL = load_board("bluepill") if mcu_unavailable() is None else None
# The framework's record that starts a case: "~~~MT <seq> <mac> BEGIN <name>".
BEGIN_RECORD = re.compile(r"~~~MT [0-9]+ [0-9a-f]{8} BEGIN \w+")


@pytest.fixture
def farm_demo() -> Iterator:  # type: ignore[type-arg]
    from harness.farm.demo import FarmDemo

    with FarmDemo(load_board("bluepill"), hosts=2) as demo:
        yield demo


def _farm(demo):  # type: ignore[no-untyped-def]
    from harness.farm.places import Farm

    return Farm(demo.coordinator)


def test_micro_suite_runs_across_both_hosts(farm_demo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rack = farm_demo.write_map(tmp_path / "farm.toml")
    xml = tmp_path / "junit.xml"
    files = ["micro_runtime/micro_test_test.cc", "micro_runtime/common_test.cc", "micro_runtime/micro_log_test.cc",
             "micro_runtime/micro_op_resolver_test.cc"]
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                          "--board=bluepill", f"--hardware-map={rack}", f"--junitxml={xml}", *files],
                         cwd=REPO_ROOT, env=subprocess_env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    backends = {p.get("value") for p in ET.parse(xml).getroot().iter("property") if p.get("name") == "backend"}
    assert backends == {"hil:farm"}
    assert "micro test cases ran (bluepill (hil:farm):" in out.stdout
    logs = REPO_ROOT / "micro_runtime" / "gen" / "bluepill" / "logs"
    used = set()
    for name in ("micro_test_test", "common_test", "micro_log_test", "micro_op_resolver_test"):
        first = (logs / f"{name}.log").read_text(errors="replace").splitlines()[0]
        assert first.startswith("[harness] place farmhost"), first
        used.add(first.split()[2])
    assert used == set(farm_demo.boards), used  # both hosts' boards served the run
    farm = _farm(farm_demo)
    try:
        assert all(p.acquired is None for p in farm.places())  # every place released
    finally:
        farm.close()


def test_board_killed_mid_run_is_retried_elsewhere_and_marked_unhealthy(farm_demo) -> None:  # type: ignore[no-untyped-def]
    from harness.build.driver import ensure_binary
    from harness.farm.farm_runner import FarmRunner, close_sessions
    from harness.formats.reader import parse_log
    from harness.hil.devices import HardwareMap

    elf = ensure_binary(BLUEPILL, "micro_log_test", progress=None)
    runner = FarmRunner(HardwareMap([], farm={"coordinator": farm_demo.coordinator}))
    state: dict[str, str] = {}

    def kill_the_first_board(line: str) -> None:
        if line.startswith("[harness] place ") and "place" not in state:
            state["place"] = line.split()[2]
        elif BEGIN_RECORD.search(line) and "killed" not in state:
            farm_demo.boards[state["place"]].stop()
            state["killed"] = state["place"]

    try:
        run = runner.run(elf, BLUEPILL, 60, on_line=kill_the_first_board)
    finally:
        close_sessions()
    report = parse_log(run.log, run, elf, BLUEPILL)
    assert report.outcome == "passed", (report.summary, run.log[-800:])
    assert len(runner.last_places) == 2 and runner.last_places[0] == state["killed"]
    assert f"infrastructure error on {state['killed']}" in run.annotated_log.decode(errors="replace")
    # What the history records of it: one failed attempt, on the board that was killed (not on the rescuer).
    from harness.farm.health import failed_attempts

    blamed = failed_attempts("night-run", "bluepill", "micro_log_test", run, "farm-host")
    assert [(a.attempt, a.device_id) for a in blamed] == [(1, state["killed"])], blamed
    farm = _farm(farm_demo)
    try:
        sick = {p.name: p.unhealthy for p in farm.places()}
        assert sick[state["killed"]] and not sick[runner.last_places[1]], sick
        assert farm.clear() == [state["killed"]]
    finally:
        farm.close()


def test_a_restarted_coordinator_is_found_again(farm_demo) -> None:  # type: ignore[no-untyped-def]
    """The coordinator stopped and started mid-night: the exporters it lost come back (the demo restarts them,
    as a host's service manager would), this process's stale client session is replaced, and the next binary
    runs; while the coordinator is away a binary is an infrastructure error naming it, not a test failure."""
    from harness.build.driver import ensure_binary
    from harness.farm.farm_runner import FarmRunner, close_sessions
    from harness.formats.reader import parse_log
    from harness.hil.devices import HardwareMap

    elf = ensure_binary(BLUEPILL, "micro_log_test", progress=None)
    runner = FarmRunner(HardwareMap([], farm={"coordinator": farm_demo.coordinator}))
    try:
        first = runner.run(elf, BLUEPILL, 60)
        assert parse_log(first.log, first, elf, BLUEPILL).outcome == "passed", first.infra_error
        farm_demo.wait_for_saved_places()  # as a coordinator that has run for a while has them
        from harness.core import procs

        procs.reap(farm_demo.processes[0], term_first=True)  # gone ...
        runner.acquire_timeout_s = runner.reconnect_timeout_s = 5.0
        started = time.monotonic()
        away = runner.run(elf, BLUEPILL, 30)
        assert away.end_reason == "infra-error" and "labgrid coordinator" in (away.infra_error or ""), away
        assert "is gone: not back after 5 s of reconnecting" in (away.infra_error or ""), away.infra_error
        assert 4.0 <= time.monotonic() - started < 20, "reconnected with backoff for the bounded time"
        started = time.monotonic()
        again = runner.run(elf, BLUEPILL, 30)  # given up on: the next binary fails at once, with the same line
        assert again.infra_error == away.infra_error and time.monotonic() - started < 2.0
        farm_demo.restart_coordinator()  # ... and back
        runner.acquire_timeout_s = 60.0
        second = runner.run(elf, BLUEPILL, 60)
        report = parse_log(second.log, second, elf, BLUEPILL)
        assert report.outcome == "passed", (report.summary, second.infra_error)
    finally:
        close_sessions()


def test_two_clients_never_share_a_board_and_a_freed_board_reaches_the_waiter(farm_demo) -> None:  # type: ignore[no-untyped-def]
    from harness.farm.places import FarmError

    first, second, third = _farm(farm_demo), _farm(farm_demo), _farm(farm_demo)
    try:
        a = first.acquire("bluepill")
        b = second.acquire("bluepill")
        assert a.name != b.name
        with pytest.raises(FarmError, match="no bluepill place became free"):
            third.acquire("bluepill", timeout_s=1.0)
        got: dict[str, float] = {}

        def wait_for_one() -> None:
            place = third.acquire("bluepill", timeout_s=30)
            got[place.name] = time.monotonic()

        waiter = threading.Thread(target=wait_for_one)
        waiter.start()
        time.sleep(0.5)
        freed_at = time.monotonic()
        first.release(a.name)
        waiter.join(30)
        assert list(got) == [a.name]
        assert got[a.name] - freed_at <= 2.0
    finally:
        for farm in (first, second, third):
            farm.close()


def test_worker_killed_with_sigkill_leaves_no_locked_place(farm_demo) -> None:  # type: ignore[no-untyped-def]
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from harness.farm.places import Farm\n"
         f"farm = Farm({farm_demo.coordinator!r})\n"
         "places = [farm.acquire('bluepill').name, farm.acquire('bluepill').name]\n"
         "print(' '.join(places), flush=True)\n"
         "time.sleep(300)\n"],
        env=subprocess_env(), stdout=subprocess.PIPE, text=True)
    try:
        held = holder.stdout.readline().split()  # type: ignore[union-attr]
        assert sorted(held) == sorted(farm_demo.boards)
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    finally:
        if holder.poll() is None:
            holder.kill()
    farm = _farm(farm_demo)
    try:
        assert any(p.acquired for p in farm.places())  # labgrid itself never expires the dead worker's locks
        start = time.monotonic()
        place = farm.acquire("bluepill", timeout_s=10)  # reclaims this host's dead owners first
        assert place.name in held and time.monotonic() - start < 5
    finally:
        farm.close()


def test_unreachable_board_is_skipped_and_tagged_unhealthy(farm_demo) -> None:  # type: ignore[no-untyped-def]
    dead = sorted(farm_demo.boards)[0]
    farm_demo.boards[dead].stop()
    farm = _farm(farm_demo)
    try:
        place = farm.acquire("bluepill", timeout_s=10)
        assert place.name != dead
        assert "not reachable" in ({p.name: p.unhealthy for p in farm.places()}[dead] or "")
    finally:
        farm.close()


def test_unhealthy_places_reach_the_history_and_the_farm_summary(farm_demo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A place whose board died is tagged unhealthy by the run that found it; the run's farm summary and its
    history name it (the report reads the history's notes), with the reason and the command that clears it."""
    from harness.farm.history import History

    dead = sorted(farm_demo.boards)[0]
    farm_demo.boards[dead].stop()
    rack = farm_demo.write_map(tmp_path / "farm.toml")
    db = tmp_path / "farm.db"
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--board=bluepill",
                          f"--hardware-map={rack}", f"--history={db}", "micro_runtime/micro_log_test.cc"],
                         cwd=REPO_ROOT, env=subprocess_env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    line = next((x for x in out.stdout.splitlines() if x.startswith(f"health: {dead}: unhealthy on ")), None)
    assert line is not None and "GDB server 127.0.0.1:" in line and "not reachable" in line, out.stdout[-2000:]
    assert f"harness farm clear --coordinator {farm_demo.coordinator} {dead}" in line
    with History(db) as history:
        notes = [n for n in history.notes() if n["kind"] == "health" and n["subject"] == dead]
    assert len(notes) == 1 and "not reachable" in notes[0]["text"]


def test_clear_removes_the_unhealthy_tag_from_the_coordinator(farm_demo) -> None:  # type: ignore[no-untyped-def]
    """labgrid's SetPlaceTags merges tags and deletes only keys sent empty: clearing must send the tag empty,
    or the place stays unhealthy while `harness farm clear` says "cleared" (seen on a real coordinator)."""
    name = sorted(farm_demo.boards)[0]
    farm = _farm(farm_demo)
    try:
        farm.mark_unhealthy(name, "probe lost")
        assert {p.name: p.unhealthy for p in farm.places()}[name] == "probe lost"
        assert farm.clear([name]) == [name]
    finally:
        farm.close()
    again = _farm(farm_demo)  # a fresh client sees what the coordinator kept
    try:
        place = next(p for p in again.places() if p.name == name)
        assert place.unhealthy is None and "unhealthy" not in place.tags, place.tags
        assert again.acquire("bluepill", timeout_s=10) is not None  # it serves again
    finally:
        again.close()


def test_farm_without_places_for_the_board_is_an_error_naming_the_fix(farm_demo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from harness.farm.farm_runner import FarmRunner, close_sessions
    from harness.hil.devices import HardwareMap

    netduino = load_board("netduinoplus2")
    try:
        reason = FarmRunner(HardwareMap([], farm={"coordinator": farm_demo.coordinator})).unavailable_reason(netduino)
    finally:
        close_sessions()
    assert reason is not None and "no place tagged board=netduinoplus2" in reason


def test_unreachable_coordinator_is_an_error_naming_the_fix() -> None:
    from harness.farm.places import Farm, FarmError

    with pytest.raises(FarmError, match="cannot reach the labgrid coordinator"):
        Farm("127.0.0.1:1", connect_timeout_s=3)


def test_cli_places_and_clear(farm_demo) -> None:  # type: ignore[no-untyped-def]
    env = dict(subprocess_env())
    out = subprocess.run([sys.executable, "-m", "harness", "farm", "places", "--coordinator", farm_demo.coordinator],
                         capture_output=True, text=True, env=env, timeout=60, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    assert all(name in out.stdout for name in farm_demo.boards) and "healthy" in out.stdout
    out = subprocess.run([sys.executable, "-m", "harness", "farm", "clear", "--coordinator", farm_demo.coordinator,
                          "nosuchplace"], capture_output=True, text=True, env=env, timeout=60, cwd=REPO_ROOT)
    assert out.returncode == 5 and "no such place" in out.stderr
    assert os.environ.get("LG_COORDINATOR") is None or True


@pytest.mark.parametrize("status", ["INTERNAL", "UNKNOWN"])
def test_labgrid_pump_task_ending_reads_as_one_line_not_a_traceback(status: str,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A killed coordinator can end labgrid's client stream with INTERNAL ("Internal error from Core") rather than
    UNAVAILABLE; labgrid's own background task then logs a traceback on the root logger, which read in a night's
    output as a harness crash (seen in CI). Runs labgrid's real ``message_pump`` against a stream that fails so,
    with the filter a farm session installs: one line naming the status, no traceback."""
    import asyncio

    import grpc
    from labgrid.remote.client import ClientSession

    from harness.farm import places

    class _Stub:
        def ClientStream(self, requests: object) -> object:
            async def fail() -> object:
                raise grpc.aio.AioRpcError(getattr(grpc.StatusCode, status), details="Internal error from Core")
                yield  # an async generator, as labgrid iterates it

            return fail()

    session = object.__new__(ClientSession)
    session.stub = _Stub()
    session.out_queue = asyncio.Queue()
    session.stopping = asyncio.Event()
    session.sync_events = {}
    root = __import__("logging").getLogger()
    root.addFilter(places._PUMP_FILTER)
    try:
        with caplog.at_level("ERROR"):
            asyncio.run(session.message_pump())
    finally:
        root.removeFilter(places._PUMP_FILTER)
    pump = [r for r in caplog.records if r.funcName == "message_pump"]
    assert len(pump) == 1, caplog.text
    assert pump[0].exc_info is None and "Traceback" not in caplog.text, caplog.text
    assert f"coordinator's stream ended ({status})" in pump[0].getMessage()
