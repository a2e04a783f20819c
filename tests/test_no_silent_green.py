"""No silent green: micro tests that were selected but could not run fail the run with one line
naming what is missing and the fix; skipping is an explicit choice; an unknown backend is a usage
error; the summary always says how many micro cases ran, on which boards and backends."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from harness_helpers import copy_fixture, plugin_args


def _run(pytester: pytest.Pytester, *args: str, env: dict[str, str] | None = None) -> pytest.RunResult:
    if env is not None:
        for key, value in env.items():
            pytester._monkeypatch.setenv(key, value)  # runpytest_subprocess inherits os.environ
    return pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", *args, timeout=600)


def test_missing_emulator_fails_the_run_with_the_fix(pytester: pytest.Pytester, tmp_path: Path) -> None:
    copy_fixture(pytester, "pass")
    bin_dir = tmp_path / "bin"  # a PATH with everything but QEMU
    bin_dir.mkdir()
    for tool in ("make", "arm-none-eabi-gcc", "arm-none-eabi-g++", "arm-none-eabi-size", "arm-none-eabi-objcopy"):
        found = shutil.which(tool)
        if found:
            os.symlink(found, bin_dir / tool)
    result = _run(pytester, "--board=bluepill", "--qemu", env={"PATH": f"{bin_dir}:{Path(sys.executable).parent}"})
    out = result.stdout.str()
    assert result.ret == 1, out
    assert "qemu-system-arm not found" in out and "apt-get install qemu-system-arm" in out
    assert "could not run (errors)" in out and "pass --skip-unavailable" in out
    assert "harness: 0 micro test cases ran" in out


def test_skipping_is_an_explicit_choice(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    result = _run(pytester, "--board=bluepill", "--renode", "--skip-unavailable")
    if "micro test items skipped" not in result.stdout.str():
        pytest.skip("Renode is installed here: nothing to skip")
    assert result.ret == 0
    result = _run(pytester, "--board=bluepill", "--renode")
    assert result.ret == 1 and "renode cannot run bluepill" in result.stdout.str()


def test_ini_setting_skips_too(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    pytester.makeini("[pytest]\nmicro_skip_unavailable = true\n")
    result = _run(pytester, "--board=bluepill", "--renode")
    if "micro test items skipped" not in result.stdout.str():
        pytest.skip("Renode is installed here: nothing to skip")
    assert result.ret == 0


def test_unknown_backend_is_a_usage_error(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    result = _run(pytester, "--board=bluepill", "--backend", "qemuu")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown backend 'qemuu'" in result.stderr.str()


def test_empty_hardware_map_fails_the_run(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    rack = pytester.path / "rack.toml"
    rack.write_text("# no devices\n")
    result = _run(pytester, "--board=bluepill", f"--hardware-map={rack}")
    out = result.stdout.str() + result.stderr.str()
    assert result.ret != 0, out
    assert "lists no device for board 'bluepill'" in out or "hardware-map" in out


def test_summary_says_what_ran_where(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    result = _run(pytester, "--board=host")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["harness: * micro test cases ran (host (host): *)"])
