"""The plugin works with the oldest and the newest pytest and pytest-xdist that pyproject.toml admits.

A user's fresh venv resolves the newest versions the ranges admit (pytest 9.2 changed how ``--lf`` matches
node ids); an old pinned environment may hold the oldest. Each gets a venv on top of this machine's packages
with only pytest and pytest-xdist replaced, and runs the plugin's own tests there (collection, ``-k``,
``--lf``, xdist scheduling, JUnit), so "pytest>=7.4" in pyproject.toml is a tested promise.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from harness_helpers import subprocess_env

from harness import REPO_ROOT


def _minimum(name: str) -> str:
    dependencies = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    spec = next(d for d in dependencies if re.match(rf"{re.escape(name)}\s*>=", d))
    return spec.split(">=", 1)[1].strip()


VERSIONS = {
    "oldest": [f"pytest=={_minimum('pytest')}", f"pytest-xdist=={_minimum('pytest-xdist')}"],
    "newest": ["--upgrade", "pytest", "pytest-xdist"],
}


@pytest.mark.slow
@pytest.mark.parametrize("which", sorted(VERSIONS))
def test_plugin_tests_pass_with(which: str, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                              *VERSIONS[which]], capture_output=True, text=True, timeout=600, check=False)
    if install.returncode != 0 and re.search(r"(?i)connection|resolve|network|no matching distribution",
                                             install.stderr):
        pytest.skip(f"pip could not fetch {VERSIONS[which]} (no package index reachable): {install.stderr[-300:]}")
    assert install.returncode == 0, install.stderr[-2000:]
    version = subprocess.run([str(python), "-m", "pytest", "--version"], capture_output=True, text=True,
                             check=True).stdout.strip() or "?"
    run = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:benchmark",
                          "tests/test_plugin.py"], cwd=REPO_ROOT, env=subprocess_env(), capture_output=True,
                         text=True, timeout=900, check=False)
    assert run.returncode == 0, f"{version}:\n{run.stdout[-4000:]}\n{run.stderr[-2000:]}"
    print(f"{which}: {version}; {run.stdout.strip().splitlines()[-1]}", file=sys.stderr)
