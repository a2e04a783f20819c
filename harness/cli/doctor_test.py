"""harness doctor: the optional HIL pieces say what is missing with the same words as the runners."""

from __future__ import annotations

import shutil

import pytest

from harness.cli import doctor
from harness.runners.renode import INSTALL_HINT


def test_missing_cmsis_pack_is_reported_with_the_install_command() -> None:
    from pyocd.target.pack.pack_target import ManagedPacks

    if any(d.part_number.lower() == "stm32f103c8" for d in ManagedPacks.get_installed_targets()):
        pytest.skip("the STM32F1 CMSIS pack is installed on this machine")
    check = doctor._probes()
    assert not check.ok and not check.required
    assert "board bluepill:" in check.detail and "run: pyocd pack install stm32f103c8" in check.detail


def test_renode_hint_is_the_runners(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    check = doctor._renode()
    assert not check.ok and not check.required
    assert check.detail == f"not found: {INSTALL_HINT}"
