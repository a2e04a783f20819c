"""The generated Renode scripts: content, quoting, names from the board files, up to date."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.formats.micro_test import sign
from harness.runners.renode_scripts import (
    RenodeConfigError,
    main,
    render_resc,
    render_robot,
    renode_path,
    renode_settings,
    stale_files,
)
from harness.testing.mini_fw import mini_board


def _board(renode: dict[str, object] | None = None, log: list[str] | None = None):  # type: ignore[no-untyped-def]
    board = mini_board()
    raw = dict(board.raw)
    if renode is not None:
        raw["renode"] = renode
    if log is not None:
        raw["log"] = {"transports": log}
    return dataclasses.replace(board, raw=raw)


def test_committed_scripts_are_up_to_date() -> None:
    assert stale_files() == [], "run: python -m harness.runners.renode_scripts"
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
    # Master's syntax is given in a comment, with the release range the file is written for.
    assert "# Written for Renode 1.14.0 to 1.16.1. Renode master since 2026-06-08 wants the semihosting" in lines
    assert '#   machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"' in lines
    # Every non-comment line is a variable default or a known monitor command; the CPU is not halted.
    for line in filter(None, lines):
        assert line.startswith(("#", "$", "mach ", "machine ", "sysbus")), line
        assert "IsHalted" not in line


def test_resc_sets_systick_to_the_board_clock() -> None:
    board = dataclasses.replace(_board({"platform": "platforms/cpus/stm32f4.repl", "uart": "sysbus.usart2"}),
                                clock_hz=16_000_000)
    assert "sysbus.nvic Frequency 16000000" in render_resc(board).splitlines()
    assert "Execute Command           sysbus.nvic Frequency 16000000" in render_robot(board)


def test_robot_is_valid_robot_framework() -> None:
    robot_api = pytest.importorskip("robot.api")
    text = render_robot(_board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"}))
    model = robot_api.get_model(text)
    errors = [e for section in model.sections for e in getattr(section, "errors", ())]
    assert not errors
    names = [type(s).__name__ for s in model.sections]
    assert names[-4:] == ["SettingSection", "VariableSection", "KeywordSection", "TestCaseSection"]
    # Renode 1.14 and 1.15 have no `Register Failing Uart String` (it came with 1.16.0): one wait
    # for any end of the run instead, then the pass sentinel is required.
    assert "Register Failing" not in text
    assert "Wait For Line On Uart    ${END}    treatAsRegex=true" in text
    assert "Should Contain            ${end.line}    DONE PASSED" in text  # the end pattern's DONE PASSED record


def test_robot_end_pattern_matches_every_end_and_nothing_else() -> None:
    import re

    from robot.utils import unescape

    text = render_robot(_board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"}))
    pattern = unescape(next(x for x in text.splitlines() if x.startswith("${END}")).split(None, 1)[1])
    # The framework's records as it prints them (renode-test has no run token: the form is all it can check).
    for line, ends in [(sign(7, "DONE PASSED"), True), (sign(9, "DONE FAILED"), True),
                       ("*** HardFault: CFSR=0x00000400", True), (sign(1, "BEGIN Conv"), False),
                       ("~~~ALL TESTS PASSED~~~", False), (sign(5, "SUMMARY 1/1 tests passed"), False),
                       ("~~~MT DONE PASSED", False), ("~~~MT DONE FAILED", False)]:  # the old plain lines
        assert bool(re.search(pattern, line)) is ends, line


def test_robot_asks_renode_for_the_semihosting_syntax() -> None:
    """Both syntaxes are in the file; Renode is asked whether it has the handler type (tried first)."""
    text = render_robot(_board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"},
                               log=["semihosting"]))
    assert "${handler}=               Run Keyword And Return Status    Execute Command    machine " in text
    assert 'machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"' in text
    assert 'machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"' in text
    assert "Set Variable    sysbus.cpu.semihosting.console" in text
    assert "    ${log}=                   Set Variable    ${semihosting}" in text


@pytest.mark.parametrize(
    ("transports", "watched"),
    [
        (["semihosting", "uart"], "uart"),
        (["uart"], "uart"),
        ([], "uart"),
        (["semihosting"], "semihosting"),
        (["semihosting-if-debugger"], "semihosting"),
        (["semihosting-if-debugger", "uart"], "uart"),
    ],
)
def test_robot_watches_the_log_transport(transports: list[str], watched: str) -> None:
    board = _board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"}, log=transports)
    assert renode_settings(board)["log"] == watched
    returned = "${UART}" if watched == "uart" else "${semihosting}"
    text = render_robot(board)
    assert f"    ${{log}}=                   Set Variable    {returned}" in text
    # The watched peripheral also writes the whole log to a file, judged by the harness's reader at the end.
    assert "    Execute Command           ${log} CreateFileBackend @${LOGFILE} true" in text
    assert text.rstrip().endswith("    Log File Should Pass      ${LOGFILE}    ${ELF}")


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
        ({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1", "nvic": "nvic"}, "nvic must name"),
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


# The Renode 1.14.0 keywords the .robot uses, with their signatures (renode v1.14.0
# src/Renode/RobotFrameworkEngine/UartKeywords.cs, RenodeKeywords.cs; tests/renode-keywords.robot).
_RENODE_1_14_KEYWORDS = """\
*** Keywords ***
Setup
    No Operation
Teardown
    No Operation
Test Teardown
    No Operation
Execute Command
    [Arguments]    ${command}    ${machine}=${None}
    RETURN    Renode, version 1.14.0.0 (6a0ba28d-202308081403)
Create Terminal Tester
    [Arguments]    ${uart}    ${timeout}=${None}    ${machine}=${None}    ${endLineOption}=${None}
    RETURN    0
Start Emulation
    No Operation
Wait For Line On Uart
    [Arguments]    ${content}    ${timeout}=${None}    ${testerId}=${None}    ${treatAsRegex}=${False}
    ...    ${includeUnfinishedLine}=${False}    ${pauseEmulation}=${False}
    RETURN    ${None}
"""


def test_robot_dry_runs_against_renode_1_14_keywords(tmp_path: Path) -> None:
    """Robot's dry run: syntax (IF, RETURN), keyword names and argument counts against 1.14's keywords."""
    robot = pytest.importorskip("robot")
    keywords = tmp_path / "renode-keywords.robot"
    keywords.write_text(_RENODE_1_14_KEYWORDS)
    suite = tmp_path / "board.robot"
    suite.write_text(render_robot(_board({"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"},
                                         log=["semihosting"])))
    rc = robot.run(str(suite), dryrun=True, variable=[f"RENODEKEYWORDS:{keywords}"], output=None, report=None,
                   log=None, stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115
    assert rc == 0, (tmp_path / "out.txt").read_text()
