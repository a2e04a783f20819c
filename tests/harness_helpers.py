"""Helpers shared by the harness integration tests (tests/test_*.py); fixtures are in conftest.py.

The fixture programs in tests/fixtures/micro/pytester_*.cc are real micro tests
(pass, fail, crash, hang, zero tests, source/run mismatch). They are compiled
for the host directly with g++, and for MCU boards through the Makefile's
``program`` goal, then run on the real backends: nothing here is mocked.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import REPO_ROOT

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "micro"
PROGRAMS = ("pass", "fail", "crash", "hang", "zero", "mismatch")
MCU_BOARD = "bluepill"


def plugin_installed() -> bool:
    return any(ep.value == "harness.pytest.plugin" for ep in importlib.metadata.entry_points(group="pytest11"))


def subprocess_env() -> dict[str, str]:
    """Environment for child pythons: the checkout importable even when not pip-installed."""
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=f"{REPO_ROOT}{os.pathsep}{path}" if path else str(REPO_ROOT))


def run_cli(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m harness ARGS`` as a user would run it from a plain checkout."""
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True,
                          timeout=timeout, env=env or subprocess_env(), cwd=REPO_ROOT, check=False)


def run_model_exactly(model: Path, cases: Path, board: str) -> dict:
    """``harness run-model MODEL --board BOARD --cases CASES -q`` as a user runs it; asserts that it passed with
    every case equal to the expected outputs (exit status and JSON, max_abs_error 0) and returns the JSON."""
    proc = run_cli("run-model", str(model), "--board", board, "--cases", str(cases), "-q", timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-1000:]
    result = json.loads(proc.stdout)
    assert result["passed"] is True
    for case in result["cases"]:
        assert case["passed"] is True and case["max_abs_error"] == 0, case
    return result


def mcu_unavailable() -> str | None:
    """Why MCU-board tests cannot run here (with the install command), or None."""
    if shutil.which("arm-none-eabi-g++") is None:
        return ("arm-none-eabi-g++ not found; install: apt-get install gcc-arm-none-eabi "
                "libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib")
    if shutil.which("qemu-system-arm") is None:
        return "qemu-system-arm not found; install: apt-get install qemu-system-arm"
    if not (REPO_ROOT / "boards" / MCU_BOARD / "board.toml").is_file():
        return f"boards/{MCU_BOARD}/board.toml is not in this checkout yet"
    return None


requires_mcu = pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))


def compile_host_program(name: str, out_dir: Path) -> Path:
    """The fixture program ``pytester_<name>.cc`` linked for the host with micro_log + the host port."""
    out = out_dir / f"{name}_test"
    cmd = ["g++", "-std=c++17", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-fno-exceptions", "-fno-rtti",
           f"-I{REPO_ROOT}", str(FIXTURES / f"pytester_{name}.cc"),
           str(REPO_ROOT / "micro_runtime" / "micro_log.cc"), str(REPO_ROOT / "boards" / "host" / "platform.cc"),
           "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


def copy_fixture(pytester: pytest.Pytester, name: str) -> Path:
    """Puts ``pytester_<name>.cc`` into the pytester dir as ``pytester_<name>_test.cc`` (collected by the plugin)."""
    target = pytester.path / f"pytester_{name}_test.cc"
    shutil.copyfile(FIXTURES / f"pytester_{name}.cc", target)
    return target


def plugin_args() -> list[str]:
    return [] if plugin_installed() else ["-p", "harness.pytest.plugin"]


def junit_cases(path: Path) -> dict[str, tuple[str, str, dict[str, str]]]:
    """'<file>::<case>[<board>]' of a JUnit XML report -> (outcome, message text, properties)."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome, text = "passed", ""
        for kind in ("failure", "error", "skipped"):
            node = case.find(kind)
            if node is not None:
                outcome, text = kind, (node.get("message") or "") + "\n" + (node.text or "")
        props = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        file = case.get("classname", "").removesuffix(".cc").split(".")[-1]
        cases[f"{file}::{case.get('name')}"] = (outcome, text, props)
    return cases
