"""Issue 12 part 2: build and run progress reach the terminal under xdist too (from the workers,
prefixed with their id), per board, with the time left once it can be estimated; ``-q`` silences them."""

from __future__ import annotations

import subprocess
import sys
import time

from harness_helpers import subprocess_env

from harness import REPO_ROOT
from harness.build.make import progress_line


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", *args,
                           "micro_runtime/kernels/add_test.cc", "micro_runtime/kernels/mul_test.cc"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env=subprocess_env())


def test_workers_show_build_progress_per_board() -> None:
    proc = _pytest("--board=host")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    output = proc.stdout + proc.stderr
    assert "harness: [gw" in output and "binaries for host" in output, output
    assert "host: " in output and " binaries in " in output


def test_quiet_run_has_no_progress_lines() -> None:
    proc = _pytest("--board=host", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "harness: [gw" not in proc.stdout + proc.stderr


def test_progress_line_estimates_the_time_left() -> None:
    assert progress_line("bluepill", 0, 80, 10.0) == "bluepill: 0 compile/link steps in 10 s, still building"
    assert progress_line("bluepill", 20, 80, 10.0) == "bluepill: 20/80 compile/link steps in 10 s, about 30 s left"
    assert progress_line("bluepill", 10, 80, 20.0).endswith("about 2 min 20 s left")
    assert progress_line("host", 5, None, 12.0) == "host: 5 compile/link steps in 12 s, still building"


def test_a_long_run_says_it_is_still_running() -> None:
    from types import SimpleNamespace

    from harness.pytest.state import HarnessState

    lines: list[str] = []
    state = HarnessState(config=SimpleNamespace(), boards=[], backend=None, timeout_s=None)  # type: ignore[arg-type]
    state.progress = lines.append  # type: ignore[method-assign]
    with state.ticking("running x_test on bluepill (qemu)", every_s=0.1):
        time.sleep(0.35)
    assert lines and lines[0].startswith("running x_test on bluepill (qemu): still running after 0 s")
