"""``harness devices ...`` and ``harness run --hardware-map`` from the command line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.hil import board_state
from harness.hil.devices import load_hardware_map

ENV = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def _harness(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, timeout=timeout, env=ENV
    )


def test_scan_without_hardware_says_what_to_plug_in() -> None:
    proc = _harness("devices", "scan", timeout=60)
    if proc.returncode == 0:
        pytest.skip("a probe or USB-serial adapter is attached to this machine")
    assert proc.returncode == 1
    assert "plug the board in" in proc.stderr


def test_list_and_clear_a_quarantined_board(tmp_path: Path) -> None:
    path = tmp_path / "rack.toml"
    path.write_text('[[device]]\nid = "b1"\nboard = "bluepill"\nbackend = "gdbremote"\ngdb = "127.0.0.1:9"\n')
    board_state.quarantine(load_hardware_map(path), "b1", "probe lost")
    listed = _harness("devices", "list", "--hardware-map", str(path), timeout=60)
    assert listed.returncode == 0 and "b1" in listed.stdout and "QUARANTINED: probe lost" in listed.stdout
    cleared = _harness("devices", "clear", "--hardware-map", str(path), timeout=60)
    assert cleared.returncode == 0 and "cleared: b1" in cleared.stdout
    # No longer quarantined; nothing listens on its GDB port, so it is shown as down, not as free.
    assert "DOWN: nothing listens on gdb 127.0.0.1:9" in _harness("devices", "list", "--hardware-map", str(path),
                                                                  timeout=60).stdout


@pytest.mark.emulator
@pytest.mark.skipif(
    shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
    reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
)
def test_emulate_a_rack_then_run_on_it(tmp_path: Path) -> None:
    path = tmp_path / "emu.toml"
    emulate = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness",
            "devices",
            "emulate",
            "--board",
            "bluepill",
            "--count",
            "2",
            "-o",
            str(path),
            "--seconds",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline and emulate.poll() is None:
            time.sleep(0.1)
        assert path.exists(), emulate.stderr.read() if emulate.stderr else ""
        assert [d.backend for d in load_hardware_map(path).devices] == ["gdbremote", "gdbremote"]
        run = _harness("run", "kernel_util_test", "--board", "bluepill", "--hardware-map", str(path), "-q")
        assert run.returncode == 0, run.stdout + run.stderr
        assert "PASSED: kernel_util_test on bluepill (hil:gdbremote" in run.stdout
    finally:
        emulate.terminate()
        emulate.wait(timeout=10)
