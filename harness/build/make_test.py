"""Running make for a board: the build folder and make's paths, the per-board lock another process waits on,
progress lines with the time left, and run_make's output and progress."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from harness import PACKAGE_DIR, REPO_ROOT
from harness.board.boards import load_board
from harness.build import make
from harness.build.make import (
    RUNTIME_DIR,
    bin_dir,
    board_lock,
    elf_path,
    gen_dir,
    gen_root,
    make_command,
    make_env,
    make_paths,
    progress_line,
    run_make,
)
from harness.core import project


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> project.Project:
    """A user's project in tmp_path, the one in use (also for child processes) while the test runs."""
    root = tmp_path / "fw"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.micro-harness]\nbuild-dir = "out"\n')
    loaded = project.load(root)
    monkeypatch.setattr(project, "_current", loaded)
    monkeypatch.setenv(project.PROJECT_ENV, project.env_value(loaded))
    return loaded


# -------------------------------------------------------------------------------------------- paths --
def test_the_build_folder_and_binaries_are_the_projects(proj: project.Project) -> None:
    bluepill = load_board("bluepill")
    out = proj.root / "out"
    assert gen_root() == out
    assert gen_dir(bluepill) == gen_dir("bluepill") == out / "bluepill"
    assert bin_dir("bluepill") == out / "bluepill" / "bin"
    assert elf_path(bluepill, "conv_test") == out / "bluepill" / "bin" / "conv_test"
    assert make_paths(bluepill) == [f"GEN_ROOT={out}", f"BOARD_FILE={REPO_ROOT / 'boards' / 'bluepill' / 'board.toml'}",
                                    f"HARNESS_SRC={PACKAGE_DIR}"]


def test_make_runs_in_the_runtime_for_the_project_with_the_harness_importable(proj: project.Project) -> None:
    bluepill = load_board("bluepill")
    assert make_command(bluepill, ["conv_test", "add_test"], 3, "LTO=0") == [
        "make", "-C", str(RUNTIME_DIR), "TARGET=bluepill", f"PYTHON={sys.executable}", *make_paths(bluepill),
        "-j3", "--no-print-directory", "LTO=0", "conv_test", "add_test"]
    assert f"-j{os.cpu_count() or 1}" in make_command(bluepill, ["all"])
    env = make_env()
    assert env["PYTHONPATH"] == str(PACKAGE_DIR.parent)
    assert env[project.PROJECT_ENV] == f"{proj.root}{os.pathsep}{REPO_ROOT}"
    assert env["PATH"] == os.environ["PATH"]


# ----------------------------------------------------------------------------------------- progress --
def test_progress_line_gives_the_time_left_once_a_step_is_done() -> None:
    assert progress_line("bluepill", 0, 80, 9.6) == "bluepill: 0 compile/link steps in 10 s, still building"
    assert progress_line("bluepill", 20, 80, 10.0) == (
        "bluepill: 20/80 compile/link steps in 10 s, about 30 s left")
    assert progress_line("bluepill", 10, 80, 20.0) == (
        "bluepill: 10/80 compile/link steps in 20 s, about 2 min 20 s left")
    assert progress_line("bluepill", 90, 80, 30.0) == (  # more steps than planned: no negative time
        "bluepill: 90/90 compile/link steps in 30 s, about 0 s left")
    assert progress_line("host", 5, None, 12.0) == "host: 5 compile/link steps in 12 s, still building"


FAKE_MAKE = """
import sys, time
with open(sys.argv[1], "a") as calls:
    calls.write(" ".join(sys.argv[2:]) + "\\n")
if "--dry-run" in sys.argv:
    for name in "abcd":
        print(f"cc -c {name}.c -o {name}.o")
    sys.exit(0)
print("cc -c a.c -o a.o", flush=True)
print("cc -c b.c -o b.o", flush=True)
time.sleep(0.6)
print("cc -c c.c -o c.o", flush=True)
print("c.c:1:1: error: broken", flush=True)
sys.exit(2)
"""


def test_run_make_collects_the_output_and_reports_progress_with_the_steps_planned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(make, "_PROGRESS_EVERY_S", 0.2)
    calls = tmp_path / "calls"
    script = tmp_path / "fake_make.py"
    script.write_text(FAKE_MAKE)
    progress: list[str] = []
    code, output = run_make([sys.executable, str(script), str(calls), "all"], progress.append, "bluepill")
    assert code == 2
    assert output == ("cc -c a.c -o a.o\ncc -c b.c -o b.o\ncc -c c.c -o c.o\nc.c:1:1: error: broken\n")
    assert calls.read_text() == "all --dry-run\nall\n"  # the plan first, then the build
    assert progress, "a 0.6 s quiet step had no progress line every 0.2 s"
    for line in progress:
        assert re.fullmatch(r"bluepill: (0 compile/link steps in \d+ s, still building"
                            r"|[1-4]/4 compile/link steps in \d+ s, about \d+ s left)", line), line
    assert any(line.startswith("bluepill: 2/4 compile/link steps") for line in progress)


def test_run_make_without_progress_makes_no_plan(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    script = tmp_path / "fake_make.py"
    script.write_text(FAKE_MAKE)
    code, output = run_make([sys.executable, str(script), str(calls), "all"], None, "bluepill")
    assert (code, output.splitlines()[-1]) == (2, "c.c:1:1: error: broken")
    assert calls.read_text() == "all\n"


# ------------------------------------------------------------------------------------------- the lock --
HOLDER = """
import sys
from harness.build.make import board_lock
with board_lock(sys.argv[1]):
    print("locked", flush=True)
    sys.stdin.readline()  # until the test lets go
print("released", flush=True)
"""


def test_a_second_process_waits_for_the_board_lock_and_says_so(proj: project.Project) -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR.parent))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, "bluepill"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline() == "locked\n"
        assert (proj.root / "out" / "bluepill" / ".build.lock").is_file()  # in the project's build folder

        with board_lock("host"):  # another board's lock is free
            pass

        messages: list[str] = []
        got = threading.Event()

        def take() -> None:
            with board_lock(load_board("bluepill"), messages.append):
                got.set()

        waiter = threading.Thread(target=take, daemon=True)
        waiter.start()
        assert not got.wait(0.5), "the lock did not make this process wait for the holder"
        assert messages == ["waiting for another process building bluepill"]
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert got.wait(10), "the lock was not taken after the holder released it"
        waiter.join(10)
        assert holder.stdout.readline() == "released\n"
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=10)


def test_an_uncontended_lock_says_nothing_and_can_be_taken_again(proj: project.Project) -> None:
    messages: list[str] = []
    start = time.monotonic()
    with board_lock("bluepill", messages.append):
        pass
    with board_lock("bluepill", messages.append):
        pass
    assert messages == [] and time.monotonic() - start < 1
