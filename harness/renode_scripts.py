"""Generates the per-board Renode scripts ``renode/<board>.resc`` and ``renode/<board>.robot``.

Both come from the board file's ``[renode]`` table, so the emulated platform, the
log UART and the CPU are named in one place:

  [renode]
  platform = "platforms/cpus/stm32f103.repl"   # Renode-bundled .repl (or an absolute path)
  uart = "sysbus.usart1"                       # the board's log UART
  cpu = "sysbus.cpu"                           # optional; default sysbus.cpu

Semihosting output goes through Renode's ``UART.SemihostingUart`` attached to the
CPU. The ``.resc`` takes its inputs as Renode variables (``$elf``, ``$uart_log``,
``$semihosting_log``) which ``harness.runners.renode`` sets; the ``.robot`` runs one
firmware under ``renode-test`` with Renode's terminal tester. Regenerate with
``python -m harness.renode_scripts`` (``--check`` fails when the committed files are stale).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import REPO_ROOT
from harness.boards import Board, BoardError, available_boards, load_board
from harness.crash import HARDFAULT_PREFIX
from harness.formats.micro_test import DONE_FAILED as FAIL_SENTINEL
from harness.formats.micro_test import DONE_PASSED as PASS_SENTINEL

RENODE_DIR = REPO_ROOT / "renode"
SEMIHOSTING_NAME = "semihosting"  # peripheral name under the CPU: <cpu>.semihosting


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


def renode_settings(board: Board) -> dict[str, str]:
    """Validated [renode] settings of ``board``: platform, uart, cpu, log (the UART the tester watches)."""
    table = board.section("renode")
    where = board.path / "board.toml"
    if not table:
        raise RenodeConfigError(f"board '{board.name}' has no [renode] table in {where}; add platform and uart")
    platform = table.get("platform")
    uart = table.get("uart")
    if not isinstance(platform, str) or not platform.endswith(".repl"):
        raise RenodeConfigError(
            f"{where}: [renode] platform must name a .repl file, e.g. platforms/cpus/stm32f103.repl"
        )
    if not isinstance(uart, str) or not uart.startswith("sysbus."):
        raise RenodeConfigError(f"{where}: [renode] uart must name the log UART peripheral, e.g. sysbus.usart1")
    cpu = table.get("cpu", "sysbus.cpu")
    if not isinstance(cpu, str) or not cpu.startswith("sysbus."):
        raise RenodeConfigError(f"{where}: [renode] cpu must name the CPU peripheral, e.g. sysbus.cpu")
    # The terminal tester watches one channel: the UART when the board logs there (with
    # "semihosting-if-debugger" Renode shows no debugger, so output goes to the UART), else semihosting.
    transports = board.raw.get("log", {}).get("transports", ["uart"])
    semihosting_only = "uart" not in transports and any(str(t).startswith("semihosting") for t in transports)
    log = f"{cpu}.{SEMIHOSTING_NAME}" if semihosting_only else uart
    return {"platform": platform, "uart": uart, "cpu": cpu, "log": log}


def _header(board: Board, comment: str) -> list[str]:
    source = (board.path / "board.toml").relative_to(REPO_ROOT) if board.path.is_relative_to(REPO_ROOT) else board.path
    return [
        f"{comment} Generated from {source} by harness.renode_scripts; do not edit.",
        f"{comment} {board.description or board.name}",
    ]


# ---------------------------------------------------------------- monitor commands --
# Every Renode monitor command the harness sends lives here, so the whole interface to Renode
# can be checked in one place against Renode's documentation (renode.readthedocs.io: "Using
# Renode", "Working with machines", "Basic execution control", "UART integration"). The
# persistent session (harness.runners.renode) and the generated .resc both use them.
START = "start"  # runs every machine of the emulation
PAUSE = "pause"  # stops virtual time; the machines keep their state
QUIT = "quit"  # ends Renode gracefully


def renode_argv(renode: str | Path, monitor_port: int) -> list[str]:
    """Renode headless with its monitor on a TCP port (telnet mode) instead of a window.

    ``--disable-xwt`` (alias ``--disable-gui`` in newer releases) also hides the monitor window;
    ``--port``/``-P`` serves the monitor on ``monitor_port``; ``--plain`` drops colour codes from the
    log. No ``--console``: it would take the monitor to stdin/stdout and ignore ``--port``.
    """
    return [str(renode), "--disable-xwt", "--plain", "--port", str(monitor_port)]


def create_machine_commands(board: Board, uart_log: str, semihosting_log: str) -> list[str]:
    """Creates ``board``'s machine (its own name) and sends its log UART and semihosting to files.

    ``uart_log``/``semihosting_log`` are monitor tokens: ``renode_path(file)`` or a ``$variable``.
    ``CreateFileBackend <file> true`` flushes every byte at once, so the harness can follow the file.
    """
    cfg = renode_settings(board)
    cpu_name = cfg["cpu"].rsplit(".", 1)[1]
    return [
        f'mach create "{board.name}"',
        f"machine LoadPlatformDescription {renode_path(cfg['platform'])}",
        # Semihosting SYS_WRITE0/WRITEC land in this pseudo-UART on the CPU.
        f'machine LoadPlatformDescriptionFromString "{SEMIHOSTING_NAME}: UART.SemihostingUart @ {cpu_name}"',
        f"{cfg['uart']} CreateFileBackend {uart_log} true",
        f"{cfg['cpu']}.{SEMIHOSTING_NAME} CreateFileBackend {semihosting_log} true",
    ]


def load_elf_commands(board: Board, elf: str) -> list[str]:
    """Loads ``elf`` (a monitor token) into the current machine; LoadELF also sets the PC.

    The Cortex-M vector table offset is set first so the CPU takes its initial SP/PC from the
    firmware's vector table at the board's flash origin.
    """
    cfg = renode_settings(board)
    lines = [f"{cfg['cpu']} VectorTableOffset 0x{board.flash.origin:08x}"] if board.flash is not None else []
    return [*lines, f"sysbus LoadELF {elf}"]


def next_binary_commands(board: Board, elf: Path) -> list[str]:
    """Puts the (paused) machine of ``board`` back to power-on state with ``elf`` loaded.

    ``machine Reset`` resets every peripheral and the CPU (memory included), which is why Renode's
    own scripts reload the binary after it (their ``$reset`` macro); here the reload is spelled out
    so each step's error is reported on its own. UART file backends stay attached across resets.
    """
    return [f'mach set "{board.name}"', "machine Reset", *load_elf_commands(board, renode_path(elf))]


def render_resc(board: Board) -> str:
    lines = _header(board, "#")
    lines += [
        "# Loads one firmware ELF; harness.runners.renode sends the same commands over the monitor. By hand:",
        f"#   renode --disable-xwt --console -e '$elf=@/path/fw.elf' -e 'include @renode/{board.name}.resc' -e start",
        "$elf?=@fw.elf",
        f"$uart_log?=@{board.name}-uart.log",
        f"$semihosting_log?=@{board.name}-semihosting.log",
        "",
        *create_machine_commands(board, "$uart_log", "$semihosting_log"),
        *load_elf_commands(board, "$elf"),
        "",
    ]
    return "\n".join(lines)


def render_robot(board: Board) -> str:
    cfg = renode_settings(board)
    cpu_name = cfg["cpu"].rsplit(".", 1)[1]
    timeout = board.raw.get("run", {}).get("timeout_s", 60)
    header = _header(board, "#")
    lines = [
        *header,
        "# Runs one micro_test firmware and passes when it reports ~~~ALL TESTS PASSED~~~:",
        f"#   renode-test renode/{board.name}.robot --variable ELF:@/abs/path/fw.elf",
        "",
        "*** Settings ***",
        "Suite Setup                   Setup",
        "Suite Teardown                Teardown",
        "Test Teardown                 Test Teardown",
        "Resource                      ${RENODEKEYWORDS}",
        "",
        "*** Variables ***",
        "${ELF}                        @${CURDIR}/fw.elf",
        f"${{PLATFORM}}                   {_robot_escape(renode_path(cfg['platform']))}",
        f"${{LOG_UART}}                   {cfg['log']}",
        f"${{TIMEOUT}}                    {int(timeout)}",
        "",
        "*** Keywords ***",
        "Create Board",
        f'    Execute Command           mach create "{board.name}"',
        "    Execute Command           machine LoadPlatformDescription ${PLATFORM}",
        f"    Execute Command           machine LoadPlatformDescriptionFromString "
        f'"{SEMIHOSTING_NAME}: UART.SemihostingUart @ {cpu_name}"',
    ]
    if board.flash is not None:
        lines.append(f"    Execute Command           {cfg['cpu']} VectorTableOffset 0x{board.flash.origin:08x}")
    lines += [
        "    Execute Command           sysbus LoadELF ${ELF}",
        "",
        "*** Test Cases ***",
        "Firmware Passes Its Tests",
        "    Create Board",
        "    Create Terminal Tester    ${LOG_UART}    timeout=${TIMEOUT}",
        # Fail at once on the failure sentinel or a HardFault instead of waiting out the timeout.
        f"    Register Failing Uart String    {FAIL_SENTINEL}",
        f"    Register Failing Uart String    {HARDFAULT_PREFIX}",
        "    Start Emulation",
        f"    Wait For Line On Uart     {PASS_SENTINEL}",
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
    for path in sorted(RENODE_DIR.glob("*.resc")) + sorted(RENODE_DIR.glob("*.robot")):
        if path not in expected:
            problems.append(f"{path.relative_to(REPO_ROOT)} has no board with a [renode] table")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.renode_scripts", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed scripts are stale")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = stale_files()
            for problem in problems:
                print(f"{problem}; run: python -m harness.renode_scripts", file=sys.stderr)
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
