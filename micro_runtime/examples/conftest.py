"""Skips example tests on boards they declare (requirements.mk) not to fit, with make's reason.

The Makefile leaves such tests out of `all`/`test` and names them in EXCLUDED_TESTS; this makes the pytest
items of those binaries skip with the same note instead of failing to link.
"""

from __future__ import annotations

import functools
import subprocess

import pytest

from harness import REPO_ROOT


@functools.cache
def _excluded(board: str) -> dict[str, str]:
    proc = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(REPO_ROOT / "micro_runtime"),
                           f"TARGET={board}", "print-EXCLUDED_TESTS"], capture_output=True, text=True)
    if proc.returncode != 0:
        return {}
    notes = {line.split()[1]: line.removeprefix("note: ") for line in proc.stderr.splitlines()
             if line.startswith("note: ") and len(line.split()) > 1}
    return {name: notes.get(name, f"{name} does not fit {board} (requirements.mk)") for name in proc.stdout.split()}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    board = getattr(item, "board", None)
    binary = getattr(item, "binary", None)
    if board is None or not isinstance(binary, str):
        return
    reason = _excluded(board.name).get(binary)
    if reason is not None:
        pytest.skip(f"does not fit: {reason}")
