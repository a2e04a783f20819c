"""The persistent Renode session: monitor protocol, one Renode per process, reset per binary, restart.

Renode is not installable here; the fake (harness/testing/renode_fake.py, started as
``$RENODE``) is built to the rules of Renode's own source: character echo, ``\n\r`` newlines,
plain prompts with ``--plain``, LoadELF only when paused, unknown peripherals, platform files and
the other version's semihosting syntax refused. These tests prove the harness's side: the commands
it sends and in which order, how it matches replies to commands, reads errors, follows the log
files, ends runs, restarts a dead Renode once and quits it. They do not prove how a real Renode
answers beyond those rules.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import importlib.util
import re
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.board.boards import Board, load_board
from harness.formats.reader import parse_log
from harness.runners import get_runner, renode, renode_monitor, renode_scripts
from harness.runners.renode_monitor import monitor_errors, monitor_lines, prompt_name, reply_lines
from harness.runners.renode_scripts import (
    create_machine_commands,
    next_binary_commands,
    renode_argv,
    uses_semihosting_handler,
)
from harness.testing.mini_fw import mini_board

FAKE = Path(__file__).resolve().parents[1] / "testing" / "renode_fake.py"
ELF_HEADER = b"\x7fELF\x01\x01\x01" + bytes(11) + (40).to_bytes(2, "little")  # 32-bit ARM (EM_ARM)


# ------------------------------------------------------------------------ pure functions --
def test_command_line_serves_the_monitor_on_a_port() -> None:
    assert renode_argv(Path("/opt/renode/renode"), 4567) == [
        "/opt/renode/renode", "--disable-xwt", "--plain", "--port", "4567",
    ]


@pytest.mark.parametrize("handler", [False, True])
def test_machine_and_per_binary_commands_for_bluepill(handler: bool) -> None:
    board = load_board("bluepill")
    semihosting = (
        ['machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"',
         'machine LoadPlatformDescriptionFromString "console: UART.SemihostingUart @ semihosting"']
        if handler else ['machine LoadPlatformDescriptionFromString "semihosting: UART.SemihostingUart @ cpu"']
    )
    assert create_machine_commands(board, "@/t/u.log", "@/t/s.log", handler, "@/t/bluepill.repl") == [
        'mach create "bluepill"',
        "machine LoadPlatformDescription @/t/bluepill.repl",  # generated: only what the chip has
        # everything outside the STM32F103C8's map pauses the machine at the access
        'sysbus Tag <0x00010000 0x7FF0000> "outside-the-chip" 0 true',
        'sysbus Tag <0x08010000 0x17FF0000> "outside-the-chip" 0 true',
        'sysbus Tag <0x20005000 0x1FFFB000> "outside-the-chip" 0 true',
        'sysbus Tag <0x40007400 0x8C00> "outside-the-chip" 0 true',
        'sysbus Tag <0x40013C00 0xC400> "outside-the-chip" 0 true',
        'sysbus Tag <0x40023400 0x9FFDCC00> "outside-the-chip" 0 true',
        'sysbus Tag <0xE0100000 0x1FF00000> "outside-the-chip" 0 true',
        *semihosting,
        "sysbus.usart2 CreateFileBackend @/t/u.log true",
        f"sysbus.cpu.semihosting{'.console' if handler else ''} CreateFileBackend @/t/s.log true",
        "sysbus.cpu IsHalted true",
    ]
    assert next_binary_commands(board, Path("/w/my fw.elf"), (0x20004FF0, 0xC0FFEE)) == [
        'mach set "bluepill"',
        "machine Reset",
        "sysbus.nvic Frequency 8000000",  # a machine Reset restores the .repl's frequency: set it again
        "sysbus.cpu VectorTableOffset 0x08000000",
        "sysbus LoadELF @/w/my\\ fw.elf",
        "sysbus WriteDoubleWord 0x20004ff0 0x00c0ffee",
        "sysbus.cpu IsHalted false",
    ]


def test_board_without_flash_loads_without_a_vector_table_offset() -> None:
    board = dataclasses.replace(mini_board(), flash=None)
    assert next_binary_commands(board, Path("/fw.elf"))[2:] == ["sysbus LoadELF @/fw.elf", "sysbus.cpu IsHalted false"]


@pytest.mark.parametrize(
    ("version", "handler"),
    [
        ("Renode, version 1.14.0.25906 (6a0ba28d-202308081403)", False),
        ("Renode, version 1.15.3 (9736cf57-202409171200)", False),
        ("Renode, version 1.16.0 (7edd96dc-202508031200)", False),
        # A 1.16.1 build is the release or master, whatever its (compile) date says: Renode is asked.
        ("Renode, version 1.16.1 (add012af-202602161200)", None),
        ("Renode, version 1.16.1 (d66b0c2a-202611270458)", None),  # the real release, built from source
        ("Renode, version 1.16.1 (1.16.1+20260608git961ee056a)", None),
        ("Renode, version 1.17.0 (1.17.0+20261001gitabcdef123)", True),
        ("", None),  # unknown: ask
    ],
)
def test_version_picks_the_semihosting_syntax(version: str, handler: bool | None) -> None:
    assert uses_semihosting_handler(version) is handler


def test_monitor_output_cleaning() -> None:
    """Bytes as Renode's monitor sends them: telnet negotiation, banner, prompt, echo, LF CR newlines."""
    raw = (b"\xff\xfd\x00\xff\xfd\x1f\xff\xfb\x01\n\n\nRenode, version 1.16.1 (x-202602161200)\n\r\n\r(monitor) "
           b'mach create "b"\n\r(b) ')
    lines = monitor_lines(raw)
    assert lines == ["", "", "", "Renode, version 1.16.1 (x-202602161200)", "", '(monitor) mach create "b"', "(b) "]
    assert prompt_name(lines) == "b"
    assert reply_lines(lines, 'mach create "b"') == []
    assert reply_lines(lines, "start") is None  # no echo of it: not its answer
    assert prompt_name(monitor_lines(b"half a line")) is None
    # Output lines end CR LF CR, errors CR LF, colours are dropped.
    answer = monitor_lines(b"start\n\rStarting emulation...\r\n\r\x1b[31mMachine x not found.\r\n\x1b[0m"
                           b"\x1b[33m(b) \x1b[0m")
    assert reply_lines(answer, "start") == ["Starting emulation...", "Machine x not found."]
    # Incomplete: echo without a prompt after it yet.
    assert reply_lines(monitor_lines(b"start\n\rStarting emul"), "start") is None


def test_extra_prompts_before_the_echo_are_not_the_answer() -> None:
    """A prompt that arrives late (an earlier Enter) must not be taken for the next command's answer."""
    raw = b"\n\r(monitor) \n\r(monitor) version\n\rRenode, version 1.16.1 (x)\r\n\r(monitor) "
    assert reply_lines(monitor_lines(raw), "version") == ["Renode, version 1.16.1 (x)"]
    assert reply_lines(monitor_lines(b"\n\r(monitor) \n\r(monitor) "), "version") is None


@pytest.mark.parametrize(
    ("line", "is_error"),
    [
        ("There was an error executing command 'sysbus LoadELF @x'", True),
        ("No such command or device: sysbuss", True),
        ("Could not find file 'platforms/x.repl'", True),
        ("Error: the peripheral is not registered", True),
        ("Machine bluepill not found.", True),  # mach set: MachCommand.cs prints only this
        ("Cannot load ELF on an unpaused machine.", True),
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
    monkeypatch.delenv("FAKE_RENODE_VERSION", raising=False)
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


def _sent(record: Path) -> list[str]:
    return [command for _, command in _commands(record) if not command.startswith("(")]


def _running(record: Path) -> list[str]:
    return [command.split(" ", 1)[1] for _, command in _commands(record) if command.startswith("(running)")]


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
    commands = _sent(fake)
    backends = [c.split()[2] for c in commands if " CreateFileBackend " in c]
    uart, semihosting = backends[0], backends[1]
    created = [
        "version",  # the first command; the fake is a 1.16.1 build: release or master? Renode is asked:
        *create_machine_commands(board, uart, semihosting, True)[:3],  # the handler type, refused (release)
        'mach rem "mini-stm32f100"',  # nothing half-made stays
        *create_machine_commands(board, uart, semihosting, False),  # then the release's syntax
    ]
    assert commands[: len(created)] == created
    per_binary = [*next_binary_commands(board, tmp_path / "a.elf"), "start", "pause", "sysbus.cpu IsHalted true",
                  *next_binary_commands(board, tmp_path / "b.elf"), "start", "pause", "sysbus.cpu IsHalted true"]
    assert commands[len(created):] == per_binary
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
    assert _sent(fake).count("pause") == 2
    assert len(_pids(fake)) == 1


@pytest.mark.parametrize("behaviour", ["slow-start", "stray-prompt", "slow-start,stray-prompt"])
def test_replies_stay_in_step_with_commands(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            behaviour: str) -> None:
    """A late banner or an extra prompt ahead of an echo does not shift the answers by one command."""
    monkeypatch.setenv("FAKE_RENODE", behaviour)
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    session = renode._SESSION
    assert session is not None and session.version.startswith("Renode, version 1.16.1")
    assert session.command("version") == [session.version]
    assert session.command("pause") == ["Pausing emulation..."]


@pytest.mark.parametrize(
    ("version", "handler"),
    [("Renode, version 1.14.0.25906 (6a0ba28d-202308081403)", False),
     ("Renode, version 1.16.1 (d66b0c2a-202611270458)", False),  # the 1.16.1 release: asked, it has no handler
     ("Renode, version 1.16.1 (1.16.1+20260821git06854d4d0)", True)],  # master: asked, it has one
)
def test_semihosting_syntax_follows_the_renode_version(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       version: str, handler: bool) -> None:
    monkeypatch.setenv("FAKE_RENODE_VERSION", version)
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    sent = _sent(fake)
    backend = next(c for c in sent if c.startswith("sysbus.cpu.semihosting") and "CreateFileBackend" in c)
    assert backend.startswith(f"sysbus.cpu.semihosting{'.console' if handler else ''} CreateFileBackend")
    if "1.16.1" in version:  # asked: the handler type was tried first
        assert 'machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"' in sent
    else:  # decided by the number: never tried
        assert 'machine LoadPlatformDescriptionFromString "semihosting: CPU.SemihostingHandler @ cpu"' not in sent


@pytest.mark.parametrize(("version", "wrong"), [("Renode, version 1.15.0 (25886f62-202403181200)", True),
                                              ("Renode, version 1.16.1 (1.16.1+20260610gitbab7ab13a)", False)])
def test_the_other_semihosting_syntax_is_refused(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 version: str, wrong: bool) -> None:
    """The fake refuses the syntax of the other Renode versions: a wrong choice cannot go unnoticed."""
    monkeypatch.setenv("FAKE_RENODE_VERSION", version)
    monkeypatch.setattr(renode_scripts, "uses_semihosting_handler", lambda text: wrong)
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert run.end_reason == "infra-error"
    assert "cannot create the mini-stm32f100 machine" in (run.infra_error or "")
    assert f"(Renode {version}; semihosting as" in (run.infra_error or "")
    assert _sent(fake)[-1] == 'mach rem "mini-stm32f100"'  # no half-made machine left for `start` to run


def test_guard_word_is_written_after_the_elf_before_the_cpu_runs(fake: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    guarded: list[Path] = []

    def guard_word(elf: Path) -> tuple[int, int] | None:
        guarded.append(elf)
        return 0x20001FF0, 0x8BADF00D

    module = types.ModuleType("harness.board.emulation_guard")
    module.__spec__ = importlib.machinery.ModuleSpec("harness.board.emulation_guard", None)
    module.guard_word = guard_word  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "harness.board.emulation_guard", module)
    elf = _firmware(tmp_path, "a", *PASSING)
    run = get_runner("renode").run(elf, mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    assert guarded == [elf]
    sent = _sent(fake)
    write = sent.index("sysbus WriteDoubleWord 0x20001ff0 0x8badf00d")
    assert sent[write - 1].startswith("sysbus LoadELF ") and sent[write + 1:write + 3] == ["sysbus.cpu IsHalted false",
                                                                                            "start"]


def test_without_the_guard_module_nothing_is_written(fake: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "harness.board.emulation_guard", None)  # import fails: module absent
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    assert not [c for c in _sent(fake) if "WriteDoubleWord" in c]


def test_systick_runs_at_the_board_clock(fake: Path, tmp_path: Path) -> None:
    """The platforms' NVIC says 72 MHz and a reset restores it: the board's clock is set after each reset."""
    board = dataclasses.replace(mini_board(), clock_hz=8_000_000)
    runner = get_runner("renode")
    for name in ("a", "b"):
        run = runner.run(_firmware(tmp_path, name, "SYSTICK", *PASSING), board, 20)
        assert run.log.splitlines()[0] == b"systick 8000000", run
    without = runner.run(_firmware(tmp_path, "c", "SYSTICK", *PASSING), mini_board(), 20)
    assert without.log.splitlines()[0] == b"systick 72000000"  # no clock_hz: nothing set


def test_monitor_errors_are_recognised(fake: Path, tmp_path: Path) -> None:
    """What the strict fake refuses, as Renode does: the session reports each as a command error."""
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    session = renode._SESSION
    assert session is not None
    for command, message in [
        ('mach set "nope"', "Machine nope not found."),
        ("sysbus.usart9 CreateFileBackend @/tmp/x true", "No such command or device: sysbus.usart9"),
        ("sysbus.cpu.semihosting IsHalted true", "No such member IsHalted"),
        ("machine LoadPlatformDescription @platforms/cpus/nope.repl", "Could not find file"),
    ]:
        with pytest.raises(renode_monitor.MonitorCommandError, match=re.escape(message)):
            session.command(command)
    session.command("start")
    with pytest.raises(renode_monitor.MonitorCommandError, match="Cannot load ELF on an unpaused machine"):
        session.command(f"sysbus LoadELF @{tmp_path / 'a.elf'}")
    session.command("pause")
    session.command(f"sysbus LoadELF @{tmp_path / 'a.elf'}")


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


def test_rejected_platform_is_reported_for_every_binary(fake: Path, tmp_path: Path) -> None:
    board = mini_board()
    board = dataclasses.replace(board, raw={**board.raw, "renode": {"platform": "platforms/cpus/nope.repl",
                                                                    "uart": "sysbus.usart1"}})
    runner = get_runner("renode")
    for name in ("a", "b"):
        run = runner.run(_firmware(tmp_path, name, *PASSING), board, 20)
        assert run.end_reason == "infra-error"
        assert "cannot create the mini-stm32f100 machine" in (run.infra_error or "")
        assert "Could not find file 'platforms/cpus/nope.repl'" in (run.infra_error or "")
    commands = _sent(fake)
    assert commands.count('mach create "mini-stm32f100"') == 1 and len(_pids(fake)) == 1
    assert commands.count('mach rem "mini-stm32f100"') == 1


@pytest.mark.parametrize("version", ["Renode, version 1.14.0.25906 (6a0ba28d-202308081403)",
                                     "Renode, version 1.16.1 (1.16.1+20260821git06854d4d0)"])
def test_two_boards_share_one_renode_and_only_the_one_under_test_runs(
        fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """`start` resumes every machine; the idle one's CPU is halted, so only the board under test runs
    (on 1.14 a reset keeps a halted CPU halted, on master it releases it: both are covered)."""
    monkeypatch.setenv("FAKE_RENODE_VERSION", version)
    other = dataclasses.replace(mini_board(), name="mini-two")
    runner = get_runner("renode")
    for board in (mini_board(), other, mini_board(), other):
        run = runner.run(_firmware(tmp_path, board.name, *PASSING), board, 20)
        assert parse_log(run.log, run).outcome == "passed", run
    commands = _sent(fake)
    assert commands.count('mach create "mini-stm32f100"') == commands.count('mach create "mini-two"') == 1
    assert len(_pids(fake)) == 1
    assert _running(fake) == ["mini-stm32f100", "mini-two", "mini-stm32f100", "mini-two"]


def test_close_session_quits_renode(fake: Path, tmp_path: Path) -> None:
    get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    session = renode._SESSION
    assert session is not None
    renode.close_session()
    assert session.closed and session._proc.poll() is not None
    assert renode._SESSION is None
    renode.close_session()  # twice is fine


def test_pytest_session_finish_quits_the_workers_renode(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """The plugin's pytest_sessionfinish closes this process's session (each xdist worker's own): starting
    a Renode registers its close with harness.core.shutdown, which the plugin runs."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "harness.pytest.plugin" for ep in entry_points(group="pytest11"))
    marker = tmp_path / "closed"
    pytester.makepyfile(test_inner=f"""
        import traceback
        from pathlib import Path
        from harness.runners import renode

        class Session:
            closed = False
            def __init__(self, path):
                self.renode = path
            def run(self, elf, board, timeout_s, on_line):
                return "ran"
            def close(self, graceful=True):  # who closed it: the hook, not the atexit backstop
                Path({str(marker)!r}).write_text(" ".join(f.name for f in traceback.extract_stack()))

        def test_started(monkeypatch):
            monkeypatch.setattr(renode, "RenodeSession", Session)  # a started Renode, as the runner starts it
            assert renode._run_in_session(Path("renode"), Path("fw.elf"), None, 1.0, None) == "ran"
            assert isinstance(renode._SESSION, Session)
    """)
    result = pytester.runpytest_subprocess(*([] if installed else ["-p", "harness.pytest.plugin"]), "--no-micro-tests")
    result.assert_outcomes(passed=1)
    assert "pytest_sessionfinish" in marker.read_text().split()


def test_a_cpu_abort_in_renodes_log_is_a_crash_of_the_running_case_at_once(fake: Path, tmp_path: Path) -> None:
    """Renode stops the core itself on a jump outside RAM/ROM and only logs it (no HardFault line comes): the
    run ends there as a crash, long before its timeout, and the next binary runs normally."""
    runner = get_runner("renode")
    run = runner.run(_firmware(tmp_path, "abort", "Testing CallsNull", "ABORT"), mini_board(), 30)
    assert run.end_reason == "crash" and not run.timed_out and run.duration_s < 5, run
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and report.cases[0].outcome == "crashed", report.summary
    (note,) = run.notes
    assert note.text.startswith("Renode stopped the core: cpu: CPU abort [PC=0x0]"), note
    assert run.log == b"Testing CallsNull\n"  # the device's bytes only
    after = runner.run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(after.log, after).outcome == "passed", after


def test_renode_started_by_a_launcher_script_dies_with_the_session(fake: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The real `renode` is a shell script that starts `mono Renode.exe` as its child (no exec): closing the
    session (or the harness dying) must end that child too, not only the launcher."""
    launcher = tmp_path / "bin" / "renode-launcher"
    launcher.write_text(f"#!/bin/sh\n{sys.executable} {FAKE} \"$@\"\necho launcher done\n")  # a child, as mono is
    launcher.chmod(0o755)
    monkeypatch.setenv("RENODE", str(launcher))
    run = get_runner("renode").run(_firmware(tmp_path, "a", *PASSING), mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed", run
    (child,) = _pids(fake)
    assert Path(f"/proc/{child}").exists()
    session = renode._SESSION
    assert session is not None and str(session._proc.pid) != child  # the fake runs under the launcher
    renode.close_session()
    deadline = time.monotonic() + 5
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]


def _generated_board() -> Board:
    """The mini board with ``[renode] platform = "generated"``: only its flash, RAM and declared windows."""
    board = mini_board()
    return dataclasses.replace(board, raw={
        **board.raw,
        "renode": {"platform": "generated", "uart": "sysbus.usart1", "uart_model": "UART.STM32_UART", "uart_irq": 37},
        "log": {"uart_base": 0x40013800},
        "memory": {"peripherals": [{"name": "APB2", "origin": 0x40010000, "size": 0x3C00},
                                   {"name": "AHB", "origin": 0x40020000, "size": 0x3400}]},
    })


def test_an_unmapped_store_on_the_generated_platform_crashes_the_running_case(fake: Path, tmp_path: Path) -> None:
    """The guard on Renode: the generated platform maps only what the chip has, and a store outside the
    board's map (Renode only logs it and goes on) ends the run as a crash of the running case, at once."""
    runner = get_runner("renode")
    elf = _firmware(tmp_path, "stray", "Testing Probes", "STORE 0x40021018", "STORE 0x60000000", "HANG")
    run = runner.run(elf, _generated_board(), 30)
    assert run.end_reason == "crash" and run.duration_s < 5, run
    report = parse_log(run.log, run)
    assert report.outcome == "crashed" and [(c.name, c.outcome) for c in report.cases] == [("Probes", "crashed")]
    (note,) = run.notes
    assert note.text.startswith("WriteDoubleWord at 0x60000000") and "outside mini-stm32f100's memory map" in note.text
    loaded = [c for c in _sent(fake) if c.startswith("machine LoadPlatformDescription")]
    assert loaded and loaded[0].endswith("mini-stm32f100.repl"), loaded
    # The chip's own peripherals that Renode does not model are no crash.
    rcc = _firmware(tmp_path, "rcc", "Testing One", "STORE 0x40021018", *PASSING[1:])
    fine = runner.run(rcc, _generated_board(), 20)
    assert parse_log(fine.log, fine).outcome == "passed", fine


def test_the_bundled_platform_maps_too_much_to_catch_a_stray_store(fake: Path, tmp_path: Path) -> None:
    """Recorded from 1.14.0 (2c): Renode's stm32f103.repl backs 0x60000000 with the FSMC, so there the store
    succeeds and nothing is logged. That is why the boards use the generated platform."""
    run = get_runner("renode").run(_firmware(tmp_path, "stock", "Testing One", "STORE 0x60000000", *PASSING[1:]),
                                   mini_board(), 20)
    assert parse_log(run.log, run).outcome == "passed" and run.notes == []


def test_fault_registers_renode_does_not_model_are_not_decoded_as_zeros(fake: Path, tmp_path: Path) -> None:
    fault = ("*** HardFault: PC=0x080007ea LR=0x080007d3 xPSR=0x01000000 CFSR=0x00000082 HFSR=0x00000000 "
             "MMFAR=0x00000000 BFAR=0x00000000")
    run = get_runner("renode").run(_firmware(tmp_path, "mm", "Testing Store", "FAULT_REGISTERS", fault, "HANG"),
                                   _generated_board(), 20)
    assert run.unmodelled == ["HFSR", "MMFAR", "BFAR"], run
    report = parse_log(run.log, run)
    assert report.outcome == "crashed"
    assert "address unknown: the emulator does not model MMFAR" in report.summary, report.summary


def test_a_generated_platform_must_be_written_before_it_is_loaded() -> None:
    with pytest.raises(renode_scripts.RenodeConfigError, match="generated platform file was not written"):
        create_machine_commands(load_board("bluepill"), "@/t/u.log", "@/t/s.log", False)


def test_the_session_folder_is_not_one_renode_deletes_at_start_up() -> None:
    """Renode removes $TMPDIR/renode-* folders at start-up (recorded from 1.14.0): ours must not match."""
    assert not renode.SESSION_DIR_PREFIX.startswith("renode-")
    resc = renode_scripts.render_resc(load_board("bluepill"))
    assert "$uart_log?=$ORIGIN/bluepill-uart.log" in resc.splitlines()  # not Renode's install folder


EXIT_WORD = 0x20000100


def _with_exit_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake's text "ELF" has no symbols: give the runner the address of g_micro_exit."""
    from harness.core.binary_info import symbol_address

    monkeypatch.setattr(renode, "symbol_address",
                        lambda elf, name: EXIT_WORD if name == renode.EXIT_SYMBOL else symbol_address(elf, name))


def test_the_exit_word_gives_renode_runs_an_exit_status(fake: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Renode ignores SYS_EXIT; the board code's exit word, cleared before the run and read over the monitor,
    ends the run at the exit with its status: a clean log whose program then exits 1 fails, as on QEMU."""
    _with_exit_word(monkeypatch)
    runner = get_runner("renode")
    passed = runner.run(_firmware(tmp_path, "ok", *PASSING, f"EXIT {EXIT_WORD:#x} 0"), mini_board(), 20)
    assert passed.end_reason == "exit" and passed.exit_code == 0, passed
    assert parse_log(passed.log, passed).outcome == "passed"
    assert f"sysbus WriteDoubleWord {EXIT_WORD:#x} 0x00000000" in _sent(fake)  # cleared before the run
    failed = runner.run(_firmware(tmp_path, "late", *PASSING, f"EXIT {EXIT_WORD:#x} 1"), mini_board(), 20)
    assert failed.exit_code == 1
    report = parse_log(failed.log, failed)
    assert report.outcome == "failed" and "exit" in report.summary, report.summary


def test_an_exit_before_the_end_of_the_log_is_no_pass(fake: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _with_exit_word(monkeypatch)
    run = get_runner("renode").run(_firmware(tmp_path, "early", "Testing One", f"EXIT {EXIT_WORD:#x} 0"),
                                   mini_board(), 20)
    assert run.exit_code == 0 and parse_log(run.log, run).outcome == "crashed", run


@pytest.mark.parametrize("mode", ["Hexadecimal", "Decimal", "Both"])
def test_the_exit_word_is_read_in_every_number_mode(fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    mode: str) -> None:
    """``sysbus ReadDoubleWord`` answers as the monitor prints a UInt32 in its number mode (a user's Renode config
    may set Decimal or Both): "0x00000001", "1", "0x00000001 (1)". Each gives the run its exit status."""
    _with_exit_word(monkeypatch)
    runner = get_runner("renode")
    first = runner.run(_firmware(tmp_path, "ok", *PASSING, f"EXIT {EXIT_WORD:#x} 0"), mini_board(), 20)
    assert first.exit_code == 0, first
    session = renode._SESSION
    assert session is not None
    session.command(f"numbersMode {mode}")
    assert session.command(f"sysbus ReadDoubleWord {EXIT_WORD + 4:#x}") == [
        {"Hexadecimal": "0x00000000", "Decimal": "0", "Both": "0x00000000 (0)"}[mode]]
    failed = runner.run(_firmware(tmp_path, "late", *PASSING, f"EXIT {EXIT_WORD:#x} 3"), mini_board(), 20)
    assert failed.end_reason == "exit" and failed.exit_code == 3, failed
