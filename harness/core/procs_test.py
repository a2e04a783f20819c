"""procs.spawn: the parent-death signal without Python in the child, and a missing program reported as Popen does."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.core import procs


def test_a_missing_program_is_an_oserror_as_with_popen() -> None:
    with pytest.raises(FileNotFoundError):
        procs.spawn(["no-such-program-of-the-harness"], stdout=subprocess.DEVNULL)


def test_a_file_that_is_no_program_is_an_exec_format_error_as_with_popen(tmp_path: Path) -> None:
    text = tmp_path / "not_a_program"
    text.write_text("this is text\n")
    text.chmod(0o755)
    with pytest.raises(OSError, match="Exec format error"):
        procs.spawn([str(text)], stdout=subprocess.DEVNULL)


def test_a_relative_program_is_found_in_the_working_folder_given(tmp_path: Path) -> None:
    script = tmp_path / "tool.sh"
    script.write_text("#!/bin/sh\nexit 7\n")
    script.chmod(0o755)
    proc = procs.spawn(["./tool.sh"], cwd=tmp_path, stdout=subprocess.DEVNULL)
    assert proc.wait(timeout=10) == 7
    procs.reap(proc)


def test_a_child_dies_with_the_harness_even_by_sigkill(tmp_path: Path) -> None:
    """A harness process with busy threads spawns a long sleep, sees it running, then is SIGKILLed: the sleep
    (its own process group, so no group kill reaches it) ends too, by its parent-death signal."""
    pid_file, alive_file = tmp_path / "pid", tmp_path / "alive"
    script = f"""
import threading, time, os, signal
from harness.core import procs
busy = [threading.Thread(target=lambda: [sum(range(1000)) for _ in range(10**9)], daemon=True) for _ in range(2)]
for t in busy: t.start()
proc = procs.spawn(["sleep", "60"])
open({str(pid_file)!r}, "w").write(str(proc.pid))
time.sleep(0.3)
if proc.poll() is None:
    open({str(alive_file)!r}, "w").write("alive")
os.kill(os.getpid(), signal.SIGKILL)
"""
    subprocess.run([sys.executable, "-c", script], timeout=30, check=False)
    pid = int(pid_file.read_text())
    assert alive_file.exists(), "the sleep did not run while its harness did"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split()[2] == "Z":
                    break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        subprocess.run(["kill", "-9", str(pid)], check=False)
        pytest.fail("the spawned sleep outlived the harness that started it")
