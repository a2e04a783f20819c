"""``--icount N`` of pytest and ``harness run``: QEMU gets ``-icount shift=N``; other backends are refused.

QEMU is the real one, behind a wrapper on PATH that records its command line.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from harness_helpers import MCU_BOARD, copy_fixture, plugin_args, requires_mcu, run_cli, subprocess_env


@pytest.fixture
def qemu_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH gets a qemu-system-arm that appends its arguments to the returned file, then runs the real one."""
    real = shutil.which("qemu-system-arm")
    if real is None:
        pytest.skip("qemu-system-arm not found; install: apt-get install qemu-system-arm")
    bin_dir, calls = tmp_path / "bin", tmp_path / "qemu_calls.txt"
    bin_dir.mkdir()
    wrapper = bin_dir / "qemu-system-arm"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{subprocess_env()['PATH']}")
    for key, value in subprocess_env().items():
        monkeypatch.setenv(key, value)
    return calls


@requires_mcu
@pytest.mark.emulator
def test_pytest_icount_reaches_qemu(pytester: pytest.Pytester, qemu_calls: Path, tmp_path: Path) -> None:
    copy_fixture(pytester, "pass")
    xml = tmp_path / "junit.xml"
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", f"--board={MCU_BOARD}",
                                           "--icount", "3", f"--junitxml={xml}", timeout=600)
    result.assert_outcomes(passed=3)
    assert "-icount shift=3" in qemu_calls.read_text()
    props = {(p.get("name"), p.get("value")) for p in ET.parse(xml).getroot().iter("property")}
    assert ("icount", "3") in props and ("backend", "qemu") in props


def test_pytest_icount_with_another_backend_is_a_usage_error(pytester: pytest.Pytester, qemu_calls: Path) -> None:
    copy_fixture(pytester, "pass")
    result = pytester.runpytest_subprocess(*plugin_args(), f"--board={MCU_BOARD}", "--renode", "--icount", "3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--icount sets QEMU's -icount and applies to QEMU runs only, not to backend renode*"])
    result = pytester.runpytest_subprocess(*plugin_args(), f"--board={MCU_BOARD}", "--icount", "11")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid icount shift '11': use an integer 0-10*"])


@requires_mcu
@pytest.mark.emulator
def test_cli_run_icount_reaches_qemu(mcu_programs: dict[str, Path], qemu_calls: Path) -> None:
    out = run_cli("run", str(mcu_programs["pass"]), "--board", MCU_BOARD, "--icount", "2", "-q")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "(qemu, " in out.stdout and "-icount shift=2" in qemu_calls.read_text()


def test_cli_run_icount_with_another_backend_is_an_error(host_programs: dict[str, Path]) -> None:
    out = run_cli("run", str(host_programs["pass"]), "--board", "host", "--icount", "2")
    assert out.returncode == 5 and "applies to QEMU runs only, not to backend host" in out.stderr, out.stderr
    out = run_cli("run", str(host_programs["pass"]), "--board", MCU_BOARD, "--backend", "renode", "--icount", "2")
    assert out.returncode == 5 and "not to backend renode" in out.stderr, out.stderr


@requires_mcu
@pytest.mark.emulator
def test_dut_fixture_runs_with_icount(pytester: pytest.Pytester, qemu_calls: Path,
                                      mcu_programs: dict[str, Path]) -> None:
    """The ``dut`` fixture uses the same runner as the micro items, so --icount reaches its QEMU too."""
    pytester.makepyfile(test_device=f"""
        def test_runs(dut):
            assert dut.run({str(mcu_programs["pass"])!r}).exit_code == 0
            assert dut.backend == "qemu"
    """)
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:randomly", f"--board={MCU_BOARD}",
                                           "--no-micro-tests", "--icount", "3", timeout=600)
    result.assert_outcomes(passed=1)
    assert "-icount shift=3" in qemu_calls.read_text()
