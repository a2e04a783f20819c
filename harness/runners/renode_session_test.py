"""The persistent Renode session: monitor protocol, one Renode per process, reset per binary, restart.

Renode is not installable here; this fake speaks only the monitor's line protocol
(harness/runners/renode_test_fake.py, started as ``$RENODE``). These tests prove the harness's
side: the commands it sends and in which order, how it reads prompts, echoes, telnet bytes and
errors, how it follows the log files, ends runs, restarts a dead Renode once and quits it. They
prove nothing about how a real Renode answers; that is implemented to Renode's documentation
and untested against a real Renode here.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.boards import load_board
from harness.log_parser import parse_log
from harness.renode_scripts import create_machine_commands, next_binary_commands, renode_argv
from harness.runners import get_runner, renode
from harness.runners.renode import monitor_errors, monitor_lines, prompt_name, reply_lines
from harness.runners.testfw import mini_board

FAKE = Path(__file__).with_name("renode_test_fake.py")
ELF_HEADER = b"\x7fELF\x01\x01\x01" + bytes(11) + (40).to_bytes(2, "little")  # 32-bit ARM (EM_ARM)


# ------------------------------------------------------------------------ pure functions --
def test_command_line_serves_the_monitor_on_a_port() -> None:
    assert renode_argv(Path("/opt/renode/renode"), 4567) == [
        "/opt/renode/renode", "--disable-xwt", "--plain", "--port", "4567",
    ]


def test_machine_and_per_binary_commands_for_bluepill() -> None:
    board = load_board("bluepill")
    assert create_machine_commands(board, "@/t/u.log", "@/t/s.log") == [
        'mach create "bluepill"',
        "machine LoadPlatformDescription @platforms/cpus/stm32f103.repl",
        'machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"',
        "sysbus.usart2 CreateFileBackend @/t/u.log true",
        "sysbus.cpu.semihosting CreateFileBackend @/t/s.log true",
    ]
    assert next_binary_commands(board, Path("/w/my fw.elf")) == [
        'mach set "bluepill"',
        "machine Reset",
        "sysbus.cpu VectorTableOffset 0x08000000",
        "sysbus LoadELF @/w/my\\ fw.elf",
    ]


def test_board_without_flash_loads_without_a_vector_table_offset() -> None:
    board = dataclasses.replace(mini_board(), flash=None)
    assert next_binary_commands(board, Path("/fw.elf"))[2:] == ["sysbus LoadELF @/fw.elf"]


def test_monitor_output_cleaning() -> None:
    raw = (b"\xff\xfd\x00\xff\xfb\x01Renode, version 1.15\r\n\x1b[33m(monitor) \x1b[0m"
           b"mach create \"b\"\r\n\x1b[33m(b) \x1b[0m")
    lines = monitor_lines(raw)
    assert lines == ["Renode, version 1.15", '(monitor) mach create "b"', "(b) "]
    assert prompt_name(lines) == "b"
    assert reply_lines(lines, 'mach create "b"') == ["Renode, version 1.15"]
    assert prompt_name(monitor_lines(b"half a line")) is None
    # A line redrawn after a carriage return keeps its last drawing.
    assert monitor_lines(b"typing\rstart\r\nStarting emulation...\r\n(b) ") == [
        "start", "Starting emulation...", "(b) "]
    assert reply_lines(monitor_lines(b"start\r\nStarting emulation...\r\n(b) "), "start") == ["Starting emulation..."]


@pytest.mark.parametrize(
    ("line", "is_error"),
    [
        ("There was an error executing command 'sysbus LoadELF @x'", True),
        ("No such command or device: sysbuss", True),
        ("Could not find file 'platforms/x.repl'", True),
        ("Error: the peripheral is not registered", True),
        ("Starting emulation...", False),
        ("Pausing emulation...", False),
    ],
)
def test_monitor_error_lines(line: str, is_error: bool) -> None:
    assert bool(monitor_errors([line])) is is_error


# ------------------------------------------------------------------ against the fake --
@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """$RENODE is the fake; yields the file it records ``<pid> <command>`` lines in."""
    exe = tmp_path / "bin" / "renode"
    exe.parent.mkdir()
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
    exe.chmod(0o755)
    record = tmp_path / "record.txt"
    monkeypatch.setenv("RENODE", str(exe))
    monkeypatch.setenv("FAKE_RENODE_RECORD", str(record))
    monkeypatch.setenv("FAKE_RENODE", "")
    monkeypatch.setattr(renode, "STARTUP_TIMEOUT_S", 20.0)
    monkeypatch.setattr(renode, "COMMAND_TIMEOUT_S", 10.0)
    renode.close_session()
    yield record
    renode.close_session()


def _firmware(tmp_path: Path, name: str, *lines: str) -> Path:
    elf = tmp_path / f"{name}.elf"
    elf.write_bytes(ELF_HEADER + b"\n" + "\n".join(lines).encode() + b"\n")
    return elf


PASSING = ("Testing One", "1/1 tests passed", "~~~ALL TESTS PASSED~~~")
FAILING = ("Testing Two", "x_test.cc:3: failed", "0/1 tests passed", "~~~SOME TESTS FAILED~~~")


def _commands(record: Path) -> list[tuple[str, str]]:
    return [tuple(line.split(" ", 1)) for line in record.read_text().splitlines()]  # type: ignore[misc]


def _pids(record: Path) -> list[str]:
    return [pid for pid, command in _commands(record) if command.startswith("(started)")]


def test_one_renode_for_all_binaries_reset_between_them(fake: Path, tmp_path: Path) -> None:
    board = mini_board()
    runner = get_runner("renode")
    seen: list[str] = []
    first = runner.run(_firmware(tmp_path, "a", *PASSING), board, 20, on_line=seen.append)
    second = runner.run(_firmware(tmp_path, "b", *FAILING), board, 20)
    assert parse_log(first.log, first).outcome == "passed", first
    assert parse_log(second.log, second).outcome == "failed", second
    assert first.end_reason == second.end_reason == "end-marker" and first.exit_code is None
    assert seen == list(PASSING)
    assert b"Testing One" not in second.log  # each binary sees only its own output
    assert len(_pids(fake)) == 1
    commands = [command for _, command in _commands(fake) if not command.startswith("(started)")]
    uart = commands[3].split()[2]
    assert commands[:5] == [
        'mach create "mini-stm32f100"',
        "machine LoadPlatformDescription @platforms/cpus/stm32f103.repl",
        'machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"',
        f"sysbus.usart1 CreateFileBackend {uart} true",
        commands[4],
    ]
    per_binary = [*next_binary_commands(board, tmp_path / "a.elf"), "start", "pause",
                  *next_binary_commands(board, tmp_path / "b.elf"), "start", "pause"]
    assert commands[5:] == per_binary
    renode.close_session()
    assert _commands(fake)[-1][1] == "quit"


def test_timeout_and_crash_end_the_run_and_pause(fake: Path, tmp_path: Path) -> None:
    board = mini_board()
    runner = get_runner("renode")
    hung = runner.run(_firmware(tmp_path, "hang", "Testing Slow", "HANG"), board, 1.0)
    assert hung.timed_out and hung.end_reason == "timeout" and 0.9 < hung.duration_s < 5
    assert parse_log(hung.log, hung).outcome == "timeout"
    crashed = runner.run(_firmware(tmp_path, "crash", "Testing Boom", "*** HardFault: CFSR=0x1", "HANG"), board, 20)
    assert crashed.end_reason == "crash" and not crashed.timed_out and crashed.duration_s < 5
    assert parse_log(crashed.log, crashed).outcome == "crashed"
    assert [c for _, c in _commands(fake)].count("pause") == 2
    assert len(_pids(fake)) == 1


def test_prompt_printed_before_connecting_is_asked_for_again(fake: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_RENODE", "no-banner")
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run


def test_renode_dying_is_restarted_once(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_RENODE", "die-once")
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    assert len(_pids(fake)) == 2


def test_renode_dying_twice_is_an_infra_error_naming_the_cause(fake: Path, tmp_path: Path) -> None:
    run = get_runner("renode").run(_firmware(tmp_path, "a", "Testing One", "SLEEP 0.3", "DIE"), mini_board(), 20)
    assert run.end_reason == "infra-error"
    message = run.infra_error or ""
    assert message.startswith("the Renode session broke: Renode exited with status 5")
    assert "while the firmware ran" in message and "restarted Renode once and it failed again" in message
    assert parse_log(run.log, run).outcome == "infra-error"
    assert len(_pids(fake)) == 2
    # The next binary gets a fresh Renode again (the firmware killed it, not the set-up).
    after = get_runner("renode").run(_firmware(tmp_path, "b", *PASSING), mini_board(), 20)
    assert parse_log(after.log, after).outcome == "passed", after


def test_silent_monitor_is_an_infra_error(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_RENODE", "silent-load")
    monkeypatch.setattr(renode, "COMMAND_TIMEOUT_S", 0.5)
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert run.end_reason == "infra-error"
    assert "did not answer `sysbus LoadELF" in (run.infra_error or "")
    assert len(_pids(fake)) == 2


def test_rejected_platform_is_reported_for_every_binary(fake: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_RENODE", "bad-platform")
    runner = get_runner("renode")
    for name in ("a", "b"):
        run = runner.run(_firmware(tmp_path, name, *PASSING), mini_board(), 20)
        assert run.end_reason == "infra-error"
        assert "cannot create the mini-stm32f100 machine" in (run.infra_error or "")
        assert "Could not find file" in (run.infra_error or "")
    commands = [c for _, c in _commands(fake)]
    assert commands.count('mach create "mini-stm32f100"') == 1 and len(_pids(fake)) == 1


def test_two_boards_share_one_renode(fake: Path, tmp_path: Path) -> None:
    other = dataclasses.replace(mini_board(), name="mini-two")
    runner = get_runner("renode")
    for board in (mini_board(), other, mini_board()):
        run = runner.run(_firmware(tmp_path, board.name, *PASSING), board, 20)
        assert parse_log(run.log, run).outcome == "passed", run
    commands = [c for _, c in _commands(fake)]
    assert commands.count('mach create "mini-stm32f100"') == commands.count('mach create "mini-two"') == 1
    assert len(_pids(fake)) == 1


def test_close_session_quits_renode(fake: Path, tmp_path: Path) -> None:
    get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    session = renode._SESSION
    assert session is not None
    renode.close_session()
    assert session.closed and session._proc.poll() is not None
    assert renode._SESSION is None
    renode.close_session()  # twice is fine


def test_pytest_session_finish_quits_the_workers_renode(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """The plugin's pytest_sessionfinish closes this process's session (each xdist worker's own)."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "harness.plugin" for ep in entry_points(group="pytest11"))
    marker = tmp_path / "closed"
    pytester.makepyfile(test_inner=f"""
        import traceback
        from pathlib import Path
        from harness.runners import renode

        class Session:
            closed = False
            def close(self, graceful=True):  # who closed it: the hook, not the atexit backstop
                Path({str(marker)!r}).write_text(" ".join(f.name for f in traceback.extract_stack()))

        def test_started():
            renode._SESSION = Session()
    """)
    result = pytester.runpytest_subprocess(*([] if installed else ["-p", "harness.plugin"]), "--no-micro-tests")
    result.assert_outcomes(passed=1)
    assert "pytest_sessionfinish" in marker.read_text().split()
