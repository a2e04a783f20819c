"""harness doctor: the backends' own checks (from the registry), with the same words as the runners."""

from __future__ import annotations

import pytest

from harness.cli import doctor
from harness.runners import pyocd_runner, renode
from harness.runners.renode import INSTALL_HINT


def test_missing_cmsis_pack_is_reported_with_the_install_command() -> None:
    from pyocd.target.pack.pack_target import ManagedPacks

    if any(d.part_number.lower() == "stm32f103c8" for d in ManagedPacks.get_installed_targets()):
        pytest.skip("the STM32F1 CMSIS pack is installed on this machine")
    (check,) = pyocd_runner.check_tools()
    assert not check.ok and not check.required
    assert "board bluepill:" in check.detail and "run: pyocd pack install stm32f103c8" in check.detail


def test_renode_hint_is_the_runners(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(renode, "find_renode", lambda home=None: None)
    (check,) = renode.check_tools()
    assert not check.ok and not check.required
    assert check.detail.startswith(f"not found: {INSTALL_HINT}; looked in $RENODE, PATH")


def test_every_backend_with_a_check_is_in_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """doctor reads the registry: QEMU's check is required (the main job), the others optional."""
    names = {check.name: check for check in doctor.gather()}
    assert names["qemu-system-arm"].required
    assert not names["renode"].required and not names["python: serial"].required
    assert "debug probes (pyOCD)" in names
