"""Repo-local pytest settings (the harness plugin itself lives in harness/pytest/plugin.py)."""

from importlib.metadata import entry_points

# `pip install -e .` registers the plugin through the pytest11 entry point; a plain
# checkout (PYTHONPATH=.) loads it from here instead. Loading it twice would fail.
_INSTALLED = any(ep.value == "harness.pytest.plugin" for ep in entry_points(group="pytest11"))

pytest_plugins = ["pytester"] + ([] if _INSTALLED else ["harness.pytest.plugin"])


# ---------------------------------------------------------------------------------------------------------------
# No silent stretch in the whole suite (issue 18: at most 15 s between signs of life, measured with
# benchmarks/progress_gaps.py): a test of this suite that runs longer than TICK_S (a wheel install, a venv
# with two pytest versions, a farm night) says so every TICK_S on the terminal. Micro items say it themselves
# (the plugin's build and run progress), so they are left out.
import os  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

TICK_S = 10.0
_terminal_fd: list[int] = []


def pytest_configure(config: pytest.Config) -> None:
    capture = config.pluginmanager.get_plugin("capturemanager")
    if capture is None:
        return
    with capture.global_and_fixture_disabled():  # the terminal's stderr, not the capture file
        _terminal_fd.append(os.dup(2))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    if not _terminal_fd or item.get_closest_marker("micro") is not None:
        return (yield)
    worker = getattr(item.config, "workerinput", {}).get("workerid")
    done = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        while not done.wait(TICK_S):
            line = f"\ntests: {f'[{worker}] ' if worker else ''}{item.nodeid} still running after " \
                   f"{time.monotonic() - start:.0f} s\n"
            try:
                os.write(_terminal_fd[0], line.encode())
            except OSError:
                return

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        return (yield)
    finally:
        done.set()
        thread.join()
