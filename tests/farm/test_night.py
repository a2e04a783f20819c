"""``harness farm night``: one JUnit file per night run, and a killed night leaves nothing running."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from farm_helpers import put
from harness_helpers import subprocess_env

from harness.testing.processes import running_with


def _night(work: Path, history: Path, *extra: str,
           wait: bool = True) -> subprocess.Popen[str] | subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "harness", "farm", "night", "--board", "host", "--history", str(history),
            "-o", str(history.with_name("night.html")), "-n", "1", *extra, str(work)]
    env = {k: v for k, v in subprocess_env().items() if not k.startswith(("PYTEST_", "MICRO_HARNESS"))}
    if not wait:
        return subprocess.Popen(argv, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_every_night_run_writes_its_own_junit_file(tmp_path: Path) -> None:
    work = tmp_path / "tests"
    work.mkdir()
    put(work, "pytester_pass")
    history = tmp_path / "farm" / "history.db"
    names = []
    for _ in range(2):
        proc = _night(work, history)
        assert isinstance(proc, subprocess.CompletedProcess)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
        found = re.search(r"JUnit (\S+night-\d{4}-\d{2}-\d{2}-\d{6}-\d+\.xml), report", proc.stdout)
        assert found is not None, proc.stdout[-2000:]
        assert Path(found.group(1)).is_file()
        names.append(found.group(1))
        time.sleep(1.1)  # the file name carries the time to the second
    assert names[0] != names[1]


def test_a_killed_night_leaves_no_pytest_behind(tmp_path: Path) -> None:
    """SIGKILL to the night process alone: its pytest (which would go on recording and write a JUnit file nobody
    reads) dies with it."""
    work = tmp_path / "tests"
    work.mkdir()
    put(work, "pytester_hang")
    history = tmp_path / "farm" / "history.db"
    night = _night(work, history, wait=False)
    assert isinstance(night, subprocess.Popen)
    marker = f"--history={history}"
    try:
        deadline = time.monotonic() + 120
        while not running_with(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert running_with(marker), "the night's pytest never started"
        time.sleep(3)  # its workers and the hanging binary are up
        night.send_signal(signal.SIGKILL)
        night.wait(timeout=10)
        deadline = time.monotonic() + 10
        while running_with(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert running_with(marker) == [], "pytest outlived its killed night"
    finally:
        for pid in running_with(marker):
            os.kill(pid, signal.SIGKILL)
        if night.stdout is not None:
            night.stdout.close()
