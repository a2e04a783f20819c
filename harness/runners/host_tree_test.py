"""Host runs follow the binary's whole process tree, and a death by a signal is attributed right.

Real native programs built in the test's tmp dir: children and grandchildren whose output comes
after the main process exited, children left running, tests that kill themselves, and runs the
harness itself stops.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.core import procs
from harness.formats.reader import parse_log
from harness.runners import process as _process
from harness.runners.base import RunResult
from harness.runners.host import HostRunner
from harness.runners.process import GROUP_LINGER_S

PROGRAM = r"""
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char* s) { fputs(s, stdout); fflush(stdout); }
static void passed(void) { say("1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"); }
static void quiet(void) {  /* no pipe of the run stays open: only the process group finds it */
  int fd = open("/dev/null", O_WRONLY);
  dup2(fd, 1); dup2(fd, 2); close(fd);
}
static void hang(void) { for (;;) pause(); }

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "pass";
  say("Testing One\n");
  if (!strcmp(mode, "pass")) { passed(); return 0; }
  if (!strcmp(mode, "hang")) hang();
  if (!strcmp(mode, "fork_late")) {  /* the child's failure comes after the parent exited 0 */
    if (fork() == 0) { usleep(500000); say("a == b failed at child.c:7 (1 vs 2)\n"); _exit(0); }
    passed();
    return 0;
  }
  if (!strcmp(mode, "fork_waited")) {  /* an ordinary child the test waits for */
    pid_t child = fork();
    if (child == 0) { say("child done\n"); _exit(0); }
    waitpid(child, NULL, 0);
    passed();
    return 0;
  }
  if (!strcmp(mode, "fork_stuck") || !strcmp(mode, "fork_stuck_quiet")) {
    if (fork() == 0) {
      printf("child %d\n", (int)getpid()); fflush(stdout);
      if (!strcmp(mode, "fork_stuck_quiet")) quiet();
      hang();
    }
    usleep(100000);  /* the child's line first */
    passed();
    return 0;
  }
  if (!strcmp(mode, "grandchild_late") || !strcmp(mode, "grandchild_stuck")) {
    pid_t child = fork();
    if (child == 0) {  /* double fork: the grandchild is re-parented at once */
      if (fork() == 0) {
        printf("grandchild %d\n", (int)getpid()); fflush(stdout);
        if (!strcmp(mode, "grandchild_stuck")) { quiet(); hang(); }
        usleep(500000);
        say("grandchild done\n");
        _exit(0);
      }
      _exit(0);
    }
    waitpid(child, NULL, 0);
    usleep(100000);
    passed();
    return 0;
  }
  if (!strcmp(mode, "self_signal")) {  /* kill(getpid(), SIG) */
    int sig = atoi(argv[2]);
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    hang();
  }
  return 2;
}
"""

MODES = ("pass", "hang", "fork_late", "fork_waited", "fork_stuck", "fork_stuck_quiet", "grandchild_late",
         "grandchild_stuck")
SIGNALS = (signal.SIGTERM, signal.SIGKILL, signal.SIGINT, signal.SIGHUP)


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One wrapper script per mode (``exec``: the program is the group leader) around one program."""
    if shutil.which("cc") is None:
        pytest.skip("cc not found; install it: apt-get install gcc")
    base = tmp_path_factory.mktemp("host_tree")
    (base / "tree.c").write_text(PROGRAM)
    subprocess.run(["cc", "-O1", "-o", str(base / "tree_prog"), str(base / "tree.c")], check=True)
    result = {}
    for mode in MODES:
        result[mode] = _script(base / f"{mode}.sh", f'exec "{base / "tree_prog"}" {mode}')
    for sig in SIGNALS:
        result[sig.name] = _script(base / f"{sig.name}.sh", f'exec "{base / "tree_prog"}" self_signal {int(sig)}')
    return result


def _script(path: Path, line: str) -> Path:
    path.write_text(f"#!/bin/sh\n{line}\n")
    path.chmod(0o755)
    return path


def _run(path: Path, timeout_s: float = 20.0, on_line: Callable[[str], None] | None = None) -> RunResult:
    return HostRunner().run(path, load_board("host"), timeout_s, on_line)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _pid_after(log: bytes, word: str) -> int:
    match = re.search(rf"^{word} (\d+)$".encode(), log, re.MULTILINE)
    assert match is not None, log
    return int(match[1])


@pytest.fixture
def short_linger(monkeypatch: pytest.MonkeyPatch) -> float:
    """A 1 s linger for the runs that use all of it (one test keeps the real one)."""
    monkeypatch.setattr(_process, "GROUP_LINGER_S", 1.0)
    return 1.0


# -- the whole process tree ------------------------------------------------------------------------

def test_forked_child_output_after_the_parent_exited_is_waited_for(programs: dict[str, Path]) -> None:
    lines: list[str] = []
    start = time.monotonic()
    run = _run(programs["fork_late"], on_line=lines.append)
    took = time.monotonic() - start
    assert run.exit_code == 0 and run.end_reason == "exit" and not run.timed_out  # the main process's status
    assert b"a == b failed at child.c:7 (1 vs 2)\n" in run.log and "a == b failed at child.c:7 (1 vs 2)" in lines
    assert 0.5 <= run.duration_s <= took < GROUP_LINGER_S  # waited for the child, not for the whole linger
    assert run.problems == []  # the child ended by itself
    report = parse_log(run.log, run)
    assert report.outcome == "failed", report.summary  # its failure counts, it is no longer a silent pass


def test_child_the_test_waits_for_is_quick(programs: dict[str, Path]) -> None:
    run = _run(programs["fork_waited"])
    assert run.exit_code == 0 and run.problems == [] and b"child done\n" in run.log
    assert run.duration_s < 0.5
    assert parse_log(run.log, run).outcome == "passed"


def test_child_left_running_fails_the_run_and_is_killed(programs: dict[str, Path]) -> None:
    """The real linger: the run waits GROUP_LINGER_S after the main process exited, then names the child."""
    start = time.monotonic()
    run = _run(programs["fork_stuck"], timeout_s=30)
    took = time.monotonic() - start
    assert GROUP_LINGER_S <= took < GROUP_LINGER_S + 1.5
    assert GROUP_LINGER_S <= run.duration_s <= took
    child = _pid_after(run.log, "child")
    assert run.exit_code == 0 and run.end_reason == "exit" and not run.timed_out
    assert len(run.problems) == 1, run.problems
    assert re.fullmatch(rf"left process {child} running \(.*tree_prog fork_stuck\) after the test's main process "
                        "exited", run.problems[0]), run.problems
    assert [note.text for note in run.notes] == run.problems  # a note says it too, apart from the device's bytes
    assert b"[harness]" not in run.log and f"[harness] {run.problems[0]}\n".encode() in run.annotated_log
    assert not _alive(child)
    report = parse_log(run.log, run)
    assert report.outcome == "failed" and "left process" in report.summary, report.summary


def test_quiet_child_is_found_by_its_process_group(programs: dict[str, Path], short_linger: float) -> None:
    """A child that closed every pipe of the run is still part of it."""
    run = _run(programs["fork_stuck_quiet"])
    child = _pid_after(run.log, "child")
    assert [p.split(" (")[0] for p in run.problems] == [f"left process {child} running"], run.problems
    assert short_linger <= run.duration_s < short_linger + 1.0
    assert not _alive(child)


def test_double_forked_grandchild_output_is_part_of_the_run(programs: dict[str, Path]) -> None:
    run = _run(programs["grandchild_late"])
    grandchild = _pid_after(run.log, "grandchild")
    assert run.log.endswith(b"grandchild done\n"), run.log
    assert run.exit_code == 0 and run.problems == [] and 0.5 <= run.duration_s < GROUP_LINGER_S
    assert not _alive(grandchild)


def test_double_forked_grandchild_left_running_is_named_and_killed(
    programs: dict[str, Path], short_linger: float
) -> None:
    run = _run(programs["grandchild_stuck"])
    grandchild = _pid_after(run.log, "grandchild")
    assert len(run.problems) == 1 and run.problems[0].startswith(f"left process {grandchild} running ("), run.problems
    assert "tree_prog grandchild_stuck" in run.problems[0]
    assert not _alive(grandchild)
    assert parse_log(run.log, run).outcome == "failed"


def test_the_deadline_bounds_the_linger(programs: dict[str, Path]) -> None:
    start = time.monotonic()
    run = _run(programs["fork_stuck"], timeout_s=1.0)
    assert time.monotonic() - start < 1.5
    assert run.exit_code == 0 and len(run.problems) == 1 and "left process" in run.problems[0]
    assert not _alive(_pid_after(run.log, "child"))


def test_a_normal_run_ends_at_once(programs: dict[str, Path]) -> None:
    """No child: the run ends at the main process's exit, as fast as without the linger."""
    for _ in range(3):
        start = time.monotonic()
        run = _run(programs["pass"])
        took = time.monotonic() - start
        assert run.exit_code == 0 and run.problems == [] and run.end_reason == "exit"
        assert took < 0.5 and run.duration_s < 0.5  # far below GROUP_LINGER_S
        assert parse_log(run.log, run).outcome == "passed"


def test_problems_fail_a_passing_log() -> None:
    """RunResult.problems (default empty) fail a run whose log passed."""
    log = b"Testing One\n1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"
    clean = RunResult("host", log, 0, False, 0.1, "exit")
    assert clean.problems == [] and parse_log(log, clean).outcome == "passed"
    left = RunResult("host", log, 0, False, 0.1, "exit", problems=["left process 1 running (x) after the test's "
                                                                    "main process exited"])
    report = parse_log(log, left)
    assert report.outcome == "failed" and "left process 1 running" in report.summary


# -- who killed the test ---------------------------------------------------------------------------

@pytest.mark.parametrize("sig", SIGNALS, ids=[s.name for s in SIGNALS])
def test_a_test_that_signals_itself_crashed(programs: dict[str, Path], sig: signal.Signals) -> None:
    run = _run(programs[sig.name])
    assert run.infra_error is None and run.end_reason == "crash", run
    assert run.exit_code == -int(sig)
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and f"killed by signal {sig.name}" in report.summary, report.summary


def test_timeout_kill_is_a_timeout_not_a_crash(programs: dict[str, Path]) -> None:
    run = _run(programs["hang"], timeout_s=0.5)
    assert run.timed_out and run.end_reason == "timeout" and run.exit_code is None and run.infra_error is None
    assert parse_log(run.log, run).outcome == "timeout"


def _during_run(action: Callable[[int], None]) -> Callable[[], None]:
    """A thread body: once the run's process is up, ``action(pid)``."""
    before = set(procs.live_pids())

    def body() -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            started = [pid for pid in procs.live_pids() if pid not in before]
            if started:
                time.sleep(0.2)
                action(started[0])
                return
            time.sleep(0.01)

    return body


def _run_with(programs: dict[str, Path], action: Callable[[int], None]) -> RunResult:
    thread = threading.Thread(target=_during_run(action))
    thread.start()
    try:
        return _run(programs["hang"])
    finally:
        thread.join()


def test_signal_the_harness_sent_is_an_infra_error(programs: dict[str, Path]) -> None:
    run = _run_with(programs, lambda pid: procs.signal_group(pid, signal.SIGTERM))
    assert run.end_reason == "infra-error" and run.exit_code is None, run
    assert "killed by SIGTERM after the harness sent SIGTERM to its process group" in (run.infra_error or "")
    assert parse_log(run.log, run).outcome == "infra-error"


def test_signal_from_elsewhere_is_the_tests_crash(programs: dict[str, Path]) -> None:
    """Neither the harness nor its own stop: as if the test had sent it (it cannot be told apart)."""
    run = _run_with(programs, lambda pid: os.kill(pid, signal.SIGTERM))
    assert run.infra_error is None and run.exit_code == -signal.SIGTERM
    assert parse_log(run.log, run).outcome == "crashed"


@pytest.mark.parametrize("harness_first", [True, False], ids=["harness-first", "harness-just-after"])
def test_test_killed_while_the_harness_was_stopped_is_an_infra_error(
    programs: dict[str, Path], harness_first: bool
) -> None:
    """A stop that reaches every process (a CI cancel): the harness's own signal handler notes it, before
    or a moment after the test died of it."""

    def stop_everything(pid: int) -> None:
        if harness_first:
            procs.note_harness_signal("SIGTERM")
        os.kill(pid, signal.SIGTERM)
        if not harness_first:
            time.sleep(0.05)
            procs.note_harness_signal("SIGTERM")

    run = _run_with(programs, stop_everything)
    assert run.end_reason == "infra-error", run
    assert (run.infra_error or "").startswith("the harness was stopped by SIGTERM while hang.sh ran"), run.infra_error
    # An earlier stop of the harness says nothing about a later run.
    later = _run(programs["SIGTERM"])
    assert later.infra_error is None and later.exit_code == -signal.SIGTERM


def test_keyboard_interrupt_is_noted_as_the_harness_stopping(programs: dict[str, Path]) -> None:
    def interrupt(line: str) -> None:
        raise KeyboardInterrupt

    since = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _run(programs["hang"], on_line=interrupt)
    assert procs.harness_signal(since) == "KeyboardInterrupt"
    assert procs.harness_signal(time.monotonic() + 1) is None


# -- the bookkeeping -------------------------------------------------------------------------------

def test_group_members_skips_zombies_and_other_groups() -> None:
    proc = procs.spawn(["sh", "-c", "sleep 30 & sleep 30 & wait"])
    try:
        def sleepers() -> int:  # a forked child shows the shell's command line until it has exec'd sleep
            return sorted(dict(procs.group_members(proc.pid)).values()).count("sleep 30")

        deadline = time.monotonic() + 5
        while sleepers() < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        members = dict(procs.group_members(proc.pid))
        assert proc.pid in members and sorted(members.values()).count("sleep 30") == 2, members
        assert os.getpid() not in members
    finally:
        procs.reap(proc)
    deadline = time.monotonic() + 2
    while procs.group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert procs.group_members(proc.pid) == []


def test_signal_sent_is_timed_and_forgotten_for_a_new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    proc = procs.spawn(["sleep", "30"])
    try:
        assert procs.signal_sent(proc.pid) is None
        before = time.monotonic()
        procs.signal_group(proc.pid, signal.SIGTERM)
        assert procs.signal_sent(proc.pid) == "SIGTERM"
        assert procs.signal_sent(proc.pid, before=time.monotonic()) == "SIGTERM"
        assert procs.signal_sent(proc.pid, before=before - 1) is None  # sent after that time
        proc.wait(timeout=5)
    finally:
        procs.reap(proc)
    assert procs.signal_sent(proc.pid) == "SIGTERM"  # the first one is kept (reap's SIGKILL came later)

    class Reused:  # a new process that got the same pid
        pid = proc.pid

    monkeypatch.setattr(subprocess, "Popen", lambda *args, **kwargs: Reused())
    try:
        procs.spawn(["true"])
        assert procs.signal_sent(proc.pid) is None
    finally:
        with procs._lock:
            procs._live.pop(proc.pid, None)
