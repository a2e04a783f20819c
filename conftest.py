"""Repo-local pytest settings (the harness plugin itself lives in harness/pytest/plugin.py)."""

from importlib.metadata import entry_points

# `pip install -e .` registers the plugin through the pytest11 entry point; a plain
# checkout (PYTHONPATH=.) loads it from here instead. Loading it twice would fail.
_INSTALLED = any(ep.value == "harness.pytest.plugin" for ep in entry_points(group="pytest11"))

pytest_plugins = ["pytester"] + ([] if _INSTALLED else ["harness.pytest.plugin"])
