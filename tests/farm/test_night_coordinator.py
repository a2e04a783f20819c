"""``harness farm night`` (the real CLI) on a real labgrid farm whose coordinator is killed mid-night.

A coordinator and two exporter hosts of emulated bluepills (``harness.farm.demo``), a night of eight micro
binaries with ``-n 2``; once two binaries are recorded the coordinator is killed with SIGKILL. Restarted
a few seconds later, the workers reconnect and the night ends green with every binary passed; kept away,
every remaining binary fails at once as an infrastructure error with one line naming the coordinator, the
night is red, and nothing of it is left running. Either way the history holds every binary and the report
says what happened.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import junit_cases, mcu_unavailable, subprocess_env

from harness import REPO_ROOT

pytest.importorskip("labgrid", reason="the device farm needs labgrid: pip install labgrid")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))]

BINARIES = ["micro_test_test", "common_test", "micro_log_test", "micro_op_resolver_test", "builtin_parser_test",
            "model_verifier_test", "model_structure_test", "int64_bias_alignment_test"]


@pytest.fixture
def farm(tmp_path: Path) -> Iterator[Any]:
    from harness.board.boards import load_board
    from harness.farm.demo import FarmDemo

    with FarmDemo(load_board("bluepill"), hosts=2) as demo:
        demo.wait_for_saved_places()  # as a coordinator that has run a while: a restart reads its places back
        yield demo


def _binaries_done(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results WHERE case_id LIKE '%::binary-checks'")
                       .fetchone()[0])
    except sqlite3.Error:
        return 0


def _tagged(tag: str) -> list[int]:
    """Live processes started with ``tag`` in their environment: the night, its pytest, the xdist workers (whose
    command lines name nothing of the night) and anything they started."""
    found = []
    needle = tag.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ and state != "Z":
            found.append(int(entry))
    return found


def _night_with_a_killed_coordinator(demo: Any, tmp_path: Path, farm_table: str,
                                     restart_after_s: float | None) -> dict[str, Any]:
    """Runs the night, kills the coordinator once two binaries are recorded (restarting it after
    ``restart_after_s`` unless None); returns what the checks need."""
    from harness.core import procs

    rack = tmp_path / "farm.toml"
    rack.write_text(f'[farm]\ncoordinator = "{demo.coordinator}"\n{farm_table}')
    db, page = tmp_path / "history.db", tmp_path / "night.html"
    argv = [sys.executable, "-m", "harness", "farm", "night", "--board", "bluepill", "--hardware-map", str(rack),
            "--history", str(db), "-o", str(page), "-n", "2",
            *(f"micro_runtime/{name}.cc" for name in BINARIES)]
    env = {k: v for k, v in subprocess_env().items() if not k.startswith(("PYTEST_", "MICRO_HARNESS"))}
    tag = f"FARM_NIGHT_UNDER_TEST={uuid.uuid4().hex}"
    env.update([tag.split("=", 1)])
    night = subprocess.Popen(argv, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    try:
        deadline = time.monotonic() + 180
        while _binaries_done(db) < 2 and night.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        done_at_kill = _binaries_done(db)
        assert night.poll() is None and done_at_kill < len(BINARIES), "the night ended before the kill"
        coordinator = demo.processes[0]
        os.kill(coordinator.pid, signal.SIGKILL)
        procs.reap(coordinator)
        killed_at = time.monotonic()
        if restart_after_s is not None:
            time.sleep(restart_after_s)
            demo.restart_coordinator()
        output, _ = night.communicate(timeout=300)
        ended_after_s = time.monotonic() - killed_at
        # The night process is gone; nothing it started may be (its pytest, the workers, their clients).
        deadline = time.monotonic() + 5
        while _tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _tagged(tag)
    finally:
        if night.poll() is None:
            night.kill()
            night.wait(10)
        for pid in _tagged(tag):
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes of the night still running: {left}"
    junit = re.search(r"JUnit (\S+\.xml), report", output)
    assert junit is not None, output[-3000:]
    from harness.farm.history import History

    with History(db) as history:
        runs = history.runs()
        results = history.results()
    return {"output": output, "status": night.returncode, "runs": runs, "results": results, "page": page,
            "junit": junit_cases(Path(junit.group(1))), "done_at_kill": done_at_kill, "ended_after_s": ended_after_s,
            "coordinator": demo.coordinator}


def _status(page: Path) -> str:
    return page.read_text().split('id="status">', 1)[1].split("<", 1)[0]


def _checks(night: dict[str, Any]) -> dict[str, Any]:
    """Every binary accounted for: one binary-checks record each, every item of the JUnit file in the history."""
    results = night["results"]
    checks = {r.case_id.split("/")[-1].split(".cc::")[0]: r for r in results if r.case_id.endswith("::binary-checks")}
    assert sorted(checks) == sorted(BINARIES), night["output"][-3000:]
    assert len(results) == len(night["junit"]), (len(results), len(night["junit"]))
    assert len(night["runs"]) == 1 and night["runs"][0].exitstatus == night["status"]
    return checks


def test_a_night_whose_coordinator_is_killed_and_restarted_ends_green(farm: Any, tmp_path: Path) -> None:
    """The workers reconnect with backoff while the coordinator is away (3 s here) and find it again, and the
    exporters it lost come back (the demo restarts them, as a host's service manager would): every binary runs
    and passes; none waits for ever, none is a test failure with an asyncio traceback."""
    night = _night_with_a_killed_coordinator(farm, tmp_path, "reconnect_timeout_s = 60\n", restart_after_s=3.0)
    out = night["output"]
    checks = _checks(night)
    assert night["status"] == 0, out[-4000:]
    assert {name: r.outcome for name, r in checks.items()} == dict.fromkeys(BINARIES, "passed"), out[-4000:]
    assert all(r.outcome == "passed" for r in night["results"]), [r for r in night["results"] if r.outcome != "passed"]
    assert "Traceback" not in out and "TimeoutError" not in out, out[-4000:]
    assert _status(night["page"]) == "GREEN"


def test_a_night_whose_coordinator_stays_away_fails_fast_and_reads_red(farm: Any, tmp_path: Path) -> None:
    """Not back within reconnect_timeout_s (5 s here): each worker gives up once, and every binary after that fails
    at once (no 10 s connect, no acquire wait each) as an infrastructure error with one line naming the
    coordinator; the night is red, the report says why in one line, nothing is left running."""
    night = _night_with_a_killed_coordinator(farm, tmp_path, "reconnect_timeout_s = 5\nacquire_timeout_s = 30\n",
                                             restart_after_s=None)
    out, coordinator = night["output"], night["coordinator"]
    checks = _checks(night)
    assert night["status"] == 1, out[-4000:]
    failed = {name: r for name, r in checks.items() if r.outcome != "passed"}
    # At most one binary per worker was in flight at the kill (it finishes: its board does not need the coordinator).
    assert len(failed) >= len(BINARIES) - night["done_at_kill"] - 2 >= 3, (night["done_at_kill"], out[-4000:])
    gone = f"the labgrid coordinator at {coordinator} is gone"
    for result in night["results"]:
        if result.outcome == "passed":
            continue
        assert result.outcome == "error" and result.failure_class == "infra", result
        assert gone in (result.message or "") and " | " not in (result.message or ""), result.message
        assert not result.device_id, result  # it reached no board: no pseudo-device for health to list
    # Two workers each wait reconnect_timeout_s once; the rest fail at once (was: 10 s or more per binary).
    assert night["ended_after_s"] < 40, night["ended_after_s"]
    assert "Traceback" not in out and "TimeoutError" not in out, out[-4000:]
    html = night["page"].read_text()
    assert _status(night["page"]) == "RED"
    storm = re.search(r'<p class="storm" id="infra-storm">(.*?)</p>', html)
    assert storm is not None, html[:3000]
    infra = sum(r.outcome != "passed" for r in night["results"])
    assert re.search(rf"<b>{infra} of the {infra} new failures are infrastructure errors</b>, not test failures; "
                     rf"the most common \({infra}\): [^<]*{re.escape(gone)}", storm.group(1)), storm.group(1)


def test_the_demo_starts_its_coordinator_again(tmp_path: Path) -> None:
    """``harness farm demo`` supervises its coordinator as it does its exporters: killed, it is started again
    (its places made again when it died before saving them) and serves both places; never silently half-dead.
    Stopped with Ctrl-C, nothing of the demo is left running."""
    from harness.testing.processes import running_with

    rack = tmp_path / "farm.toml"
    demo = subprocess.Popen([sys.executable, "-m", "harness", "farm", "demo", "--board", "bluepill", "--hosts", "2",
                             "-o", str(rack), "--seconds", "120"], cwd=REPO_ROOT, env=subprocess_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert demo.stdout is not None
    coordinator = ""
    try:
        lines = []
        for line in demo.stdout:
            lines.append(line)
            found = re.match(r"labgrid coordinator (\S+);", line)
            coordinator = found.group(1) if found else coordinator
            if line.startswith("Ctrl-C stops the farm"):
                break
        assert coordinator, "".join(lines)
        pids = running_with(f"--listen {coordinator}")
        assert len(pids) == 1, pids
        os.kill(pids[0], signal.SIGKILL)
        for line in demo.stdout:
            lines.append(line)
            if "the labgrid coordinator is back" in line:
                break
        assert any("the labgrid coordinator exited (status -9); starting it again" in x for x in lines), lines
        deadline, listing = time.monotonic() + 30, ""
        while time.monotonic() < deadline:  # the exporters register again (the demo restarts them too)
            listing = subprocess.run([sys.executable, "-m", "harness", "farm", "places", "--hardware-map", str(rack)],
                                     cwd=REPO_ROOT, env=subprocess_env(), capture_output=True, text=True,
                                     timeout=60).stdout
            if listing.count("gdb=('127.0.0.1'") == 2:
                break
            time.sleep(0.5)
        assert listing.count("gdb=('127.0.0.1'") == 2 and listing.count(" healthy ") == 2, listing
        demo.send_signal(signal.SIGINT)
        demo.wait(30)
        assert demo.returncode == 0
        assert running_with(coordinator) == [], "the demo left its coordinator or exporters running"
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait(10)
        demo.stdout.close()
        for pid in running_with(coordinator) if coordinator else []:
            os.kill(pid, signal.SIGKILL)
