"""Generates the per-board Renode scripts ``renode/<board>.resc`` and ``renode/<board>.robot``.

Both come from the board file's ``[renode]`` table, so the emulated platform, the
log UART and the CPU are named in one place:

  [renode]
  platform = "platforms/cpus/stm32f103.repl"   # Renode-bundled .repl (or an absolute path)
  uart = "sysbus.usart1"                       # the board's log UART
  cpu = "sysbus.cpu"                           # optional; default sysbus.cpu
  nvic = "sysbus.nvic"                         # optional; default sysbus.nvic (SysTick runs at [board] clock_hz)

Semihosting output goes to a ``UART.SemihostingUart``: on the CPU up to the Renode 1.16.1 release, on a
``CPU.SemihostingHandler`` on the CPU in Renode master since 2026-06-08 (see
``uses_semihosting_handler``: by the version number, and for a 1.16.1 build by asking Renode whether
the handler type exists). The ``.resc`` takes its inputs as Renode variables (``$elf``,
``$uart_log``, ``$semihosting_log``); the ``.robot`` runs one firmware under ``renode-test`` with
Renode's terminal tester and asks Renode for the handler type the same way. Oldest
Renode these are written for: 1.14.0. Regenerate with ``python -m harness.runners.renode_scripts``
(``--check`` fails when the committed files are stale).

Size: over 400 lines by design: every Renode monitor command the harness sends is in this one
module, so a Renode version difference is fixed in one place.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from harness import REPO_ROOT
from harness.board.boards import Board, BoardError, available_boards, load_board
from harness.board.renode_platform import GENERATED, is_generated, platform_description, unmapped_ranges
from harness.core.crash import HARDFAULT_PREFIX
from harness.formats.micro_test import PREFIX as RECORD_PREFIX
from harness.formats.reader import END_GRACE_S

# micro_test's end-of-run records, as renode-test matches them: "~~~MT <seq> <mac> DONE PASSED". renode-test
# cannot check the authenticator (it has no run token): the harness's own runs do (harness/formats/micro_test.py).
PASS_SENTINEL = "DONE PASSED"
FAIL_SENTINEL = "DONE FAILED"
_RECORD_HEAD = RECORD_PREFIX + "[0-9]+ [0-9a-f]+ "

RENODE_DIR = REPO_ROOT / "renode"
SEMIHOSTING_NAME = "semihosting"  # under the CPU: <cpu>.semihosting (the UART, or the handler)
SEMIHOSTING_CONSOLE = "console"  # the UART under the handler: <cpu>.semihosting.console
OLDEST_RENODE = "1.14.0"  # every command and keyword used here exists from this release on

# ------------------------------------------------------------------ Renode versions --
# The version line, from the monitor's `version` command (and its start-up banner):
# "Renode, version <major>.<minor>.<build> (<informational version>)" (renode-infrastructure
# src/Emulator/Main/Core/EmulationManager.cs, VersionString). The informational version is
# "Renode, version 1.14.0.6419 (81da46c1-202611270333)" (1.14: four numbers), "Renode, version 1.16.1
# (d66b0c2a-202611270458)" (1.16.1: three; both recorded from real builds, tests/renode_recordings/). The
# part in parentheses is "<commit>-<when it was compiled>", not the release date; master builds keep the
# last release's number (renode tools/version is still 1.16.1), so a 1.16.1 build is asked, not dated.
VERSION_PATTERN = "version ([0-9]+)[.]([0-9]+)[.]([0-9]+)[^(]*[(]([^)]*)[)]"
# Renode master replaced the SemihostingUart-on-the-CPU registration by a CPU.SemihostingHandler
# peripheral (renode-infrastructure ac3d0897, "Make SemihostingHandler a peripheral": Arm.cs now
# registers only SemihostingHandler; SemihostingHandler.cs registers SemihostingUart). It reached
# Renode master with renode bab7ab13, committed 2026-06-08; 1.16.1 (2026-02) and older lack it.
HANDLER_AFTER_RELEASE = (1, 16, 1)


def uses_semihosting_handler(version_text: str) -> bool | None:
    """Whether this Renode wants ``CPU.SemihostingHandler`` (True) or the older UART-on-CPU syntax
    (False), decided by the version *number* of what ``version`` printed; None when only Renode can tell.

    Up to the 1.16.1 release: the UART on the CPU. After 1.16.1: the handler. A 1.16.1 *build* may be
    the release or master (which has the handler since 2026-06-08), and the date in its version line is
    when it was compiled, not released (a 1.16.1 built from source today prints today's date), so for
    1.16.1 — and for text that does not parse — the answer is None: ask Renode whether the type
    ``CPU.SemihostingHandler`` exists (``harness.runners.renode`` tries it and falls back).
    """
    match = re.search(VERSION_PATTERN, version_text)
    if match is None:
        return None
    release = tuple(int(part) for part in match.group(1, 2, 3))
    if release == HANDLER_AFTER_RELEASE:
        return None
    return release > HANDLER_AFTER_RELEASE


# What Renode says for a type it does not have (1.16.1 release: 'CPU.SemihostingHandler').
UNKNOWN_TYPE = "Could not resolve type"


class RenodeConfigError(BoardError):
    """A board whose [renode] table cannot drive Renode, with the fix."""


def renode_path(path: str | Path) -> str:
    """A Renode monitor path token: ``@`` + the path with spaces escaped (the monitor splits on them)."""
    text = str(path)
    if "\n" in text or '"' in text:
        raise RenodeConfigError(f"path {text!r} cannot be passed to Renode (newline or quote in it); move the file")
    return "@" + text.replace(" ", "\\ ")


def _robot_escape(value: str) -> str:
    """Robot Framework reads ``\\`` as an escape: double it so Renode gets its ``\\ `` path escapes."""
    return value.replace("\\", "\\\\")


def _peripheral(table: dict[str, object], key: str, default: str, where: Path) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value.startswith("sysbus."):
        raise RenodeConfigError(f"{where}: [renode] {key} must name the {key.upper()} peripheral, e.g. {default}")
    return value


def renode_settings(board: Board) -> dict[str, str]:
    """Validated [renode] settings of ``board``: platform, uart, cpu, nvic, and log ("uart" or "semihosting").

    ``log`` is the channel the .robot's terminal tester watches: the UART when the board logs
    there (with "semihosting-if-debugger" Renode shows no debugger, so output goes to the UART),
    else semihosting (whose peripheral depends on the Renode version: ``semihosting_uart``).
    """
    table = board.section("renode")
    where = board.path / "board.toml"
    if not table:
        raise RenodeConfigError(f"board '{board.name}' has no [renode] table in {where}; add platform and uart")
    platform = table.get("platform")
    uart = table.get("uart")
    if not isinstance(platform, str) or not (platform.endswith(".repl") or platform == GENERATED):
        raise RenodeConfigError(
            f'{where}: [renode] platform must name a .repl file, e.g. platforms/cpus/stm32f103.repl, or be '
            f'"{GENERATED}" (only what the chip has, from the board file: harness/board/renode_platform.py)'
        )
    if not isinstance(uart, str) or not uart.startswith("sysbus."):
        raise RenodeConfigError(f"{where}: [renode] uart must name the log UART peripheral, e.g. sysbus.usart1")
    cpu = _peripheral(table, "cpu", "sysbus.cpu", where)
    nvic = _peripheral(table, "nvic", "sysbus.nvic", where)
    transports = board.raw.get("log", {}).get("transports", ["uart"])
    semihosting_only = "uart" not in transports and any(str(t).startswith("semihosting") for t in transports)
    return {"platform": platform, "uart": uart, "cpu": cpu, "nvic": nvic,
            "log": "semihosting" if semihosting_only else "uart"}


def _header(board: Board, comment: str) -> list[str]:
    source = (board.path / "board.toml").relative_to(REPO_ROOT) if board.path.is_relative_to(REPO_ROOT) else board.path
    return [
        f"{comment} Generated from {source} by harness.runners.renode_scripts; do not edit.",
        f"{comment} {board.description or board.name}",
    ]


# ---------------------------------------------------------------- monitor commands --
# Every Renode monitor command the harness sends lives here, so the whole interface to Renode
# can be checked in one place. Each was checked against Renode's source, 1.14.0 to master
# (renode-infrastructure; paths below are in src/Emulator/): the monitor's built-in commands in
# Extensions/UserInterface/Commands/ (MachCommand.cs: mach create/set/rem; StartCommand.cs,
# PauseCommand.cs, QuitCommand.cs, VersionCommand.cs), and the methods and properties the monitor
# calls by name: Machine.Reset, Machine.LoadPlatformDescription[FromString] (Main/Core/Machine.cs
# and renode's src/Renode/PlatformDescription), CreateFileBackend (Extensions/Utilities/
# UartFileBackend.cs), LoadELF (Main/Peripherals/Bus/SystemBus.cs, in master
# Main/Core/Extensions/FileLoaderExtensions.cs; refused unless the machine is paused),
# WriteDoubleWord (Main/Peripherals/Bus/SystemBus*.cs), CortexM.VectorTableOffset (Cores/Arm-M/
# CortexM.cs), NVIC.Frequency (Cores/Arm-M/NVIC.cs), BaseCPU.IsHalted (Peripherals/Peripherals/CPU/
# BaseCPU.cs). The persistent session (harness.runners.renode) and the generated .resc use them.
VERSION = "version"  # prints Renode's version line
START = "start"  # Emulation.StartAll: resumes every machine of the emulation (halted CPUs stay halted)
PAUSE = "pause"  # Emulation.PauseAll: stops virtual time; the machines keep their state
QUIT = "quit"  # ends Renode gracefully


def renode_argv(renode: str | Path, monitor_port: int) -> list[str]:
    """Renode headless with its monitor on a TCP port (telnet mode) instead of a window.

    ``--disable-xwt`` (alias of ``--disable-gui`` in master) also hides the monitor window;
    ``--port``/``-P`` serves the monitor on ``monitor_port``; ``--plain`` drops colour codes from
    the monitor (a plain ``(monitor) `` prompt) and the log. No ``--console``: it would take the
    monitor to stdin/stdout instead of the port (renode-infrastructure src/UI/Options.cs,
    src/UI/CommandLineInterface.cs).
    """
    return [str(renode), "--disable-xwt", "--plain", "--port", str(monitor_port)]


def semihosting_uart(board: Board, handler: bool) -> str:
    """The peripheral that carries semihosting output: ``<cpu>.semihosting`` or, with the handler,
    ``<cpu>.semihosting.console``."""
    base = f"{renode_settings(board)['cpu']}.{SEMIHOSTING_NAME}"
    return f"{base}.{SEMIHOSTING_CONSOLE}" if handler else base


def semihosting_commands(board: Board, handler: bool) -> list[str]:
    """Adds the semihosting pseudo-UART in the syntax of this Renode (``uses_semihosting_handler``).

    Up to 1.16.1 the CPU itself takes a ``UART.SemihostingUart``. Master registers a
    ``CPU.SemihostingHandler`` on the CPU and the UART on the handler; the two entries are loaded
    one after the other, the second referring to the first by name, as Renode's own
    tests/unit-tests/arm-semihosting.robot does (a20.repl in master has the same pair).
    """
    cpu_name = renode_settings(board)["cpu"].rsplit(".", 1)[1]
    if not handler:
        return [f'machine LoadPlatformDescriptionFromString "{SEMIHOSTING_NAME}: UART.SemihostingUart @ {cpu_name}"']
    return [
        f'machine LoadPlatformDescriptionFromString "{SEMIHOSTING_NAME}: CPU.SemihostingHandler @ {cpu_name}"',
        f'machine LoadPlatformDescriptionFromString "{SEMIHOSTING_CONSOLE}: UART.SemihostingUart @ {SEMIHOSTING_NAME}"',
    ]


def halt_command(board: Board, halted: bool) -> str:
    """Halts (or releases) the board's CPU. ``start`` resumes every machine of the emulation, so
    the session keeps each machine's CPU halted while another board's binary runs."""
    return f"{renode_settings(board)['cpu']} IsHalted {'true' if halted else 'false'}"


def platform_token(board: Board, generated: str | None) -> str:
    """The ``LoadPlatformDescription`` argument of ``board``: its bundled ``.repl``, or for ``platform =
    "generated"`` the token of the file the caller wrote (``harness.board.renode_platform``)."""
    platform = renode_settings(board)["platform"]
    if platform != GENERATED:
        return renode_path(platform)
    if generated is None:
        raise RenodeConfigError(f"board '{board.name}': the generated platform file was not written")
    return generated


# The name of the pausing tags on the holes of a generated platform (``outside_tag_commands``).
OUTSIDE_TAG = "outside-the-chip"


def outside_tag_commands(board: Board) -> list[str]:
    """Pausing tags on every range outside the chip's map, for a generated platform (nothing for a bundled one,
    which maps too much for this to mean anything).

    Renode does not fault on an unmapped access; it logs ``non existing peripheral`` and goes on, and its log is
    not in step with the UART file, so by the time the harness reads that line the firmware may have printed its
    end of run. A pausing tag stops the machine at the access itself (``sysbus Tag <start size> "name" 0 true``:
    recorded from 1.14.0, 2d_pausing_tag_minimal_bluepill: the UART stopped at the store and the log said
    ``(tag: 'name') WriteDoubleWord to non existing peripheral at 0x60000000``). ``<start size>`` is the monitor's
    relative range (``<start, end>`` the absolute one; ``<start, +size>`` does not tokenize: recorded), and
    ``SystemBus.Tag(Range, String, UInt64 defaultValue, Boolean pausing)`` exists with that meaning from 1.14.0
    (renode-infrastructure 6a0ba28d src/Emulator/Main/Peripherals/Bus/SystemBus.cs:841, Tokenizer.cs:52) to
    master (0c7d0762 SystemBus.cs:555; the pause is EnterTag's Machine.Pause()). Tags live on the system bus,
    which ``machine Reset`` does not clear (SystemBus.Reset), so they are sent once, when the machine is made.
    """
    if not is_generated(board):
        return []
    return [f'sysbus Tag <0x{start:08X} 0x{size:X}> "{OUTSIDE_TAG}" 0 true' for start, size in unmapped_ranges(board)]


def create_machine_commands(board: Board, uart_log: str, semihosting_log: str, handler: bool,
                            platform: str | None = None) -> list[str]:
    """Creates ``board``'s machine (its own name) and sends its log UART and semihosting to files.

    ``uart_log``/``semihosting_log`` are monitor tokens: ``renode_path(file)`` or a ``$variable``;
    ``platform`` the token of a generated platform file (``platform_token``).
    ``CreateFileBackend <file> true`` flushes every byte at once, so the harness can follow the file.
    The CPU is left halted until a binary is loaded (``next_binary_commands``).
    """
    cfg = renode_settings(board)
    return [
        f'mach create "{board.name}"',
        f"machine LoadPlatformDescription {platform_token(board, platform)}",
        *outside_tag_commands(board),
        # Semihosting SYS_WRITE0/WRITEC land in this pseudo-UART.
        *semihosting_commands(board, handler),
        f"{cfg['uart']} CreateFileBackend {uart_log} true",
        f"{semihosting_uart(board, handler)} CreateFileBackend {semihosting_log} true",
        halt_command(board, True),
    ]


def clock_commands(board: Board) -> list[str]:
    """SysTick at the board's core clock. Renode's stm32f103.repl and stm32f4.repl give the NVIC
    ``systickFrequency: 72000000`` whatever the board runs at, and ``machine Reset`` restores it
    (LimitTimer.Reset goes back to the initial frequency), so this follows every reset."""
    if not board.clock_hz:
        return []
    return [f"{renode_settings(board)['nvic']} Frequency {int(board.clock_hz)}"]


def load_elf_commands(board: Board, elf: str) -> list[str]:
    """Loads ``elf`` (a monitor token) into the current machine; LoadELF also sets the PC.

    The Cortex-M vector table offset is set first so the CPU takes its initial SP/PC from the
    firmware's vector table at the board's flash origin.
    """
    cfg = renode_settings(board)
    lines = [f"{cfg['cpu']} VectorTableOffset 0x{board.flash.origin:08x}"] if board.flash is not None else []
    return [*lines, f"sysbus LoadELF {elf}"]


def emulation_guard(elf: Path) -> tuple[int, int] | None:
    """(address, value) to write after loading ``elf`` so unmapped accesses fault, or None.

    Renode answers reads of unmapped addresses with 0 instead of a bus fault; the guard word
    (``harness.board.emulation_guard.guard_word``, when that module exists) turns on an MPU guard in
    the firmware. Looked up lazily: without the module, nothing is written.
    """
    if importlib.util.find_spec("harness.board.emulation_guard") is None:
        return None
    from harness.board.emulation_guard import guard_word  # type: ignore[import-not-found,unused-ignore]

    guard: tuple[int, int] | None = guard_word(elf)
    return guard


def guard_commands(guard: tuple[int, int] | None) -> list[str]:
    if guard is None:
        return []
    address, value = guard
    return [f"sysbus WriteDoubleWord 0x{address:08x} 0x{value:08x}"]


def next_binary_commands(board: Board, elf: Path, guard: tuple[int, int] | None = None,
                         writes: Sequence[tuple[int, int]] = ()) -> list[str]:
    """Puts the (paused) machine of ``board`` back to power-on state with ``elf`` loaded, ready to start.

    ``machine Reset`` resets every peripheral and the CPU (memory included), which is why Renode's
    own scripts reload the binary after it (their ``$reset`` macro); here the reload is spelled out
    so each step's error is reported on its own. UART file backends stay attached across resets.
    The guard word (``emulation_guard``) and ``writes`` (the run token's block, ``harness.core.run_token``) are
    written after the ELF, before the CPU is released.
    """
    return [
        f'mach set "{board.name}"',
        "machine Reset",
        *clock_commands(board),
        *load_elf_commands(board, renode_path(elf)),
        *guard_commands(guard),
        *(command for write in writes for command in guard_commands(write)),
        halt_command(board, False),
    ]


def render_resc(board: Board) -> str:
    old, new = semihosting_commands(board, False), semihosting_commands(board, True)
    lines = _header(board, "#")
    lines += [
        "# Loads one firmware ELF; harness.runners.renode sends the same commands over the monitor. By hand:",
        f"#   renode --disable-xwt --console -e '$elf=@/path/fw.elf' -e 'include @renode/{board.name}.resc' -e start",
        f"# Written for Renode {OLDEST_RENODE} to 1.16.1. Renode master since 2026-06-08 wants the semihosting",
        "# UART on a handler: replace the semihosting lines by",
        *(f"#   {line}" for line in new),
        f"#   {semihosting_uart(board, True)} CreateFileBackend $semihosting_log true",
        "# The logs default to files next to this script ($ORIGIN): a bare @name would land in Renode's install",
        "# folder (recorded from 1.14.0). Set $uart_log / $semihosting_log to put them elsewhere.",
        "$elf?=@fw.elf",
        f"$uart_log?=$ORIGIN/{board.name}-uart.log",
        f"$semihosting_log?=$ORIGIN/{board.name}-semihosting.log",
        "",
        *(line for line in create_machine_commands(board, "$uart_log", "$semihosting_log", False,
                                                   f"$ORIGIN/{board.name}.repl")
          if not line.endswith("IsHalted true")),
        *clock_commands(board),
        *load_elf_commands(board, "$elf"),
        "",
    ]
    assert all(line in lines for line in old)
    return "\n".join(lines)


def _robot_regex(text: str) -> str:
    """``text`` as a regex without backslashes (Robot would unescape them): metacharacters in []."""
    return "".join(f"[{ch}]" if ch in ".^$*+?{}()|[" else ch for ch in text)


def render_robot(board: Board) -> str:
    cfg = renode_settings(board)
    timeout = board.raw.get("run", {}).get("timeout_s", 60)
    semihosting_log = cfg["log"] == "semihosting"
    ends = "|".join([_RECORD_HEAD + PASS_SENTINEL, _RECORD_HEAD + FAIL_SENTINEL, _robot_regex(HARDFAULT_PREFIX)])
    header = _header(board, "#")
    lines = [
        *header,
        "# Runs one micro_test firmware; the harness's own reader judges its whole log after the end line",
        "# (end of run, every case closed, records in sequence, per-case verdicts), so the harness must be",
        "# importable in renode-test's Python:",
        f"#   PYTHONPATH=$PWD renode-test renode/{board.name}.robot --variable ELF:@/abs/path/fw.elf",
        f"# Renode {OLDEST_RENODE} or newer (no keyword from a later release); the semihosting syntax",
        "# is Renode's own answer: CPU.SemihostingHandler where the type exists (master since 2026-06-08).",
        "",
        "*** Settings ***",
        "Suite Setup                   Setup",
        "Suite Teardown                Teardown",
        "Test Teardown                 Test Teardown",
        "Resource                      ${RENODEKEYWORDS}",
        # The harness's own reader judges the whole log (PYTHONPATH=<this checkout>, or the harness installed
        # in renode-test's Python): not the first end line, which a test's own output could imitate.
        f"Library                       harness.robot.HarnessLibrary    board={board.name}",
        "",
        "*** Variables ***",
        "${ELF}                        @${CURDIR}/fw.elf",
        f"${{LOGFILE}}                    ${{OUTPUT_DIR}}/{board.name}-device.log",
        # What the device may still print after its end line (the harness's END_GRACE_S).
        f"${{GRACE}}                      {END_GRACE_S:g}s",
        f"${{PLATFORM}}                   {_robot_escape(platform_token(board, f'@${{CURDIR}}/{board.name}.repl'))}",
        f"${{UART}}                       {cfg['uart']}",
        f"${{TIMEOUT}}                    {int(timeout)}",
        # Any end of the run: the pass or fail sentinel, or a HardFault line (Register Failing Uart
        # String would stop at the last two, but it exists only from Renode 1.16.0).
        f"${{END}}                        {ends}",
        "",
        "*** Keywords ***",
        "Create Board",
        "    [Documentation]           Creates the machine; returns the peripheral the log goes to.",
        f'    Execute Command           mach create "{board.name}"',
        "    Execute Command           machine LoadPlatformDescription ${PLATFORM}",
        *(f"    Execute Command           {line}" for line in outside_tag_commands(board)),
        # Does this Renode have CPU.SemihostingHandler (master since 2026-06-08)? Ask it: a Renode
        # without the type refuses the line and adds nothing; then the UART goes on the CPU.
        f"    ${{handler}}=               Run Keyword And Return Status    Execute Command    "
        f"{semihosting_commands(board, True)[0]}",
        "    IF    ${handler}",
        *(f"        Execute Command       {line}" for line in semihosting_commands(board, True)[1:]),
        f"        ${{semihosting}}=       Set Variable    {semihosting_uart(board, True)}",
        "    ELSE",
        *(f"        Execute Command       {line}" for line in semihosting_commands(board, False)),
        f"        ${{semihosting}}=       Set Variable    {semihosting_uart(board, False)}",
        "    END",
        *(f"    Execute Command           {line}" for line in clock_commands(board)),
        *(f"    Execute Command           {line}" for line in load_elf_commands(board, "${ELF}")),
        f"    ${{log}}=                   Set Variable    {'${semihosting}' if semihosting_log else '${UART}'}",
        "    Execute Command           ${log} CreateFileBackend @${LOGFILE} true",
        "    RETURN                    ${log}",
        "",
        "*** Test Cases ***",
        "Firmware Passes Its Tests",
        "    ${log}=                   Create Board",
        "    Create Terminal Tester    ${log}    timeout=${TIMEOUT}",
        "    Start Emulation",
        "    ${end}=                   Wait For Line On Uart    ${END}    treatAsRegex=true",
        f"    Should Contain            ${{end.line}}    {PASS_SENTINEL}",
        # The first end line is not the verdict: the whole log is, once the device had its grace.
        "    Sleep                     ${GRACE}",
        "    Log File Should Pass      ${LOGFILE}    ${ELF}",
        "",
    ]
    return "\n".join(lines)


def renode_boards() -> list[Board]:
    """Boards whose board file has a [renode] table."""
    return [b for b in (load_board(name) for name in available_boards()) if b.section("renode")]


def expected_files() -> dict[Path, str]:
    files: dict[Path, str] = {}
    for board in renode_boards():
        files[RENODE_DIR / f"{board.name}.resc"] = render_resc(board)
        files[RENODE_DIR / f"{board.name}.robot"] = render_robot(board)
        if is_generated(board):
            files[RENODE_DIR / f"{board.name}.repl"] = platform_description(board)
    return files


def stale_files() -> list[str]:
    """Problems with the committed scripts: missing, outdated, or for boards that no longer exist."""
    expected = expected_files()
    problems = []
    for path, text in expected.items():
        if not path.is_file():
            problems.append(f"{path.relative_to(REPO_ROOT)} is missing")
        elif path.read_text() != text:
            problems.append(f"{path.relative_to(REPO_ROOT)} is out of date")
    for path in sorted(path for pattern in ("*.resc", "*.robot", "*.repl") for path in RENODE_DIR.glob(pattern)):
        if path not in expected:
            problems.append(f"{path.relative_to(REPO_ROOT)} has no board with a [renode] table")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.runners.renode_scripts",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed scripts are stale")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = stale_files()
            for problem in problems:
                print(f"{problem}; run: python -m harness.runners.renode_scripts", file=sys.stderr)
            return 1 if problems else 0
        RENODE_DIR.mkdir(exist_ok=True)
        for path, text in expected_files().items():
            path.write_text(text)
            print(f"wrote {path.relative_to(REPO_ROOT)}")
    except BoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
