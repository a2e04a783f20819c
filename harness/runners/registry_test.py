"""get_runner: one name -> one backend module, clear errors for the rest."""

from __future__ import annotations

from pathlib import Path

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


def test_missing_python_package_becomes_a_skip_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A backend module importing an absent package must not crash the caller."""
    import sys

    from harness import runners

    (tmp_path / "needs_pkg_runner.py").write_text("import no_such_package_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(runners.REGISTRY, "needy", runners.Backend("needs_pkg_runner", "NeedyRunner", "hardware"))
    monkeypatch.delitem(sys.modules, "needs_pkg_runner", raising=False)
    from harness.testing.mini_fw import mini_board

    runner = get_runner("needy")
    reason = runner.unavailable_reason(mini_board()) or ""
    assert "pip install no_such_package_xyz" in reason
    assert runner.run(tmp_path / "x.elf", mini_board(), 1).end_reason == "infra-error"
