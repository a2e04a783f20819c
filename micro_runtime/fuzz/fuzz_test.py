"""Runs the libFuzzer model fuzzer for a short bounded time; any crash, leak or UB fails the test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FUZZ_SECONDS = int(os.environ.get("MODEL_FUZZ_SECONDS", "20"))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("clang++") is None, reason="needs clang++ with libFuzzer: apt-get install clang")
def test_model_fuzzer_finds_nothing() -> None:
    proc = subprocess.run([str(HERE / "run_fuzz.sh"), str(FUZZ_SECONDS)], capture_output=True, text=True,
                          timeout=FUZZ_SECONDS + 600)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"fuzzer failed (exit {proc.returncode}):\n{output[-6000:]}"
    assert "Done" in output and "stat::number_of_executed_units" in output, output[-3000:]
