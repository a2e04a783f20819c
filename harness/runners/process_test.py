"""run_process with tiny Python programs: lines in order, the exit status, the deadline killing the whole group,
a child left running (a problem of the run, killed), stdin, and notes kept apart from the log."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from harness.runners import process
from harness.runners.control import RunControl
from harness.runners.process import run_process


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def gone(pid: int, within_s: float = 2.0) -> bool:
    """Whether ``pid`` is gone, or goes within ``within_s`` (a SIGKILLed process still has to be scheduled to die)."""
    until = time.monotonic() + within_s
    while alive(pid):
        if time.monotonic() > until:
            return False
        time.sleep(0.01)
    return True


def pids_in(log: bytes) -> list[int]:
    return [int(line.split()[1]) for line in log.decode().splitlines() if line.startswith("pid ")]


SPAWN_SLEEPER = ("import os, subprocess, sys\n"
                 "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
                 "print('pid', os.getpid(), flush=True)\n"
                 "print('pid', child.pid, flush=True)\n")


def test_lines_reach_on_line_in_order_and_the_exit_status_is_the_programs() -> None:
    lines: list[str] = []
    out = run_process(python("import sys\nfor i in range(5): print('line', i, flush=True)\n"
                             "sys.stderr.write('oops\\n'); sys.stderr.flush()\nsys.exit(3)"),
                      10, lines.append, merge_stderr=False)
    assert lines == [f"line {i}" for i in range(5)]
    assert out.log == b"".join(f"line {i}\n".encode() for i in range(5))
    assert out.stderr == b"oops\n"  # kept apart from the log
    assert (out.returncode, out.end_reason, out.timed_out, out.start_error) == (3, "exit", False, None)
    assert out.problems == [] and out.notes == []
    assert out.exited_at is not None and out.started_at <= out.exited_at


def test_merged_stderr_is_part_of_the_log() -> None:
    out = run_process(python("import sys\nsys.stderr.write('to stderr\\n')"), 10, merge_stderr=True)
    assert (out.log, out.stderr, out.returncode) == (b"to stderr\n", b"", 0)


def test_a_death_by_a_signal_is_a_crash_with_the_negative_signal() -> None:
    out = run_process(python("import os, signal\nprint('going', flush=True)\nos.kill(os.getpid(), signal.SIGABRT)"),
                      10, merge_stderr=True)
    assert (out.returncode, out.end_reason, out.log) == (-6, "crash", b"going\n")


def test_the_deadline_kills_the_whole_process_group() -> None:
    start = time.monotonic()
    out = run_process(python(SPAWN_SLEEPER + "import time\ntime.sleep(60)"), 1.5, merge_stderr=True)
    assert 1.4 < time.monotonic() - start < 6
    assert (out.timed_out, out.end_reason, out.returncode) == (True, "timeout", None)
    main, child = pids_in(out.log)
    assert main == out.pid
    assert gone(main) and gone(child)


def test_a_child_left_running_after_the_main_process_exits_is_a_problem_and_is_killed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "GROUP_LINGER_S", 0.5)
    lines: list[str] = []
    start = time.monotonic()
    out = run_process(python(SPAWN_SLEEPER), 30, lines.append, merge_stderr=True)
    assert time.monotonic() - start < 5  # the linger, not the deadline
    main, child = pids_in(out.log)
    assert (out.returncode, out.end_reason, out.timed_out) == (0, "exit", False)
    assert len(out.problems) == 1
    assert out.problems[0].startswith(f"left process {child} running (")
    assert out.problems[0].endswith("after the test's main process exited")
    assert gone(child)
    # the problem is a note of the harness, at the end of the log, not the device's bytes
    assert [note.text for note in out.notes] == out.problems
    assert out.notes[0].offset == len(out.log)
    assert b"left process" not in out.log
    assert lines[-1] == "[harness] " + out.problems[0]  # shown live


def test_a_child_that_finishes_within_the_linger_is_waited_for() -> None:
    child = "import time; time.sleep(0.3); print('child late', flush=True)"
    code = f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {child!r}])\nprint('main done')"
    out = run_process(python(code), 10, merge_stderr=True)
    assert out.log == b"main done\nchild late\n"
    assert (out.returncode, out.problems, out.notes) == (0, [], [])
    assert out.exited_at is not None and out.duration_s >= out.exited_at - out.started_at + 0.2


def test_a_run_whose_group_is_gone_ends_at_once() -> None:
    start = time.monotonic()
    out = run_process(python("print('bye')"), 10, merge_stderr=True)
    assert out.log == b"bye\n" and time.monotonic() - start < process.GROUP_LINGER_S


READ_STDIN = ("import os, sys\n"
              "print('stdin', os.path.realpath('/proc/self/fd/0'), flush=True)\n"
              "print('read', repr(sys.stdin.buffer.read()), flush=True)")


def test_stdin_is_dev_null_when_no_input_is_wanted() -> None:
    out = run_process(python(READ_STDIN), 10, merge_stderr=True)
    assert out.log == b"stdin /dev/null\nread b''\n"
    control = RunControl(wants_input=False)
    with control.active():
        out = run_process(python(READ_STDIN), 10, merge_stderr=True)
    assert out.log == b"stdin /dev/null\nread b''\n"


def test_input_sent_before_the_start_reaches_stdin_in_order_through_the_filter() -> None:
    control = RunControl(wants_input=True)
    code = ("import sys\nfor line in sys.stdin:\n    print('got', line.strip(), flush=True)\n"
            "    if line.startswith('QUIT'): break")
    with control.active():
        control.send(b"one\n")
        control.send(b"two\n")
        control.send(b"quit\n")
        out = run_process(python(code), 10, merge_stderr=True, input_filter=bytes.upper)
    assert (out.log, out.returncode) == (b"got ONE\ngot TWO\ngot QUIT\n", 0)


def test_a_program_that_cannot_start_says_why() -> None:
    out = run_process(["/nonexistent/emulator"], 10, merge_stderr=True)
    assert (out.log, out.returncode, out.end_reason) == (b"", None, "exit")
    assert out.start_error is not None and "No such file or directory" in out.start_error
