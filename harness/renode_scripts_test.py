"""The generated Renode scripts: content, quoting, names from the board files, up to date."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.renode_scripts import (
    RenodeConfigError,
    main,
    render_resc,
    render_robot,
    renode_path,
    renode_settings,
    stale_files,
)
from harness.runners.testfw import mini_board


def _board(renode: dict[str, object] | None = None, log: list[str] | None = None):  # type: ignore[no-untyped-def]
    board = mini_board()
    raw = dict(board.raw)
    if renode is not None:
        raw["renode"] = renode
    if log is not None:
        raw["log"] = {"transports": log}
    return dataclasses.replace(board, raw=raw)


def test_committed_scripts_are_up_to_date() -> None:
    assert stale_files() == [], "run: python -m harness.renode_scripts"
    assert main(["--check"]) == 0


def test_resc_lines() -> None:
    board = _board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart2"})
    lines = render_resc(board).splitlines()
    assert lines[0].startswith("# Generated from harness/testdata/fw/board.toml")
    assert "$elf?=@fw.elf" in lines
    assert 'mach create "mini-stm32f100"' in lines
    assert "machine LoadPlatformDescription @platforms/cpus/stm32f103.repl" in lines
    assert 'machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"' in lines
    assert "sysbus.cpu VectorTableOffset 0x08000000" in lines
    assert "sysbus LoadELF $elf" in lines
    assert "sysbus.usart2 CreateFileBackend $uart_log true" in lines
    assert "sysbus.cpu.semihosting CreateFileBackend $semihosting_log true" in lines
    # Every non-comment line is a variable default or a known monitor command.
    for line in filter(None, lines):
        assert line.startswith(("#", "$", "mach ", "machine ", "sysbus")), line


def test_robot_is_valid_robot_framework() -> None:
    robot_api = pytest.importorskip("robot.api")
    text = render_robot(_board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"}))
    model = robot_api.get_model(text)
    errors = [e for section in model.sections for e in getattr(section, "errors", ())]
    assert not errors
    names = [type(s).__name__ for s in model.sections]
    assert names[-4:] == ["SettingSection", "VariableSection", "KeywordSection", "TestCaseSection"]
    assert "Register Failing Uart String    ~~~MT DONE FAILED" in text
    assert "Register Failing Uart String    *** HardFault:" in text
    assert "Wait For Line On Uart     ~~~MT DONE PASSED" in text


@pytest.mark.parametrize(
    ("transports", "watched"),
    [
        (["semihosting", "uart"], "sysbus.usart1"),
        (["uart"], "sysbus.usart1"),
        ([], "sysbus.usart1"),
        (["semihosting"], "sysbus.cpu.semihosting"),
        (["semihosting-if-debugger"], "sysbus.cpu.semihosting"),
        (["semihosting-if-debugger", "uart"], "sysbus.usart1"),
    ],
)
def test_robot_watches_the_log_transport(transports: list[str], watched: str) -> None:
    board = _board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"}, log=transports)
    assert renode_settings(board)["log"] == watched
    assert f"${{LOG_UART}}                   {watched}" in render_robot(board)


@pytest.mark.parametrize(
    ("path", "token"),
    [
        ("/tmp/fw.elf", "@/tmp/fw.elf"),
        ("/tmp/my builds/fw 1.elf", "@/tmp/my\\ builds/fw\\ 1.elf"),
        (Path("platforms/cpus/stm32f103.repl"), "@platforms/cpus/stm32f103.repl"),
    ],
)
def test_path_quoting(path: str | Path, token: str) -> None:
    assert renode_path(path) == token


def test_unusable_paths_rejected() -> None:
    with pytest.raises(RenodeConfigError, match="move the file"):
        renode_path('/tmp/a"b.elf')


@pytest.mark.parametrize(
    ("table", "fix"),
    [
        ({}, "add platform and uart"),
        ({"platform": "stm32f103", "uart": "sysbus.usart1"}, ".repl"),
        ({"platform": "platforms/cpus/stm32f103.repl"}, "uart must name"),
        ({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1", "cpu": 3}, "cpu must name"),
    ],
)
def test_bad_tables_name_the_fix(table: dict[str, object], fix: str) -> None:
    with pytest.raises(RenodeConfigError, match=fix):
        renode_settings(_board(table))


def test_robot_keeps_renode_path_escapes() -> None:
    """Robot unescapes backslashes; the platform path must still reach Renode as @/my\\ dir/x.repl."""
    from robot.utils import unescape

    board = _board({"platform": "/opt/my boards/x.repl", "uart": "sysbus.usart1"})
    line = next(x for x in render_robot(board).splitlines() if x.startswith("${PLATFORM}"))
    raw = line.split(None, 1)[1]
    assert unescape(raw) == renode_path("/opt/my boards/x.repl") == "@/opt/my\\ boards/x.repl"
    resc = render_resc(board)
    assert "machine LoadPlatformDescription @/opt/my\\ boards/x.repl" in resc.splitlines()
