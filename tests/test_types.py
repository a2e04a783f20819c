"""The type check: ``mypy harness`` finds no error under ``[tool.mypy]`` of pyproject.toml.

pyproject.toml says how strict the check is and why. CI runs the README's pytest command and nothing
else, so this test is how CI type-checks; ``tox -e types`` runs the same command. mypy keeps its cache
in ``.mypy_cache`` (ignored by git): a few seconds from a fresh clone, under one with the cache.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from harness import REPO_ROOT

PYPROJECT = REPO_ROOT / "pyproject.toml"


def test_harness_type_checks() -> None:
    if not PYPROJECT.is_file():
        pytest.skip(f"no pyproject.toml in {REPO_ROOT}: an installed harness, not a checkout")
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed; install the test extra: python3 -m pip install -e '.[test]' "
                    "(.ci/install-deps does)")
    checked = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT), "harness"],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)
    if checked.returncode != 0:
        pytest.fail(f"mypy harness found type errors (exit status {checked.returncode}):\n"
                    f"{checked.stdout}{checked.stderr}", pytrace=False)
