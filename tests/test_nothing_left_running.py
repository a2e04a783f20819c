"""Nothing left running: a signal to pytest (with and without -n), ``harness run`` or ``harness
devices emulate`` ends every process they started, and an emulator killed from outside is an
infrastructure error, never a firmware verdict. Real processes, real QEMU, real signals.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, plugin_args, requires_mcu, run_cli, subprocess_env

from harness.board.boards import load_board
from harness.core import procs
from harness.formats.reader import parse_log
from harness.runners import get_runner


def _children() -> dict[int, int]:
    """pid -> parent pid of every live, non-zombie process."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            table[int(entry)] = int(fields[1])
    return table


def _descendants(root: int) -> set[int]:
    table = _children()
    found: set[int] = set()
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                frontier.append(pid)
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pids: set[int]) -> set[int]:
    table = _children()
    return {pid for pid in pids if pid in table}


def _signal_when_running(argv: list[str], cwd: Path, sig: int, emulators: int = 1) -> tuple[int, str]:
    """Starts ``argv``; once ``emulators`` QEMUs run below it, sends ``sig`` to it alone and checks
    that it exits and that no process it started (QEMU, xdist workers) is left."""
    child = subprocess.Popen(argv, cwd=cwd, env=subprocess_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and child.poll() is None:
            below = _descendants(child.pid)
            seen |= below
            if sum("qemu-system-arm" in _cmdline(pid) for pid in below) >= emulators:
                break
            time.sleep(0.1)
        assert child.poll() is None, child.communicate()[0].decode(errors="replace")[-2000:]
        time.sleep(0.5)  # the emulator is running the firmware now
        seen |= _descendants(child.pid)
        child.send_signal(sig)
        out, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    deadline = time.monotonic() + 3
    while _alive(seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = {pid: _cmdline(pid) for pid in _alive(seen)}
    assert not left, f"left running after {signal.Signals(sig).name}: {left}"
    return child.returncode, out.decode(errors="replace")


@pytest.fixture
def hang_project(tmp_path: Path) -> Path:
    shutil.copyfile(FIXTURES / "pytester_hang.cc", tmp_path / "hang_test.cc")
    return tmp_path


@requires_mcu
@pytest.mark.parametrize(
    ("sig", "workers"),
    [(signal.SIGTERM, 0), (signal.SIGTERM, 2), (signal.SIGINT, 0), (signal.SIGHUP, 2)],
    ids=["TERM", "TERM-n2", "INT", "HUP-n2"],
)
def test_signal_to_pytest_leaves_nothing_running(hang_project: Path, sig: int, workers: int) -> None:
    argv = [sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:cacheprovider", "--board=bluepill",
            "--micro-timeout=300", "hang_test.cc"]
    if workers:
        argv += ["-n", str(workers)]
    code, out = _signal_when_running(argv, hang_project, sig)
    assert code != 0, out[-2000:]


@requires_mcu
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_signal_to_harness_run_leaves_nothing_running(mcu_programs: dict[str, Path], tmp_path: Path, sig: int) -> None:
    argv = [sys.executable, "-m", "harness", "run", str(mcu_programs["hang"]), "--board", "bluepill",
            "--backend", "qemu", "--timeout", "300"]
    code, out = _signal_when_running(argv, tmp_path, sig)
    assert code in (130, 143), out[-2000:]


@requires_mcu
def test_sigterm_to_devices_emulate_leaves_nothing_running(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "harness", "devices", "emulate", "--board", "bluepill", "--count", "2",
            "-o", str(tmp_path / "rack.toml")]
    _signal_when_running(argv, tmp_path, signal.SIGTERM, emulators=2)


def _run_and_kill(runner_name: str, elf: Path, board_name: str, sig: int, match: str):  # type: ignore[no-untyped-def]
    """Runs ``elf``; a thread sends ``sig`` to the device process (cmdline contains ``match``) once
    it has run a moment, as a CI cancel or the OOM killer would."""
    before = set(procs.live_pids())

    def kill_it() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            started = [pid for pid in procs.live_pids() if pid not in before and match in _cmdline(pid)]
            if started:
                time.sleep(0.4)
                os.kill(started[0], sig)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_it)
    killer.start()
    run = get_runner(runner_name).run(elf, load_board(board_name), 60)
    killer.join()
    return run


@requires_mcu
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=["KILL", "TERM", "INT"])
def test_emulator_killed_from_outside_is_an_infra_error(mcu_programs: dict[str, Path], sig: int) -> None:
    run = _run_and_kill("qemu", mcu_programs["hang"], "bluepill", sig, "qemu")
    assert run.end_reason == "infra-error" and "from outside" in (run.infra_error or ""), run
    assert parse_log(run.log, run).outcome == "infra-error"


def test_host_test_killed_by_an_unknown_sender_is_its_own_crash(host_programs: dict[str, Path]) -> None:
    """Not sent by the harness, and the harness was not stopped: no different from the test's own
    kill(getpid(), SIGTERM), so a crash; what the harness sent or suffered is an infrastructure error
    (harness/runners/host_tree_test.py)."""
    run = _run_and_kill("host", host_programs["hang"], "host", signal.SIGTERM, "hang_test")
    assert run.end_reason == "crash" and run.exit_code == -signal.SIGTERM and run.infra_error is None, run


def test_a_leaked_process_fails_the_run(pytester: pytest.Pytester) -> None:
    """The plugin's own end-of-run check: a process spawned through harness.core.procs and left behind
    is killed, named, and turns a green run red."""
    pytester.makepyfile(
        test_leak="""
        from harness.core import procs

        def test_leaks():
            procs.spawn(["sleep", "300"])  # never reaped
        """
    )
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "--no-micro-tests")
    assert result.ret == 1
    assert "outlived it and were killed" in result.stderr.str()
    assert "sleep 300" in result.stderr.str()


def test_cli_exit_code_of_a_missing_binary_is_unchanged() -> None:
    """(sanity) the signal handlers do not disturb ordinary CLI errors."""
    out = run_cli("run", "/nonexistent.elf", "--board", "bluepill")
    assert out.returncode == 5, out.stderr
