"""Shared fixture: the ASan+UBSan fuzz binaries, built once per session by build_fuzz.sh."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
GEN = HERE.parent / "gen" / "fuzz"


@pytest.fixture(scope="session")
def fuzz_binaries() -> Path:
    """Folder holding model_fuzzer and model_mutator (skips with the install command without clang)."""
    if shutil.which("clang++") is None:
        pytest.skip("needs clang++ with libFuzzer and the sanitizer runtimes: apt-get install clang libclang-rt-dev")
    GEN.mkdir(parents=True, exist_ok=True)
    with open(GEN / ".build.lock", "w") as lock:  # pytest-xdist workers share the object folder
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run([str(HERE / "build_fuzz.sh")], capture_output=True, text=True, timeout=1200)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0 and "cannot find" in output and "libclang_rt" in output:
        pytest.skip("clang's libFuzzer/sanitizer runtimes are missing: apt-get install libclang-rt-dev")
    if proc.returncode != 0:
        pytest.fail(f"build_fuzz.sh failed (exit {proc.returncode}):\n{output[-6000:]}")
    return GEN
