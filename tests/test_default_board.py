"""`pytest --qemu` / `--renode` without --board mean what they say: the default MCU board, said so."""

from __future__ import annotations

import pytest
from harness_helpers import copy_fixture, mcu_unavailable, plugin_args


@pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))
def test_an_emulator_option_without_board_runs_the_default_mcu_board(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "--qemu", "-v", timeout=600)
    result.assert_outcomes(passed=3)
    output = result.stdout.str()
    assert "[bluepill] PASSED" in output and "[host]" not in output
    assert "no --board given: qemu ran bluepill, the default MCU board" in output


def test_without_any_option_the_host_runs(pytester: pytest.Pytester) -> None:
    copy_fixture(pytester, "pass")
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "-v", timeout=600)
    result.assert_outcomes(passed=3)
    assert "[host] PASSED" in result.stdout.str() and "no --board given" not in result.stdout.str()


def test_the_help_says_what_renode_does_without_renode(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(*plugin_args(), "--help")
    text = " ".join(result.stdout.str().split())
    assert "run MCU boards in Renode (without --board: bluepill)" in text
    assert "items skip when Renode is not installed" not in text


def test_collecting_nothing_says_where_it_looked(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MICRO_HARNESS_PROJECT", raising=False)  # a project of its own, not this run's
    pytester.makefile(".toml", pyproject="[project]\nname = 'empty'\n")
    result = pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", timeout=120)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines([f"harness: no [*]_test.cc under {pytester.path} (project root*put your tests there*"])
