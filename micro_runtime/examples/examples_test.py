"""Builds and runs the example applications (examples/<name>/app/main.cc) and checks what they print."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import available_boards, load_board

RUNTIME = REPO_ROOT / "micro_runtime"


def _build(example: str, board: str) -> Path:
    proc = subprocess.run(["make", "-s", "-C", str(RUNTIME), f"TARGET={board}", f"example_{example}"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return RUNTIME / "gen" / board / "bin" / f"example_{example}"


def _run(elf: Path, board: str) -> tuple[int | None, list[str]]:
    if board == "host":
        proc = subprocess.run([str(elf)], capture_output=True, text=True, timeout=60)
        return proc.returncode, proc.stdout.splitlines()
    from harness.runners import get_runner

    result = get_runner("qemu").run(elf, load_board(board), 60)
    return result.exit_code, result.log.decode(errors="replace").splitlines()


def _boards() -> list[object]:
    params: list[object] = ["host"]
    emulated = "bluepill" in available_boards() and shutil.which("qemu-system-arm") is not None
    params.append(pytest.param("bluepill", marks=[pytest.mark.emulator, pytest.mark.skipif(
        not emulated, reason="needs boards/bluepill and qemu-system-arm (apt-get install qemu-system-arm)")]))
    return params


@pytest.mark.parametrize("board", _boards())
def test_hello_world_app_traces_a_sine(board: str) -> None:
    status, lines = _run(_build("hello_world", board), board)
    assert status == 0, "\n".join(lines)
    points = [line for line in lines if line.startswith("x=")]
    assert len(points) == 20
    ys = [float(line.split()[1].removeprefix("y=")) for line in points]
    # One period: rises to ~1 near x=pi/2, falls to ~-1 near 3pi/2.
    assert max(ys) > 0.9 and min(ys) < -0.9
    assert ys.index(max(ys)) < ys.index(min(ys))


@pytest.mark.parametrize("board", _boards())
def test_micro_speech_app_hears_yes_then_no(board: str) -> None:
    status, lines = _run(_build("micro_speech", board), board)
    assert status == 0, "\n".join(lines)
    heard = [line.split()[1] for line in lines if line.startswith("Heard ")]
    assert heard == ["yes", "no"], lines
