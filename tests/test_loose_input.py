"""Issue 12 part 5: every loose input is refused with one clear message (or handled), and generated
state never lands in the repository root. One test per item of the issue's list."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from harness_helpers import requires_mcu, run_cli, subprocess_env

from harness import REPO_ROOT
from harness.board import boards
from harness.board.boards import BoardError, load_board
from harness.hil.devices import HardwareMap, load_hardware_map
from harness.hil.lease import default_lock_dir


def _pytest(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=timeout, env=subprocess_env())


def test_empty_board_name_is_a_usage_error() -> None:
    proc = _pytest("--board", "", "--collect-only", "-q", "micro_runtime/kernels/add_test.cc")
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "empty board name" in proc.stderr and "known boards: " in proc.stderr
    assert "add_test.cc" not in proc.stdout  # nothing silently collected for host


def test_board_named_unlike_its_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boards, "BOARDS_DIR", tmp_path)
    (tmp_path / "mypill").mkdir()
    text = (REPO_ROOT / "boards" / "bluepill" / "board.toml").read_text()
    (tmp_path / "mypill" / "board.toml").write_text(text)  # [board] name = "bluepill"
    with pytest.raises(BoardError, match="name 'bluepill' differs from its folder 'mypill'"):
        load_board("mypill")


@pytest.mark.parametrize("value", ["-5", "0", "nan", "soon"])
def test_micro_timeout_must_be_positive(value: str) -> None:
    proc = _pytest(f"--micro-timeout={value}", "--collect-only", "-q", "micro_runtime/kernels/add_test.cc")
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "--micro-timeout" in proc.stderr and "greater than 0" in proc.stderr


def test_run_timeout_must_be_positive() -> None:
    proc = run_cli("run", "add_test", "--board", "host", "--timeout", "-5", timeout=60)
    assert proc.returncode == 2 and "greater than 0" in proc.stderr


@pytest.mark.parametrize("value", ["-5", "0", "lots"])
def test_arena_size_must_be_positive(value: str, tmp_path: Path) -> None:
    model = tmp_path / "m.tflite"
    cases = tmp_path / "c.json"
    model.write_bytes(b"x")
    cases.write_text("[]")
    proc = run_cli("run-model", str(model), "--board", "host", "--cases", str(cases), f"--arena-size={value}",
                   timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--arena-size: invalid size" in proc.stderr and "error:" not in proc.stdout
    assert "make" not in proc.stderr  # refused before any compiler ran


def _rack(tmp_path: Path, gdb: str) -> Path:
    path = tmp_path / "rack.toml"
    path.write_text(f'[[device]]\nid = "b1"\nboard = "bluepill"\nbackend = "gdbremote"\ngdb = "{gdb}"\n')
    return path


def test_devices_clear_of_an_unknown_id_fails(tmp_path: Path) -> None:
    path = _rack(tmp_path, "127.0.0.1:9")
    proc = run_cli("devices", "clear", "--hardware-map", str(path), "nosuch", timeout=60)
    assert proc.returncode == 2
    assert "no device nosuch in" in proc.stderr and "its devices: b1" in proc.stderr


def test_devices_list_shows_a_dead_board_as_down(tmp_path: Path) -> None:
    with socket.socket() as server:  # a live GDB server: something listens on the port
        server.bind(("127.0.0.1", 0))
        server.listen()
        live = _rack(tmp_path, f"127.0.0.1:{server.getsockname()[1]}")
        listed = run_cli("devices", "list", "--hardware-map", str(live), timeout=60)
        assert listed.returncode == 0 and "b1 (bluepill via gdbremote" in listed.stdout
        assert ": free" in listed.stdout, listed.stdout
        port = server.getsockname()[1]
    dead = _rack(tmp_path, f"127.0.0.1:{port}")  # the server is gone
    listed = run_cli("devices", "list", "--hardware-map", str(dead), timeout=60)
    assert f"DOWN: nothing listens on gdb 127.0.0.1:{port}" in listed.stdout, listed.stdout
    assert ": free" not in listed.stdout


def test_build_list_into_a_closed_pipe_has_no_traceback() -> None:
    proc = subprocess.run(f"{sys.executable} -m harness build --list | head -1", shell=True, cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60, env=subprocess_env())
    assert proc.stdout.count("\n") == 1 and "_test" in proc.stdout
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr


def test_elf_of_another_board_is_refused_by_its_folder(tmp_path: Path) -> None:
    fake = REPO_ROOT / "micro_runtime" / "gen" / "bluepill" / "bin" / "loose_input_probe"
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_bytes(b"not an elf")
    try:
        proc = run_cli("run", str(fake), "--board", "netduinoplus2", "-q", timeout=60)
    finally:
        fake.unlink()
    assert proc.returncode == 5
    assert "was built for board bluepill, not netduinoplus2" in proc.stderr and "--board bluepill" in proc.stderr


@requires_mcu
def test_elf_of_another_board_is_refused_by_its_symbol(tmp_path: Path) -> None:
    built = run_cli("build", "--board", "bluepill", "kernel_util_test", timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    elf = tmp_path / "fw.elf"  # copied out of gen/: only the ELF itself says which board it is for
    shutil.copy(REPO_ROOT / "micro_runtime" / "gen" / "bluepill" / "bin" / "kernel_util_test", elf)
    proc = run_cli("run", str(elf), "--board", "netduinoplus2", "-q", timeout=60)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "was built for board bluepill, not netduinoplus2" in proc.stderr
    assert "HardFault" not in proc.stdout  # refused before it ran


def test_map_state_in_the_repository_goes_under_gen() -> None:
    rack = REPO_ROOT / "rack.toml"  # what README's `harness devices scan -o rack.toml` writes
    hil = REPO_ROOT / "micro_runtime" / "gen" / "hil"
    assert default_lock_dir(rack) == hil / ".rack.locks"
    assert not (REPO_ROOT / ".rack.locks").exists()
    assert HardwareMap([], path=rack).state_path == hil / "rack.state.toml"


def test_map_state_outside_the_repository_stays_beside_the_map(tmp_path: Path) -> None:
    path = _rack(tmp_path, "127.0.0.1:9")
    assert load_hardware_map(path).state_path == tmp_path / "rack.state.toml"
    assert default_lock_dir(path) == tmp_path / ".rack.locks"


def test_robot_commands_in_the_docs_write_outside_the_repository_root() -> None:
    for doc in [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")),
                REPO_ROOT / "examples" / "robot" / "micro_tests.robot"]:
        for line in doc.read_text().splitlines():
            if "robot --" in line or line.strip().startswith("robot "):
                assert "--outputdir" in line, f"{doc.name}: {line.strip()}"
