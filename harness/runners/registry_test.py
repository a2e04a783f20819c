"""get_runner: one name -> one backend module, clear errors for the rest."""

from __future__ import annotations

import pytest

from harness.runners import UnknownBackendError, available_backends, get_runner


@pytest.mark.parametrize("name", available_backends())
def test_every_registered_backend_loads(name: str) -> None:
    runner = get_runner(name)
    assert runner.name == name
    assert callable(runner.run) and callable(runner.unavailable_reason)


def test_core_backends_present() -> None:
    assert {"host", "qemu", "renode"} <= set(available_backends())


def test_unknown_backend_lists_choices() -> None:
    with pytest.raises(UnknownBackendError, match="unknown backend 'qemux'; choose one of: host, qemu, renode"):
        get_runner("qemux")
