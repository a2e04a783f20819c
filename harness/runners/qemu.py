"""Runs a firmware ELF in QEMU (``qemu-system-arm``).

Semihosting output and the board's log UART share one muxed chardev on
QEMU's stdout, so the log keeps the order the device wrote it in; QEMU's own
diagnostics stay on stderr. A board that mirrors its log to both transports is
captured from semihosting only (``captured_transports``), so lines are not doubled.
The semihosting exit status (SYS_EXIT_EXTENDED) becomes QEMU's exit code. The same chardev
reads QEMU's stdin: what ``dut.write`` sends reaches the log UART's receiver (``DebugRead``),
with the mux's escape byte (Ctrl-A) doubled so it arrives as data. Board file keys, table ``[qemu]``:

  machine = "stm32vldiscovery"   # required: qemu-system-arm -M <machine>
  serial = 0                     # which -serial slot is the log UART (earlier ones get "null")
  icount = 4                     # optional: -icount shift=N, deterministic instruction timing
  extra_args = ["-cpu", "..."]   # optional: appended verbatim

Firmware with the emulation guard word (``harness.board.emulation_guard``) gets it set with QEMU's
generic loader, so an access outside the board's real memory map faults as on the chip.

``pytest --icount N`` and ``harness run --icount N`` override ``icount`` for one run (QEMU only).

A micro_test binary is run with the harness's instruction-counting plugin (``harness.runners.insn_count``):
its result carries the instructions of each case.
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import harness.runners.insn_count as insn_count
from harness.board.boards import Board
from harness.board.emulation_guard import guard_word
from harness.formats.reader import board_format
from harness.run_result import Note
from harness.runners.base import OnLine, RunResult, ToolCheck, captured_transports, exits_with_status, tool_check
from harness.runners.control import token_writes
from harness.runners.process import run_process

QEMU = "qemu-system-arm"
_INSTALL = "install it: apt-get install qemu-system-arm"


def check_tools() -> list[ToolCheck]:
    """``harness doctor``: QEMU runs the main job (the micro suite on emulated boards), so it is required."""
    return [tool_check(QEMU, "apt-get install qemu-system-arm", required=True)]


_SAID: set[str] = set()  # why counts are missing, said once per process
_EM_ARM = 40
# QEMU catches SIGTERM/SIGINT/SIGHUP, prints this on stderr and exits with status 0.
_KILLED = re.compile(r"terminating on signal \d+(?: from pid \d+)?(?: \([^)]*\))?")
MAX_ICOUNT_SHIFT = 10  # QEMU rejects larger shifts


def icount_arg(text: str) -> int:
    """argparse type of ``--icount``: QEMU's ``-icount shift=N`` (one instruction per 2**N ns of virtual time)."""
    try:
        shift = int(text)
    except ValueError:
        shift = -1
    if not 0 <= shift <= MAX_ICOUNT_SHIFT:
        raise argparse.ArgumentTypeError(
            f"invalid icount shift {text!r}: use an integer 0-{MAX_ICOUNT_SHIFT} (QEMU's -icount shift=N)"
        )
    return shift


def icount_problem(backend: str) -> str | None:
    """Why ``--icount`` cannot apply to a run on ``backend`` (None: it can)."""
    if backend == "qemu":
        return None
    return (f"--icount sets QEMU's -icount and applies to QEMU runs only, not to backend {backend}; "
            "run with --qemu/--backend qemu, or drop --icount")


def elf_problem(path: Path) -> str | None:
    """Why ``path`` is not a 32-bit ARM ELF (QEMU would load anything as a raw image and lock up)."""
    try:
        with path.open("rb") as handle:
            header = handle.read(20)
    except OSError as error:
        return f"cannot read {path}: {error}"
    if header[:4] != b"\x7fELF":
        return f"{path} is not an ELF file; pass the linked firmware (micro_runtime/gen/<board>/bin/<name>)"
    little = header[5] == 1
    machine = int.from_bytes(header[18:20], "little" if little else "big")
    if header[4] != 1 or machine != _EM_ARM:
        return f"{path} is an ELF for another machine (e_machine={machine}), not 32-bit ARM; build it for the board"
    return None


def effective_icount(board: Board, icount: int | None) -> int | None:
    """The ``-icount`` shift of a run: the one asked for, else the board's ``[qemu] icount``, else none."""
    configured = board.section("qemu").get("icount")
    return icount if icount is not None or configured is None else int(configured)


def qemu_command(elf: Path, board: Board, icount: int | None = None, qemu: str = QEMU,
                 plugin: Sequence[str] = ()) -> list[str]:
    """The full QEMU command line for ``elf`` on ``board`` (see module docstring). ``plugin``: the instruction
    counter's ``-plugin`` arguments (``harness.runners.insn_count``)."""
    cfg = board.section("qemu")
    serial_slot = int(cfg.get("serial", 0))
    argv = [qemu, *plugin, "-M", str(cfg["machine"]), "-display", "none", "-monitor", "none", "-nodefaults"]
    captured = captured_transports(board)
    argv += ["-chardev", "stdio,id=log0,mux=on"]
    for _ in range(serial_slot):
        argv += ["-serial", "null"]
    argv += ["-serial", "chardev:log0" if "uart" in captured else "null"]
    # Semihosting carries the exit status, and its text is always captured (``captured_transports``).
    argv += ["-semihosting-config", "enable=on,target=native,chardev=log0"]
    icount = effective_icount(board, icount)
    if icount is not None:
        argv += ["-icount", f"shift={icount}"]
    argv += [str(a) for a in cfg.get("extra_args", [])]
    guard = guard_word(elf)
    if guard is not None:
        # The emulation guard (harness/board/emulation_guard.py): written at every reset, after which the
        # firmware's start-up restricts the MPU to the real chip's memory map.
        address, value = guard
        argv += ["-device", f"loader,addr=0x{address:08x},data=0x{value:08x},data-len=4"]
    # The run token (harness/core/run_token.py): its block is written at every reset too.
    for address, value in token_writes(elf, "memory (QEMU loader)"):
        argv += ["-device", f"loader,addr=0x{address:08x},data=0x{value:08x},data-len=4"]
    argv += ["-kernel", str(elf)]
    return argv


_MUX_ESCAPE = b"\x01"  # QEMU's mux chardev escape (-echr default, Ctrl-A); sent twice it is one data byte


def mux_escape(data: bytes) -> bytes:
    """``data`` as written to a muxed stdio chardev so each byte reaches the device unchanged."""
    return data.replace(_MUX_ESCAPE, _MUX_ESCAPE * 2)


class QemuRunner:
    name = "qemu"

    def __init__(self, icount: int | None = None) -> None:
        self.icount = icount

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        if not board.section("qemu").get("machine"):
            return (
                f"board '{board.name}' has no QEMU machine: add [qemu] machine = \"...\" to "
                f"{board.path / 'board.toml'} (see qemu-system-arm -M help)"
            )
        if shutil.which(QEMU) is None:
            return f"{QEMU} not found; {_INSTALL}"
        return None

    def input_problem(self, board: Board) -> str | None:
        """Why ``dut.write`` cannot reach the firmware's ``DebugRead`` here (None: it can).

        Input goes to the log UART's receiver. Semihosting's console input (SYS_READC) is not
        offered: QEMU 7.2 returns wrong bytes for it on M-profile cores.
        """
        reason = self.unavailable_reason(board)
        if reason is not None:
            return reason
        transports = tuple(board.raw.get("log", {}).get("transports", ()))
        if "uart" in transports and "uart" in captured_transports(board):
            return None
        if "uart" in transports:
            return (f"board '{board.name}' mirrors its log to semihosting and the UART, and QEMU connects only "
                    "semihosting, so nothing reaches the UART's receiver; log through the UART alone "
                    f"([log] transports = [\"uart\"] in {board.path / 'board.toml'})")
        return (f"board '{board.name}' logs through {', '.join(transports) or 'no transport'}, not a UART, so its "
                "firmware has no input (DebugRead reads the log UART; QEMU's semihosting console input is not "
                "usable on M-profile cores); log through the board's UART ([log] transports = [\"uart\"])")

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        reason = self.unavailable_reason(board)
        if reason is not None:
            return _infra(reason)
        elf = Path(elf)
        if not elf.is_file():
            return _infra(f"firmware {elf} does not exist; build it first (make -C micro_runtime TARGET={board.name})")
        problem = elf_problem(elf)
        if problem is not None:
            return _infra(problem)
        with tempfile.TemporaryDirectory(prefix="harness-counts-") as tmp:
            counts = Path(tmp) / "counts"
            try:
                icount = effective_icount(board, self.icount)
                plugin, no_counts = insn_count.plugin_args(elf, counts, QEMU, per_insn=icount is not None,
                                                           timing=board.timing())
                argv = qemu_command(elf.resolve(), board, self.icount, plugin=plugin)
            except (TypeError, ValueError) as error:
                return _infra(f"{board.path / 'board.toml'}: bad [qemu] table ({error}); serial and icount are "
                              "integers")
            out = run_process(argv, timeout_s, on_line, merge_stderr=False, fmt=board_format(board),
                              exit_status=exits_with_status(board), input_filter=mux_escape)
            diag = out.stderr.decode("utf-8", errors="replace").strip()
            if plugin and out.returncode not in (None, 0) and not out.log and insn_count.refused(QEMU, diag):
                # This QEMU will not load the counting plugin: the same run without it, said once.
                return self.run(elf, board, timeout_s, on_line)
            result = self._result(out, diag, argv)
            if plugin:
                figures = insn_count.read_counts(counts)
                result.instructions, result.cycles, result.stack = figures.instructions, figures.cycles, figures.stack
        if no_counts is not None and no_counts not in _SAID:
            _SAID.add(no_counts)
            result.notes.append(Note(len(result.log), f"no instruction counts per case: {no_counts}"))
        return result

    def _result(self, out: Any, diag: str, argv: list[str]) -> RunResult:
        """The run's result from what QEMU printed, its exit and its messages."""
        if out.start_error is not None:
            return _infra(f"cannot start {QEMU}: {out.start_error}; {_INSTALL}")
        log = out.log
        exit_code = out.returncode
        end_reason = out.end_reason
        if "Lockup" in diag:
            # The core locked up (fault inside the fault handler): a firmware crash, not an
            # emulator failure. QEMU's line goes with the run as a note, so the report shows why.
            first = diag.splitlines()[0]
            return RunResult(self.name, log, None, False, out.duration_s, "crash",
                             notes=[*out.notes, Note(len(log), f"qemu: {first}")])
        killed = _KILLED.search(diag)
        if killed is not None or (exit_code is not None and exit_code < 0):
            # QEMU was stopped from outside (a CI cancel, the OOM killer, a user): not the firmware's doing.
            what = killed.group(0) if killed is not None else f"killed by signal {-(exit_code or 0)}"
            return RunResult(self.name, log, None, False, out.duration_s, "infra-error",
                             infra_error=f"{QEMU} was stopped from outside the run ({what}); run it again",
                             notes=out.notes)
        errors = [line for line in diag.splitlines() if line.strip() and "warning" not in line.lower()]
        if exit_code is not None and exit_code != 0 and not log and errors:
            # QEMU itself failed: bad machine, unreadable ELF, or it was killed.
            what = " | ".join(errors) or f"{QEMU} died with status {exit_code}"
            return RunResult(
                self.name,
                log,
                None,
                False,
                out.duration_s,
                "infra-error",
                infra_error=f"{what} (command: {' '.join(argv)}); check the board's [qemu] table and the ELF",
            )
        return RunResult(self.name, log, exit_code, out.timed_out, out.duration_s, end_reason,
                         case_seconds=out.case_seconds, notes=out.notes)


def _infra(message: str) -> RunResult:
    return RunResult("qemu", b"", None, False, 0.0, "infra-error", infra_error=message)
