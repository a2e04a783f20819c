"""Host runner on real native programs built in the test's tmp dir."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.formats.reader import parse_log
from harness.runners import get_runner
from harness.testing.processes import running_with

PROGRAM = r"""
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char* s) { fputs(s, stdout); fflush(stdout); }

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "pass";
  say("Testing One\n");
  if (!strcmp(mode, "pass")) { say("1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"); return 0; }
  if (!strcmp(mode, "fail")) {
    say("a == b failed at prog.c:9 (1 vs 2)\n0/1 tests passed\n~~~SOME TESTS FAILED~~~\n");
    return 1;
  }
  if (!strcmp(mode, "hang")) { for (;;) pause(); }
  if (!strcmp(mode, "abort")) { abort(); }
  if (!strcmp(mode, "segv")) { raise(SIGSEGV); }
  if (!strcmp(mode, "linger")) { say("1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"); for (;;) pause(); }
  if (!strcmp(mode, "orphan")) {  /* a child that keeps the pipe open after the parent exits */
    if (fork() == 0) { sleep(30); _exit(0); }
    say("1/1 tests passed\n~~~ALL TESTS PASSED~~~\n");
    return 0;
  }
  if (!strcmp(mode, "partial")) { say("no newline at the end"); return 4; }
  return 2;
}
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One wrapper script per mode around a single compiled program."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found; install it: apt-get install gcc")
    base = tmp_path_factory.mktemp("host prog")  # a space in the path on purpose
    (base / "prog.c").write_text(PROGRAM)
    subprocess.run(["gcc", "-O1", "-o", str(base / "prog"), str(base / "prog.c")], check=True)
    result = {}
    for mode in ("pass", "fail", "hang", "abort", "segv", "linger", "orphan", "partial"):
        script = base / f"{mode}.sh"
        script.write_text(f'#!/bin/sh\nexec "{base / "prog"}" {mode}\n')
        script.chmod(0o755)
        result[mode] = script
    return result


def _run(path: Path, timeout_s: float = 10.0, **kwargs: object):  # type: ignore[no-untyped-def]
    return get_runner("host").run(path, load_board("host"), timeout_s, **kwargs)  # type: ignore[arg-type]


def test_pass(programs: dict[str, Path]) -> None:
    lines: list[str] = []
    run = _run(programs["pass"], on_line=lines.append)
    assert (run.backend, run.exit_code, run.end_reason, run.timed_out) == ("host", 0, "exit", False)
    assert lines == ["Testing One", "1/1 tests passed", "~~~ALL TESTS PASSED~~~"]
    assert parse_log(run.log, run).outcome == "passed"


def test_fail_exit_code(programs: dict[str, Path]) -> None:
    run = _run(programs["fail"])
    assert run.exit_code == 1 and run.end_reason == "exit"
    report = parse_log(run.log, run)
    assert report.outcome == "failed" and report.cases[0].outcome == "failed"


def test_hang_times_out_on_time(programs: dict[str, Path]) -> None:
    run = _run(programs["hang"], timeout_s=0.5)
    assert run.timed_out and run.end_reason == "timeout" and run.exit_code is None
    assert 0.5 <= run.duration_s < 1.5
    assert parse_log(run.log, run).outcome == "timeout"


@pytest.mark.parametrize(("mode", "signal_name"), [("abort", "SIGABRT"), ("segv", "SIGSEGV")])
def test_crash_by_signal(programs: dict[str, Path], mode: str, signal_name: str) -> None:
    run = _run(programs[mode])
    assert run.end_reason == "crash" and run.exit_code is not None and run.exit_code < 0
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and signal_name in report.summary
    assert report.cases[0].outcome == "crashed"


def test_end_of_run_then_linger_is_not_a_pass(programs: dict[str, Path]) -> None:
    """A process can report its exit: printing the end of the run and then hanging is a hang."""
    from harness.formats.reader import EXIT_AFTER_END_S

    start = time.monotonic()
    run = _run(programs["linger"], timeout_s=30)
    assert time.monotonic() - start < EXIT_AFTER_END_S + 1.5
    assert run.end_reason == "no-exit" and run.exit_code is None and not run.timed_out
    report = parse_log(run.log, run)
    assert report.outcome == "timeout" and "did not exit" in report.summary


def test_orphan_child_is_bounded_named_and_killed(programs: dict[str, Path]) -> None:
    """A child left running gets a bounded linger after the parent's exit, then fails the run and is
    killed (more in host_tree_test.py)."""
    from harness.runners.process import GROUP_LINGER_S

    start = time.monotonic()
    run = _run(programs["orphan"], timeout_s=30)
    assert time.monotonic() - start < GROUP_LINGER_S + 1.5
    assert run.exit_code == 0
    assert len(run.problems) == 1 and run.problems[0].startswith("left process "), run.problems
    assert parse_log(run.log, run).outcome == "failed"
    assert not running_with(str(programs["orphan"].parent / "prog"))


def test_partial_last_line_kept(programs: dict[str, Path]) -> None:
    lines: list[str] = []
    run = _run(programs["partial"], on_line=lines.append)
    assert run.log.endswith(b"no newline at the end") and lines[-1] == "no newline at the end"
    assert run.exit_code == 4


def test_missing_binary_is_infra_error(tmp_path: Path) -> None:
    run = _run(tmp_path / "nope")
    assert run.end_reason == "infra-error" and "does not exist" in (run.infra_error or "")


def test_not_executable_is_infra_error(tmp_path: Path) -> None:
    path = tmp_path / "data"
    path.write_text("x")
    run = _run(path)
    assert run.end_reason == "infra-error" and "not executable" in (run.infra_error or "")


def test_unavailable_for_firmware_boards() -> None:
    from harness.testing.mini_fw import mini_board

    assert "native" in (get_runner("host").unavailable_reason(mini_board()) or "")
    assert get_runner("host").unavailable_reason(load_board("host")) is None


@pytest.mark.parametrize(
    "log",
    [
        "model_runner: model_bytes=10 arena_bytes=10 cases=0\n~~~MODEL RUNNER DONE~~~",
        "model_runner: error: arena too small",
        "[==========] Running 1 test from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n"
        "[==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.",
    ],
)
def test_other_formats_end_then_wait_for_the_exit(tmp_path: Path, log: str) -> None:
    """Each format's end of run opens the window for the exit; a process that lingers is stopped."""
    from harness.formats.reader import EXIT_AFTER_END_S

    script = tmp_path / "linger.sh"
    script.write_text(f"#!/bin/sh\necho 'x'\nprintf '%s\\n' '{log}'\nexec sleep 30\n")
    script.chmod(0o755)
    start = time.monotonic()
    run = _run(script, timeout_s=30)
    assert time.monotonic() - start < EXIT_AFTER_END_S + 1.5
    assert run.end_reason == "no-exit" and run.log.endswith(f"{log.splitlines()[-1]}\n".encode())


def test_keyboard_interrupt_kills_the_process_group(programs: dict[str, Path]) -> None:
    def interrupt(line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(programs["hang"], timeout_s=30, on_line=interrupt)
    time.sleep(0.1)
    assert not running_with(f"{programs['hang'].parent / 'prog'} hang")
