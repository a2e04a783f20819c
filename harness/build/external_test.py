"""harness.build.external: a project's own build command, its progress, its failure and its lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from harness.build import external
from harness.build.driver import BuildError


def test_a_build_that_succeeds_returns_its_output_and_leaves_the_elf(tmp_path: Path) -> None:
    said: list[str] = []
    out = external.run_build_command("echo compiling; touch app.elf", tmp_path, "app.elf for bluepill",
                                     lock_dir=tmp_path / "b", progress=said.append, produces=tmp_path / "app.elf")
    assert out == "compiling"
    assert said == ["building app.elf for bluepill: echo compiling; touch app.elf"]


def test_a_failed_build_is_a_build_error_headed_by_its_first_error(tmp_path: Path) -> None:
    command = "echo 'cc -c x.c'; echo 'x.c:3:5: error: expected ; before }' >&2; echo more; exit 2"
    with pytest.raises(BuildError) as caught:
        external.run_build_command(command, tmp_path, "app.elf for bluepill", lock_dir=tmp_path)
    text = str(caught.value)
    assert text.splitlines()[0] == "x.c:3:5: error: expected ; before }"
    assert "failed (exit status 2)" in text and "cc -c x.c" in text and "more" in text


def test_a_build_that_makes_no_elf_is_an_error_naming_the_path(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match=r"succeeded but left no .*app\.elf.*fix the command or the entry's elf"):
        external.run_build_command("true", tmp_path, "app", lock_dir=tmp_path, produces=tmp_path / "app.elf")


def test_a_long_build_says_it_is_still_running_with_its_last_line(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(external, "PROGRESS_EVERY_S", 0.2)
    said: list[str] = []
    external.run_build_command("echo linking big.elf; sleep 0.7", tmp_path, "big", lock_dir=tmp_path,
                               progress=said.append)
    ticks = [s for s in said if "still running" in s]
    assert ticks and all("(last line: linking big.elf)" in t for t in ticks), said


def test_one_process_at_a_time_runs_the_same_command(tmp_path: Path) -> None:
    """Two callers (xdist workers) of one command: the second waits and says so."""
    said: list[str] = []
    command = "mkdir running || exit 9; sleep 0.5; rmdir running"
    first = threading.Thread(target=external.run_build_command, args=(command, tmp_path, "x"),
                             kwargs={"lock_dir": tmp_path / "b"})
    first.start()
    time.sleep(0.15)
    external.run_build_command(command, tmp_path, "x", lock_dir=tmp_path / "b", progress=said.append)
    first.join()
    assert said[0].startswith("waiting for another process running: mkdir running")


def test_the_headline_is_the_last_line_without_an_error_line() -> None:
    assert external.headline("step 1\nstep 2\n") == "step 2"
    assert external.headline("") == "(it printed nothing)"
    assert external.headline("ld: cannot find -lfoo\nmake: *** [Makefile:9: app.elf] Error 1") == \
        "make: *** [Makefile:9: app.elf] Error 1"
