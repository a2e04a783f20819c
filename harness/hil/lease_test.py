"""Leases are real flocks held by real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from harness import REPO_ROOT
from harness.hil.lease import acquire_any, default_lock_dir, file_lock, holder, try_acquire

_HOLDER = """
import sys, time
from pathlib import Path
from harness.hil.lease import try_acquire
lease = try_acquire(sys.argv[1], Path(sys.argv[2]))
print("held" if lease else "busy", flush=True)
time.sleep(60)
"""


def _hold_in_subprocess(device: str, lock_dir: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, device, str(lock_dir)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_lease_is_exclusive_across_processes_and_freed_when_the_holder_dies(tmp_path: Path) -> None:
    proc = _hold_in_subprocess("board-1", tmp_path)
    try:
        assert try_acquire("board-1", tmp_path) is None  # no double booking
        assert f"pid={proc.pid}" in (holder("board-1", tmp_path) or "")
        other = try_acquire("board-2", tmp_path)  # other boards are unaffected
        assert other is not None
        other.release()
    finally:
        proc.send_signal(signal.SIGKILL)  # a crashed worker: no cleanup code runs
        proc.wait(timeout=5)
    lease = try_acquire("board-1", tmp_path)
    assert lease is not None, "the kernel must drop the lock of a dead process"
    lease.release()
    assert holder("board-1", tmp_path) is None


def test_acquire_any_takes_a_free_board_and_waits_bounded(tmp_path: Path) -> None:
    proc = _hold_in_subprocess("a", tmp_path)
    try:
        lease = acquire_any(["a", "b"], tmp_path, timeout_s=1.0)
        assert lease is not None and lease.device_id == "b"
        start = time.monotonic()
        assert acquire_any(["a", "b"], tmp_path, timeout_s=0.3) is None  # everything busy
        assert 0.25 <= time.monotonic() - start < 2
        lease.release()
        again = acquire_any(["a", "b"], tmp_path, timeout_s=0.3)
        assert again is not None and again.device_id == "b"
        again.release()
    finally:
        proc.kill()
        proc.wait(timeout=5)


def test_same_process_cannot_lease_twice(tmp_path: Path) -> None:
    with try_acquire("x", tmp_path) as first:  # type: ignore[union-attr]
        assert first.held
        assert try_acquire("x", tmp_path) is None
    assert not first.held


def test_odd_device_ids_are_safe_file_names(tmp_path: Path) -> None:
    lease = try_acquire("rack/a:1 ../../etc", tmp_path)
    assert lease is not None and lease.path.parent == tmp_path
    lease.release()


def test_lock_dir_sits_next_to_the_map(tmp_path: Path) -> None:
    assert default_lock_dir(tmp_path / "rack.toml") == tmp_path / ".rack.locks"
    assert default_lock_dir(None).is_dir()


def test_file_lock_serializes(tmp_path: Path) -> None:
    with file_lock(tmp_path / "state.lock"):
        with_timeout = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from harness.hil.lease import file_lock\n"
                "try:\n with file_lock(Path(sys.argv[1]), timeout_s=0.3): print('got')\n"
                "except TimeoutError as e: print('timeout', e)",
                str(tmp_path / "state.lock"),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
            timeout=30,
        )
    assert with_timeout.stdout.startswith("timeout") and "stuck" in with_timeout.stdout
