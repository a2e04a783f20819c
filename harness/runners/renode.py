"""Runs firmware ELFs in one persistent Renode (renode.io) per process (= per pytest worker).

Renode is started once, headless, with its monitor on a local TCP port
(``renode --disable-xwt --plain --port N``); the harness drives it over that port. The first
command is ``version``: it picks the semihosting syntax (``renode_scripts.uses_semihosting_handler``).
Each board gets one machine, created on first use, whose log UART and semihosting pseudo-UART
write into files (``CreateFileBackend``) that the runner follows. Per binary: ``machine Reset``,
SysTick at the board's clock, load the ELF (plus the emulation guard word, when there is one),
release the CPU, ``start``, follow the files from where they were, ``pause``, halt the CPU again
(``start`` resumes every machine, so idle machines are kept halted). The exact monitor commands are
in ``harness.runners.renode_scripts`` (one place). Up to 1.16.1 Renode ignores semihosting ``SYS_EXIT``, and
master only halts the CPU on it, so runs end by the log: the end marker (plus a short grace), a
HardFault line, or the timeout; ``exit_code`` is therefore None. If the session breaks (Renode
died, monitor silent), it is restarted once for that binary; a second failure is an infra error
naming the cause. ``close_session()`` quits Renode: registered with ``harness.core.shutdown`` when a
Renode is started, so the pytest plugin (at session finish) and the CLI close it; ``atexit`` covers
other callers.

The monitor protocol (telnet negotiation, echo, prompt, errors) is ``harness.runners.renode_monitor``.

Renode versions: run for real (elsewhere, each built from source) are 1.14.0 and 1.16.1; byte-exact recordings of
both are in tests/renode_recordings and this session runs against them replayed (harness/testing/renode_replay.py,
harness/runners/renode_replay_test.py). Only read in Renode's source: 1.15.x, 1.16.0 and master (renode-
infrastructure 0c7d0762, August 2026). Oldest supported: 1.14.0.

Where Renode is looked for, in order: ``$RENODE`` (the executable or its folder),
``renode`` on PATH, the folder of ``renode-test`` on PATH, and renode-run's downloads (``~/.config/renode``:
``renode-run.path``, ``renode-run.json``, ``renode-run.download/*/renode-*/renode``).

Size: just over 400 lines: finding Renode, the persistent session and the runner; the monitor
protocol is ``harness.runners.renode_monitor``, the commands ``harness.runners.renode_scripts``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from harness.board.boards import Board, BoardError
from harness.board.renode_platform import allowed_windows, is_generated, outside, platform_description
from harness.core import procs
from harness.core.binary_info import symbol_address
from harness.core.shutdown import on_session_end
from harness.formats.reader import board_format
from harness.runners import renode_scripts as cmds
from harness.runners.base import OnLine, RunResult, ToolCheck, captured_transports, tool_check
from harness.runners.control import token_writes
from harness.runners.qemu import elf_problem
from harness.runners.renode_monitor import (
    COMMAND_TIMEOUT_S,
    STARTUP_TIMEOUT_S,
    MonitorClient,
    MonitorCommandError,
    RenodeSessionError,
    monitor_errors,
)
from harness.runners.renode_scripts import RenodeConfigError, renode_path, renode_settings
from harness.runners.stream import DeviceStream, FileTail

RENODE_RUN_DIR = Path.home() / ".config" / "renode"
INSTALL_HINT = "install it from renode.io or `pip install renode-run && renode-run download`"


def _executable(path: Path) -> Path | None:
    if path.is_dir():
        path = path / "renode"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def renode_candidates(home: Path | None = None) -> list[tuple[str, Path | None]]:
    """(where, executable or None) for every place Renode may be; for the not-found message."""
    config = (home / ".config" / "renode") if home is not None else RENODE_RUN_DIR
    found: list[tuple[str, Path | None]] = []
    env = os.environ.get("RENODE")
    found.append(("$RENODE", _executable(Path(env)) if env else None))
    on_path = shutil.which("renode")
    found.append(("PATH", Path(on_path) if on_path else None))
    # renode-test lives in the Renode folder, next to the renode launcher.
    tester = shutil.which("renode-test")
    found.append(("renode-test's folder", _executable(Path(tester).resolve().parent) if tester else None))
    path_file = config / "renode-run.path"
    try:
        recorded = _executable(Path(path_file.read_text().strip()))
    except OSError:
        recorded = None
    found.append((str(path_file), recorded))
    json_file = config / "renode-run.json"
    from_json = None
    try:
        data = json.loads(json_file.read_text())
        for entry in list(data.get("default", {}).values()) + list(data.get("installations", {})):
            from_json = _executable(Path(entry))
            if from_json:
                break
    except (OSError, ValueError, AttributeError):
        pass
    found.append((str(json_file), from_json))
    downloads = sorted((config / "renode-run.download").glob("*/renode-*/renode"), reverse=True)
    found.append((str(config / "renode-run.download"), next(filter(None, map(_executable, downloads)), None)))
    return found


def find_renode(home: Path | None = None) -> Path | None:
    return next((path for _, path in renode_candidates(home) if path is not None), None)


def check_tools() -> list[ToolCheck]:
    """``harness doctor``: the Renode this backend would start (optional: QEMU is the fallback)."""
    path = find_renode()
    if path is None:
        looked = ", ".join(where for where, _ in renode_candidates())
        return [ToolCheck("renode", False, f"not found: {INSTALL_HINT}; looked in {looked}")]
    found = tool_check(str(path), INSTALL_HINT)
    return [ToolCheck("renode", found.ok, found.detail)]


# Renode's log lines the run watches (recorded from Renode 1.14.0, tests/renode_recordings):
#   [ERROR] cpu: CPU abort [PC=0x0]: Trying to execute code outside RAM or ROM at 0x00000000.
#   [WARNING] sysbus: [cpu: 0x8000668] WriteDoubleWord to non existing peripheral at 0x60000000, value 0x5A5A5A5A.
#   [WARNING] nvic: Unhandled read from offset 0xD2C.
_UNMAPPED_RE = re.compile(r"sysbus: \[cpu: 0x(?P<pc>[0-9A-Fa-f]+)\] (?:\(tag: [^)]*\) )?(?P<access>(?:Read|Write)\w+) "
                          r"(?:to|from) non existing peripheral at 0x(?P<address>[0-9A-Fa-f]+)")
_NVIC_UNHANDLED_RE = re.compile(r"nvic: Unhandled read from offset 0x(?P<offset>[0-9A-Fa-f]+)")
# System control block registers at NVIC offsets (0xE000E000 + offset) that Renode's NVIC may not model.
SCB_REGISTERS = {0xD28: "CFSR", 0xD2C: "HFSR", 0xD34: "MMFAR", 0xD38: "BFAR"}


class RenodeLogWatch:
    """A poller of Renode's own log (its stdout) during one binary's run. Reads only what was appended
    since the run began.

    * ``CPU abort`` — Renode stopped the core itself, e.g. a call through a null pointer — ends the run
      as a crash of the running case at once; no HardFault line will come.
    * An access to a non-existing peripheral at an address outside the board's memory map (on a
      ``platform = "generated"`` board only what the chip has is mapped: ``harness.board.renode_platform``)
      ends the run as a crash naming the access, the address and the PC: the chip would fault there.
      Accesses inside the chip's own windows that Renode does not model (RCC, GPIO) are only logged.
    * ``nvic: Unhandled read`` of HFSR, MMFAR or BFAR: Renode does not model them (they read 0); kept in
      ``unmodelled`` so the crash report says so instead of decoding zeros.
    """

    MARKER = "CPU abort"

    def __init__(self, path: Path, stream: DeviceStream, board: Board | None = None) -> None:
        self.path = path
        self.stream = stream
        self.board = board
        self.offset = path.stat().st_size if path.exists() else 0
        self.pending = b""
        self.fired = False
        self.unmodelled: list[str] = []
        # The chip's address map, once per run (a passing run logs many warnings for RCC and GPIO); None
        # where the board file declares no map to hold accesses against.
        self.windows: list[tuple[int, int, str]] | None = None
        if board is not None:
            with contextlib.suppress(BoardError):
                self.windows = allowed_windows(board)

    def __call__(self) -> None:
        if self.fired:
            return
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return
        self.offset += len(data)
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", errors="replace").strip()
            if self.MARKER in line:
                self._stop(f"Renode stopped the core: {line.split('] ', 1)[-1]}")
                return
            unmapped = _UNMAPPED_RE.search(line)
            if unmapped is not None and self.board is not None and self.windows is not None:
                address = int(unmapped["address"], 16)
                if outside(self.windows, address):
                    self._stop(f"{unmapped['access']} at 0x{address:08x} (PC=0x{int(unmapped['pc'], 16):08x}): "
                               f"outside {self.board.name}'s memory map ({self.board.path / 'board.toml'} [memory]); "
                               "the chip would fault there")
                    return
            nvic = _NVIC_UNHANDLED_RE.search(line)
            if nvic is not None:
                register = SCB_REGISTERS.get(int(nvic["offset"], 16))
                if register is not None and register not in self.unmodelled:
                    self.unmodelled.append(register)

    def _stop(self, why: str) -> None:
        self.fired = True
        self.stream.stop("crash", note=why)


# Renode deletes every $TMPDIR/renode-* folder not named after a live PID when it starts (recorded from
# 1.14.0): the session's folder must never start with "renode-", or a second worker's Renode would delete it.
SESSION_DIR_PREFIX = "harness-renode-"


# The output files, Renode's log and the exit word are looked at this often while a binary runs: a file
# read or stat each, so the run ends close to the firmware's exit.
FOLLOW_POLL_S = 0.01
EXIT_SYMBOL = "g_micro_exit"  # boards/cortex_m/semihosting.c: {EXIT_MAGIC, status} written before the halt
EXIT_MAGIC = 0x45584954
EXIT_POLL_S = 0.05  # a monitor round trip (a few ms on a real Renode); the run ends within this of the exit
# A UInt32 result as the monitor prints it in each of its number modes (numbersMode, or number-format in Renode's
# config): "0x{0:X8}" (Hexadecimal, the default), "{0}" (Decimal), "0x{0:X8} ({0})" (Both) (renode-infrastructure
# src/Emulator/Extensions/UserInterface/MonitorCommands.cs, PrintActionResult/GetNumberFormat: 6a0ba28d = 1.14.0
# lines 276-296, add012af = 1.16.1 lines 1136-1164, unchanged in master 0c7d0762).
_UINT32_RE = re.compile(r"0x(?P<hex>[0-9A-Fa-f]{1,8})(?: \(\d+\))?|(?P<dec>\d{1,10})")


class ExitWatch:
    """The firmware's exit status on Renode, which answers semihosting ``SYS_EXIT`` with 0 and lets the
    program go on (recorded from 1.14.0, 2f_semihosting): the board code writes ``{EXIT_MAGIC, status}``
    to ``g_micro_exit`` just before it halts, and this poller reads the word over the monitor (``sysbus
    ReadDoubleWord``, cleared before the run). Once it holds the magic, the output files are drained and
    the run ends at that exit with its status, instead of waiting out the end-of-run grace; a status
    that contradicts the log fails the run as on QEMU. Firmware without the word, or a reply this does
    not understand, leaves the run to the log's end rule as before (the watch then turns itself off)."""

    def __init__(self, session: RenodeSession, address: int, stream: DeviceStream, tails: list[FileTail]) -> None:
        self.session = session
        self.address = address
        self.stream = stream
        self.tails = tails
        self.next_at = 0.0
        self.off = False

    def _read(self, address: int) -> int | None:
        try:
            lines = self.session.command(f"sysbus ReadDoubleWord 0x{address:08x}")
        except MonitorCommandError:
            return None
        for line in reversed(lines):
            value = _UINT32_RE.fullmatch(line.strip())
            if value is not None:
                return int(value["hex"], 16) if value["hex"] else int(value["dec"])
        return None

    def __call__(self) -> None:
        now = time.monotonic()
        if self.off or now < self.next_at:
            return
        self.next_at = now + EXIT_POLL_S
        magic = self._read(self.address)
        if magic is None:
            self.off = True  # not understood: the log's end rule decides, as without the word
            return
        if magic != EXIT_MAGIC:
            return
        status = self._read(self.address + 4)
        self.off = True
        if status is None:
            return
        for tail in self.tails:
            tail()  # what the firmware printed before it exited reaches the stream first
        self.stream.exit(status - (1 << 32) if status & 0x80000000 else status)


def _free_port() -> int:
    # Bound and released again: a small race with other programs, covered by the one restart.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RenodeSession:
    """One Renode process with one machine per board, reused for every binary of this process."""

    def __init__(
        self,
        renode: Path,
        startup_timeout_s: float | None = None,
        command_timeout_s: float | None = None,
    ) -> None:
        self.renode = renode
        self.command_timeout_s = COMMAND_TIMEOUT_S if command_timeout_s is None else command_timeout_s
        startup_timeout_s = STARTUP_TIMEOUT_S if startup_timeout_s is None else startup_timeout_s
        self.closed = False
        self._dir = Path(tempfile.mkdtemp(prefix=SESSION_DIR_PREFIX))
        self._log = self._dir / "renode.log"  # Renode's own log (stdout): quoted when it dies
        self._machines: dict[str, tuple[Path, Path]] = {}  # board -> (UART file, semihosting file)
        self._board_errors: dict[str, str] = {}  # board whose machine could not be created -> why
        self._monitor: MonitorClient | None = None
        port = _free_port()
        try:
            with self._log.open("wb") as out:
                # Own process group (close() ends Renode and its helpers), dies with the harness.
                self._proc = procs.spawn(
                    cmds.renode_argv(renode, port),
                    stdin=subprocess.PIPE,  # open and silent: a console that reads stdin must not see EOF
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
        except OSError as error:
            shutil.rmtree(self._dir, ignore_errors=True)
            self.closed = True
            raise RenodeSessionError(f"cannot start {renode}: {error}; {INSTALL_HINT}") from error
        try:
            self._monitor = MonitorClient.connect(port, time.monotonic() + startup_timeout_s, self._gone)
        except BaseException:
            self.close(graceful=False)
            raise
        self.version = self._monitor.version
        # None: a 1.16.1 build (release or master): the first machine asks Renode (``machine``).
        self.semihosting_handler: bool | None = cmds.uses_semihosting_handler(self.version)

    def _gone(self) -> str | None:
        code = self._proc.poll()
        if code is None:
            return None
        try:
            tail = [line for line in self._log.read_text(errors="replace").splitlines() if line.strip()][-5:]
        except OSError:
            tail = []
        return f"Renode exited with status {code} ({' | '.join(tail) or 'no output'})"

    def command(self, command: str) -> list[str]:
        """Runs one monitor command; MonitorCommandError when Renode reports an error."""
        if self._monitor is None or self.closed:
            raise RenodeSessionError("the Renode session is closed")
        lines = self._monitor.command(command, self.command_timeout_s)
        errors = monitor_errors(lines)
        if errors:
            raise MonitorCommandError(f"`{command}`: {' | '.join(lines)}")
        return lines

    def _create_machine(self, board: Board, uart: Path, semi: Path, handler: bool) -> None:
        platform = None
        if is_generated(board):  # only what the chip has (harness/board/renode_platform.py)
            path = self._dir / f"{board.name}.repl"
            try:
                path.write_text(platform_description(board))
            except BoardError as error:
                raise MonitorCommandError(str(error)) from error
            platform = renode_path(path)
        for command in cmds.create_machine_commands(board, renode_path(uart), renode_path(semi), handler, platform):
            self.command(command)

    def machine(self, board: Board) -> tuple[Path, Path]:
        """(UART file, semihosting file) of ``board``'s machine; created on first use."""
        if board.name in self._board_errors:
            raise MonitorCommandError(self._board_errors[board.name])
        if board.name not in self._machines:
            uart, semi = self._dir / f"{board.name}-uart.log", self._dir / f"{board.name}-semihosting.log"
            try:
                if self.semihosting_handler is None:
                    # Ask Renode whether CPU.SemihostingHandler exists: try it; a Renode without the type
                    # answers "Could not resolve type" and has added nothing, so the older syntax follows.
                    try:
                        self._create_machine(board, uart, semi, True)
                        self.semihosting_handler = True
                    except MonitorCommandError as error:
                        if cmds.UNKNOWN_TYPE not in str(error):
                            raise
                        with contextlib.suppress(MonitorCommandError):
                            self.command(f'mach rem "{board.name}"')
                        self.semihosting_handler = False
                        self._create_machine(board, uart, semi, False)
                else:
                    self._create_machine(board, uart, semi, self.semihosting_handler)
            except MonitorCommandError as error:
                # Half-created: remove it, so `start` does not run it (it would run whatever its CPU
                # finds). Reported for every binary of the board, without trying again.
                with contextlib.suppress(MonitorCommandError):
                    self.command(f'mach rem "{board.name}"')
                syntax = "CPU.SemihostingHandler" if self.semihosting_handler else "UART.SemihostingUart on the CPU"
                self._board_errors[board.name] = (
                    f"cannot create the {board.name} machine: {error} "
                    f"(Renode {self.version or 'of unknown version'}; semihosting as {syntax})"
                )
                raise MonitorCommandError(self._board_errors[board.name]) from error
            self._machines[board.name] = (uart, semi)
        return self._machines[board.name]

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine) -> RunResult:
        uart, semi = self.machine(board)
        try:
            writes = token_writes(elf, "memory (Renode sysbus)")  # the run token (harness/core/run_token.py)
            exit_word = symbol_address(elf, EXIT_SYMBOL)
            if exit_word is not None:
                writes = [*writes, (exit_word, 0)]  # no stale exit from an earlier binary at that address
            for command in cmds.next_binary_commands(board, elf, cmds.emulation_guard(elf), writes):
                self.command(command)
        except MonitorCommandError:
            # Renode's reset may have released the CPU (master's CortexM.Reset does): halt it again,
            # or the next `start` would run this machine with no firmware loaded.
            with contextlib.suppress(MonitorCommandError):
                self.command(cmds.halt_command(board, True))
            raise
        captured = captured_transports(board)
        # No exit status: Renode ignores semihosting SYS_EXIT up to 1.16.1; the run ends by the log.
        stream = DeviceStream(on_line, fmt=board_format(board), exit_status=False)
        # The files span the session: only what this binary prints.
        tails: list[FileTail | RenodeLogWatch] = [
            FileTail(path, stream, from_end=True) for kind, path in (("semihosting", semi), ("uart", uart))
            if kind in captured]
        watch = RenodeLogWatch(self._log, stream, board)  # Renode's own log: a stopped core, an unmapped access
        exited = ExitWatch(self, exit_word, stream, [t for t in tails if isinstance(t, FileTail)]) \
            if exit_word is not None else None
        tails.append(watch)
        start = time.monotonic()
        self.command(cmds.START)
        end = self._follow(stream, [*tails, *([exited] if exited is not None else [])], start + timeout_s)
        watch()  # the lines Renode logged as the run ended (the fault handler's register reads)
        try:
            self.command(cmds.PAUSE)
            self.command(cmds.halt_command(board, True))  # idle until its next binary: later `start`s skip it
        except (RenodeSessionError, MonitorCommandError):
            self.close(graceful=False)  # the result stands; the next binary gets a fresh Renode
        return RunResult("renode", end.log, end.exit_code, end.timed_out, end.duration_s, end.end_reason,
                         case_seconds=end.case_seconds, notes=end.notes, unmodelled=list(watch.unmodelled))

    def _follow(self, stream: DeviceStream, tails: Sequence[Callable[[], None]], deadline: float) -> RunResult:
        """Follows the output files in the one run loop; a Renode that died mid-run is an infra error."""

        def check_alive() -> None:
            why = self._gone()
            if why is not None:
                stream.stop("infra-error", infra_error=f"{why} while the firmware ran")

        end = stream.follow(deadline, pollers=[*tails, check_alive], poll_s=FOLLOW_POLL_S)
        if end.end_reason == "infra-error":
            raise RenodeSessionError(end.infra_error or "Renode stopped while the firmware ran")
        for tail in tails:
            if isinstance(tail, FileTail):
                tail.rest()  # a last line without its newline
        return stream.finish(end)

    def close(self, graceful: bool = True) -> None:
        """Quits Renode (``quit``, then the process group is ended); safe to call twice.

        ``graceful=False`` (a broken session) skips ``quit``: a monitor that stopped answering
        would only make us wait for nothing.
        """
        if self.closed:
            return
        self.closed = True
        if self._monitor is not None:
            if graceful and self._proc.poll() is None:
                with contextlib.suppress(RenodeSessionError):
                    self._monitor.send_only(cmds.QUIT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._proc.wait(timeout=5.0)
            self._monitor.close()
        procs.reap(self._proc, term_first=True)
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        shutil.rmtree(self._dir, ignore_errors=True)


# The session of this process (an xdist worker is a process): created on the first Renode run.
_SESSION: RenodeSession | None = None
# Renode could not be started at all (twice): reported at once for later binaries, not retried.
_START_FAILURE: str | None = None
_LOCK = threading.Lock()  # one binary at a time (dut runs the runner in a thread)


def close_session() -> None:
    """Quits this process's Renode, if one was started (pytest session finish, interpreter exit)."""
    global _SESSION, _START_FAILURE
    with _LOCK:
        session, _SESSION, _START_FAILURE = _SESSION, None, None
    if session is not None:
        session.close()


atexit.register(close_session)


def _run_in_session(
    renode: Path, elf: Path, board: Board, timeout_s: float, on_line: Callable[[str], None] | None
) -> RunResult:
    global _SESSION, _START_FAILURE
    if _START_FAILURE is not None:
        return _infra(_START_FAILURE)
    causes: list[str] = []
    start_failures = 0
    for _ in range(2):  # the session as it is, then (if it broke) one restart
        if _SESSION is None or _SESSION.closed or _SESSION.renode != renode:
            if _SESSION is not None:
                _SESSION.close()
            _SESSION = None
            on_session_end(close_session)  # the front end quits it when done (harness.core.shutdown)
            try:
                _SESSION = RenodeSession(renode)
            except RenodeSessionError as error:
                causes.append(str(error))
                start_failures += 1
                continue
        try:
            return _SESSION.run(elf, board, timeout_s, on_line)
        except MonitorCommandError as error:
            return _infra(f"Renode rejected a command: {error}; check the board's [renode] table and the ELF")
        except RenodeSessionError as error:
            causes.append(str(error))
            _SESSION.close(graceful=False)
            _SESSION = None
    message = f"the Renode session broke: {causes[0]}; restarted Renode once and it failed again: {causes[-1]}"
    if start_failures == 2:
        _START_FAILURE = message  # Renode does not come up at all here: say so at once from now on
    return _infra(message)


class RenodeRunner:
    name = "renode"

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        try:
            renode_settings(board)
        except RenodeConfigError as error:
            return str(error)
        if find_renode() is None:
            looked = ", ".join(where for where, _ in renode_candidates())
            return f"Renode not found: {INSTALL_HINT}; looked in {looked}"
        return None

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        reason = self.unavailable_reason(board)
        if reason is not None:
            return _infra(reason)
        renode = find_renode()
        assert renode is not None
        elf = Path(elf).resolve()
        if not elf.is_file():
            return _infra(f"firmware {elf} does not exist; build it first (make -C micro_runtime TARGET={board.name})")
        problem = elf_problem(elf)
        if problem is not None:
            return _infra(problem)
        try:
            renode_path(elf)
        except RenodeConfigError as error:
            return _infra(str(error))
        with _LOCK:
            return _run_in_session(renode, elf, board, timeout_s, on_line)


def _infra(message: str) -> RunResult:
    return RunResult("renode", b"", None, False, 0.0, "infra-error", infra_error=message)
