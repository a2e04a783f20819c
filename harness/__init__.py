"""Hardware-in-the-loop test harness for micro_runtime firmware.

``REPO_ROOT`` is the folder holding ``boards/``, ``micro_runtime/`` and ``renode/``: the
checkout when the harness runs from one (an editable install), else the copy a wheel carries
as package data (``harness/_data/``). Where a *user's* project, its boards and its build folder
are is ``harness.core.project``'s business.
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# A wheel carries boards/, micro_runtime/ and renode/ in harness/_data/ (setup.py's build_py).
_DATA = _PACKAGE / "_data"
REPO_ROOT = _DATA if (_DATA / "micro_runtime").is_dir() else _PACKAGE.parent
PACKAGE_DIR = _PACKAGE

__all__ = ["PACKAGE_DIR", "REPO_ROOT"]
