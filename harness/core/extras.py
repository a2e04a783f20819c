"""The optional Python packages: which pyproject extra brings each, and how to install it *here*.

A wheel user installs an extra with ``pip install 'micro-harness[hil]'``; in this checkout (an editable
install, ``harness.REPO_ROOT`` is the checkout) ``.ci/install-deps`` installs every extra at once. Commands
that need an extra call ``require`` first, so a missing package is one line naming the extra instead of a
``ModuleNotFoundError`` traceback from somewhere inside; ``harness doctor`` reports each extra (``missing``).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from harness import PACKAGE_DIR, REPO_ROOT

DISTRIBUTION = "micro-harness"
INSTALL_DEPS = Path(".ci") / "install-deps"


@dataclass(frozen=True)
class Extra:
    name: str  # the extra in pyproject.toml's [project.optional-dependencies]
    modules: tuple[str, ...]  # what is imported
    packages: tuple[str, ...]  # the distributions pip installs, as a person knows them
    used_for: str


EXTRAS = {
    "model": Extra("model", ("numpy", "flatbuffers"), ("numpy", "flatbuffers"), "harness run-model"),
    "hil": Extra("hil", ("pyocd",), ("pyocd",), "the pyocd backend and harness devices scan"),
    "farm": Extra("farm", ("labgrid",), ("labgrid",), "the device farm"),
    "robot": Extra("robot", ("robot",), ("robotframework",), "Robot Framework suites"),
}


class MissingExtra(Exception):
    """A command needs Python packages of an extra that are not installed; the message has the install command."""


def is_checkout() -> bool:
    """The harness runs from its checkout (editable install or PYTHONPATH), not from a wheel's copy."""
    return PACKAGE_DIR.parent == REPO_ROOT and (REPO_ROOT / INSTALL_DEPS).is_file()


def _shown(path: Path) -> str:
    """``path`` relative to the current folder when inside it (``.``, ``.ci/install-deps``), else absolute."""
    try:
        rel = Path(os.path.relpath(path))
    except ValueError:
        return str(path)
    return str(rel) if not rel.parts or rel.parts[0] != ".." else str(path)


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` for this installation of the harness."""
    if is_checkout():
        root = _shown(REPO_ROOT)
        return f"pip install -e '{root}[{extra}]' (or {_shown(REPO_ROOT / INSTALL_DEPS)} for every extra)"
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken package, or one blocked in sys.modules
        return False


def missing(extra: str) -> list[str]:
    """The packages of ``extra`` that cannot be imported here (their distribution names)."""
    spec = EXTRAS[extra]
    return [package for module, package in zip(spec.modules, spec.packages, strict=True) if not importable(module)]


def problem(extra: str, what: str | None = None) -> str | None:
    """None when ``extra`` is installed; else one line: what needs which packages, and the install command."""
    absent = missing(extra)
    if not absent:
        return None
    spec = EXTRAS[extra]
    names = " and ".join(absent)
    verb = "is" if len(absent) == 1 else "are"
    return (f"{what or spec.used_for} needs the Python package{'s' * (len(absent) > 1)} {names} (the '{spec.name}' "
            f"extra), which {verb} not installed; install: {install_hint(spec.name)}")


def require(extra: str, what: str | None = None) -> None:
    """Raises MissingExtra (one line with the install command) unless ``extra``'s packages import."""
    message = problem(extra, what)
    if message is not None:
        raise MissingExtra(message)
