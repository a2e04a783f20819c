"""``harness farm night`` (the real CLI) on a real labgrid farm whose coordinator is killed mid-night.

A coordinator and two exporter hosts of emulated bluepills (``harness.farm.demo``; each in a network namespace of
its own where permitted: ``conftest.farm_network``), a night of eight micro
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
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from farm_helpers import Night, night_with_a_fault, page_status
from harness_helpers import mcu_unavailable, subprocess_env

from harness import REPO_ROOT

pytest.importorskip("labgrid", reason="the device farm needs labgrid: pip install labgrid")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))]

BINARIES = ["micro_test_test", "common_test", "micro_log_test", "micro_op_resolver_test", "builtin_parser_test",
            "model_verifier_test", "model_structure_test", "int64_bias_alignment_test"]


@pytest.fixture
def farm(netns_farm: Any) -> Any:
    """The two-host farm (``conftest.netns_farm``: each host in a network namespace of its own where permitted), its
    coordinator having saved its places, as one that has run a while: a restart reads them back."""
    netns_farm.wait_for_saved_places()
    return netns_farm


def _night_with_a_killed_coordinator(demo: Any, tmp_path: Path, farm_table: str,
                                     restart_after_s: float | None) -> Night:
    """Runs the night, kills the coordinator once two binaries are recorded (restarting it after
    ``restart_after_s`` unless None)."""
    from harness.core import procs

    def kill() -> None:
        coordinator = demo.processes[0]
        os.kill(coordinator.pid, signal.SIGKILL)
        procs.reap(coordinator)

    def restart() -> None:
        if restart_after_s is not None:
            time.sleep(restart_after_s)
            demo.restart_coordinator()

    return night_with_a_fault(demo.coordinator, tmp_path, [f"micro_runtime/{name}.cc" for name in BINARIES], kill,
                              farm_table=farm_table, then=restart)


def test_a_night_whose_coordinator_is_killed_and_restarted_ends_green(farm: Any, tmp_path: Path) -> None:
    """The workers reconnect with backoff while the coordinator is away (3 s here) and find it again, and the
    exporters it lost come back (the demo restarts them, as a host's service manager would): every binary runs
    and passes; none waits for ever, none is a test failure with an asyncio traceback."""
    night = _night_with_a_killed_coordinator(farm, tmp_path, "reconnect_timeout_s = 60\n", restart_after_s=3.0)
    out = night.output
    checks = night.checks(BINARIES)
    assert night.status == 0, out[-4000:]
    assert {name: r.outcome for name, r in checks.items()} == dict.fromkeys(BINARIES, "passed"), out[-4000:]
    assert all(r.outcome == "passed" for r in night.results), [r for r in night.results if r.outcome != "passed"]
    assert "Traceback" not in out and "TimeoutError" not in out, out[-4000:]
    assert page_status(night.page) == "GREEN"


def test_a_night_whose_coordinator_stays_away_fails_fast_and_reads_red(farm: Any, tmp_path: Path) -> None:
    """Not back within reconnect_timeout_s (5 s here): each worker gives up once, and every binary after that fails
    at once (no 10 s connect, no acquire wait each) as an infrastructure error with one line naming the
    coordinator; the night is red, the report says why in one line, nothing is left running."""
    night = _night_with_a_killed_coordinator(farm, tmp_path, "reconnect_timeout_s = 5\nacquire_timeout_s = 30\n",
                                             restart_after_s=None)
    out, coordinator = night.output, farm.coordinator
    checks = night.checks(BINARIES)
    assert night.status == 1, out[-4000:]
    failed = {name: r for name, r in checks.items() if r.outcome != "passed"}
    # At most one binary per worker was in flight at the kill (it finishes: its board does not need the coordinator).
    assert len(failed) >= len(BINARIES) - night.done_at_fault - 2 >= 3, (night.done_at_fault, out[-4000:])
    gone = f"the labgrid coordinator at {coordinator} is gone"
    for result in night.results:
        if result.outcome == "passed":
            continue
        assert result.outcome == "error" and result.failure_class == "infra", result
        assert gone in (result.message or "") and " | " not in (result.message or ""), result.message
        assert not result.device_id, result  # it reached no board: no pseudo-device for health to list
    # Two workers each wait reconnect_timeout_s once; the rest fail at once (was: 10 s or more per binary).
    assert night.ended_after_s < 40, night.ended_after_s
    assert "Traceback" not in out and "TimeoutError" not in out, out[-4000:]
    html = night.page.read_text()
    assert page_status(night.page) == "RED"
    storm = re.search(r'<p class="storm" id="infra-storm">(.*?)</p>', html)
    assert storm is not None, html[:3000]
    infra = sum(r.outcome != "passed" for r in night.results)
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
