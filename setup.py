"""Packaging: the wheel carries boards/, micro_runtime/ and renode/ as package data.

A non-editable install (``pip install .``, a wheel) has no checkout to build from, so
``build_py`` copies the runtime's sources, the board files and board support into
``harness/_data/`` of the wheel (``harness.REPO_ROOT`` points there when it exists).
Left out: build outputs (``gen/``), the runtime's own tests and fuzzing material, caches.
An editable install uses the checkout itself and copies nothing.

The harness's own tests stay in the checkout too: its ``*_test.py`` modules here, its test support
(``harness/testing``) and test data (``harness/testdata``) through ``pyproject.toml``'s
``[tool.setuptools.packages.find] exclude``.
"""

from __future__ import annotations

import fnmatch
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA_TREES = ("boards", "micro_runtime", "renode")
DATA_DIR = Path("harness") / "_data"
# Relative to the repository root; matched against every path below the data trees.
EXCLUDED = ("micro_runtime/gen", "micro_runtime/fuzz", "micro_runtime/models", "*/__pycache__", "*.pyc",
            "*_test.cc", "*_test.py", "*/conftest.py", "*/.*")


# Product modules whose names end like a test module's (the micro_test log format).
NOT_TESTS = {"harness.formats.micro_test"}


def _excluded(rel: str) -> bool:
    return any(fnmatch.fnmatch(rel, pattern) or rel.startswith(pattern + "/") for pattern in EXCLUDED)


def data_files() -> list[Path]:
    """Repository-relative files of the data trees that go into the wheel."""
    found = []
    for tree in DATA_TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and not _excluded(rel) and not any(_excluded(p.as_posix()) for p in
                                                                   Path(rel).parents if p != Path(".")):
                found.append(Path(rel))
    return found


class BuildWithRuntime(build_py):
    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        """The package's modules without its tests (``*_test.py``, beside the code they test)."""
        modules = super().find_package_modules(package, package_dir)
        return [(pkg, name, path) for pkg, name, path in modules
                if not fnmatch.fnmatch(Path(path).name, "*_test.py") or f"{pkg}.{name}" in NOT_TESTS]

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / DATA_DIR
        if target.exists():
            shutil.rmtree(target)
        for rel in data_files():
            destination = target / rel
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, destination)


setup(cmdclass={"build_py": BuildWithRuntime})
