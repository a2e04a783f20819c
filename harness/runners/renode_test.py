"""Renode runner: discovery, skip reasons, file-tail merging; a real run when Renode exists.

The persistent session (monitor protocol, reset per binary, restart) is in renode_session_test.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.board.boards import load_board
from harness.formats.reader import parse_log
from harness.runners import default_backend, get_runner, renode
from harness.testing.mini_fw import build_mini_firmware, mini_board, toolchain_missing


@pytest.fixture
def no_renode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A machine without Renode: empty PATH, no $RENODE, an empty home config."""
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("RENODE", raising=False)
    config = tmp_path / "home" / ".config" / "renode"
    monkeypatch.setattr(renode, "RENODE_RUN_DIR", config)
    return config


def _fake_install(path: Path) -> Path:
    """An executable file named renode (discovery only checks that it can be executed)."""
    path.mkdir(parents=True, exist_ok=True)
    exe = path / "renode"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return exe


def test_not_found_reason_lists_places_and_install(no_renode: Path) -> None:
    reason = get_runner("renode").unavailable_reason(mini_board()) or ""
    assert reason.startswith("Renode not found: install it from renode.io or `pip install renode-run")
    assert "renode-run download" in reason
    for place in ("$RENODE", "PATH", str(no_renode / "renode-run.path"), str(no_renode / "renode-run.download")):
        assert place in reason
    run = get_runner("renode").run(Path("fw.elf"), mini_board(), 5)
    assert run.end_reason == "infra-error" and "Renode not found" in (run.infra_error or "")
    assert parse_log(run.log, run).outcome == "infra-error"


def test_default_backend_without_renode_is_qemu(no_renode: Path) -> None:
    assert default_backend(mini_board()) == "qemu"
    assert default_backend(load_board("host")) == "host"


@pytest.mark.parametrize("how", ["env-file", "env-dir", "path", "renode-test", "path-file", "json", "download"])
def test_discovery(no_renode: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str) -> None:
    if how.startswith("env"):
        exe = _fake_install(tmp_path / "opt renode")
        monkeypatch.setenv("RENODE", str(exe if how == "env-file" else exe.parent))
    elif how in ("path", "renode-test"):
        exe = _fake_install(tmp_path / "bin")  # the PATH of the no_renode fixture
        if how == "renode-test":
            portable = _fake_install(tmp_path / "portable")
            (tmp_path / "bin" / "renode-test").symlink_to(portable.parent / "renode")
            exe.unlink()
            exe = portable
    elif how == "path-file":
        exe = _fake_install(tmp_path / "portable")
        no_renode.mkdir(parents=True)
        (no_renode / "renode-run.path").write_text(f"{exe.parent}\n")
    elif how == "json":
        exe = _fake_install(tmp_path / "installed")
        no_renode.mkdir(parents=True)
        (no_renode / "renode-run.json").write_text(json.dumps({"version": "2.0", "default": {"x": str(exe.parent)}}))
    else:
        exe = _fake_install(no_renode / "renode-run.download" / "dotnet-portable" / "renode-1.15.3+20240101gitabcdef12")
    assert renode.find_renode() == exe
    assert get_runner("renode").unavailable_reason(mini_board()) is None
    assert default_backend(mini_board()) == "renode"


def test_not_executable_is_not_found(no_renode: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    exe = _fake_install(tmp_path / "r")
    exe.chmod(0o644)
    monkeypatch.setenv("RENODE", str(exe))
    assert renode.find_renode() is None


def test_board_without_renode_table(no_renode: Path) -> None:
    import dataclasses

    board = dataclasses.replace(mini_board(), raw={"qemu": {"machine": "x"}})
    assert "no [renode] table" in (get_runner("renode").unavailable_reason(board) or "")
    assert "host backend" in (get_runner("renode").unavailable_reason(load_board("host")) or "")


@pytest.mark.emulator
def test_real_renode_run(tmp_path: Path) -> None:
    """Needs a real Renode (never run here). Runs end by the log: Renode up to 1.16.1 ignores
    semihosting SYS_EXIT. Renode reads 0 from unmapped addresses instead of faulting, so the crash
    firmware crashes only with the emulation guard word (harness.board.emulation_guard); without one it
    reads 0, exits (ignored) and spins: a timeout, asserted as such so the difference stays visible."""
    if renode.find_renode() is None:
        pytest.skip(f"Renode not found: {renode.INSTALL_HINT}")
    missing = toolchain_missing()
    if missing:
        pytest.skip(missing)
    from harness.runners.renode_scripts import emulation_guard

    board = mini_board()
    for mode, outcome in (("PASS", "passed"), ("FAIL", "failed"), ("CRASH", "crashed")):
        elf = build_mini_firmware(mode, tmp_path)
        if mode == "CRASH" and emulation_guard(elf) is None:
            outcome = "timeout"
        run = get_runner("renode").run(elf, board, 60 if outcome != "timeout" else 10)
        assert parse_log(run.log, run, elf, board).outcome == outcome, run
