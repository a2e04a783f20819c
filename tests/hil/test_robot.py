"""The Robot Framework keyword library, run through plain ``robot`` like a Robot user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import REPO_ROOT

pytestmark = [
    pytest.mark.emulator,
    pytest.mark.skipif(
        shutil.which("qemu-system-arm") is None or shutil.which("arm-none-eabi-gcc") is None,
        reason="needs qemu-system-arm and arm-none-eabi-gcc (apt-get install qemu-system-arm gcc-arm-none-eabi)",
    ),
]


def _robot(suite: Path, out_dir: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, tuple[str, str]]]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "robot",
            "--pythonpath",
            str(REPO_ROOT),
            "--outputdir",
            str(out_dir),
            "--console",
            "verbose",
            str(suite),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=out_dir,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    results = {}
    for test in ET.parse(out_dir / "output.xml").getroot().iter("test"):
        status = test.find("status")
        assert status is not None
        results[test.get("name", "")] = (status.get("status", ""), status.text or "")
    return proc, results


def test_example_suite_passes(tmp_path: Path) -> None:
    proc, results = _robot(REPO_ROOT / "examples" / "robot" / "micro_tests.robot", tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert results and all(status == "PASS" for status, _ in results.values()), results


def test_failing_robot_tests_are_reported_failing(tmp_path: Path) -> None:
    proc, results = _robot(Path(__file__).parent / "robot" / "failing.robot", tmp_path)
    assert proc.returncode == 2  # robot's exit code = number of failed tests
    status, message = results["Expects Text The Firmware Never Prints"]
    assert status == "FAIL" and "does not contain 'this line is not in any device log'" in message
    status, message = results["Expects A Case That Does Not Exist"]
    assert status == "FAIL" and "case NoSuchCase did not run" in message
    assert results["Passing Control Case"][0] == "PASS"
