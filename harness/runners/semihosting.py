"""Semihosting service and the run loop shared by the debug-probe backends.

pyOCD's ``SemihostAgent`` services the console/file requests, but it answers
SYS_EXIT (0x18) and SYS_EXIT_EXTENDED (0x20) with -1 and lets the program
carry on. A test binary's exit status is the result we want, so
``SemihostService`` looks at r0/r1 first and handles both exits itself, then
hands everything else to the agent.

``drive()`` runs a started target in the one run loop (``harness.runners.stream``) until
it exits, the log format's end rule says it is done, it faults, or the deadline passes,
pulling log bytes from semihosting, RTT and any other transport into one
``harness.runners.stream.LogSink``. It works on anything with pyOCD's target API: a real probe's
``session.target`` or ``harness.runners.gdbremote.target.GdbTarget``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyocd.core.target import Target
from pyocd.debug.semihost import STDOUT_FD, SemihostAgent, SemihostIOHandler

from harness.runners.base import RunResult
from harness.runners.stream import LogSink

if TYPE_CHECKING:
    from harness.runners.dwt import CaseCycles

SYS_EXIT = 0x18
SYS_EXIT_EXTENDED = 0x20
ADP_STOPPED_APPLICATION_EXIT = 0x20026
BKPT_SEMIHOST = 0xBEAB
DFSR = 0xE000ED30
DFSR_BKPT = 1 << 1

_POLL_S = 0.01


# pyOCD ships no type information: to mypy SemihostIOHandler is Any, which strict mode lets a class
# subclass only when told.
class _ConsoleHandler(SemihostIOHandler):  # type: ignore[misc]
    """Console I/O of the firmware: writes go to the log, reads get end-of-file."""

    def __init__(self, sink: LogSink | None) -> None:
        super().__init__()
        self._sink = sink  # None: the output is not wanted (the log comes over another transport)

    def open(self, fnptr: int, fnlen: int, mode: str) -> int:
        fd, name = self._std_open(fnptr, fnlen, mode)
        if isinstance(fd, int):
            return fd
        self._errno = 2  # ENOENT: the harness offers no host files to the firmware
        return -1

    def close(self, fd: int) -> int:
        return 0

    def write(self, fd: int, ptr: int, length: int) -> int:
        assert self.agent is not None
        if self._sink is not None:
            self._sink.feed(self.agent.get_data(ptr, length))
        return 0  # bytes NOT written

    def read(self, fd: int, ptr: int, length: int) -> int:
        return length  # nothing read: end of file

    def readc(self) -> int:
        return -1

    def istty(self, fd: int) -> int:
        return 1 if fd in (0, STDOUT_FD, 2) else 0

    def seek(self, fd: int, pos: int) -> int:
        return -1

    def flen(self, fd: int) -> int:
        return -1


@dataclass
class HaltOutcome:
    kind: str  # "serviced" | "exit" | "other"
    exit_code: int | None = None
    pc: int | None = None


def exit_status(op: int, reason: int, subcode: int) -> int:
    """Exit status for SYS_EXIT(reason) / SYS_EXIT_EXTENDED(reason, subcode), as QEMU computes it."""
    if reason == ADP_STOPPED_APPLICATION_EXIT:
        return subcode if op == SYS_EXIT_EXTENDED else 0
    return 1


class SemihostService:
    """Services one halt: our own exit handling, then pyOCD's agent for the rest."""

    def __init__(self, context: Any, sink: LogSink | None) -> None:
        self.context = context
        handler = _ConsoleHandler(sink)
        self.agent = SemihostAgent(context, io_handler=handler, console=handler)

    def handle_halt(self) -> HaltOutcome:
        ctx = self.context
        pc = ctx.read_core_register("pc")
        if ctx.read32(DFSR) & DFSR_BKPT and ctx.read16(pc) == BKPT_SEMIHOST:
            op = ctx.read_core_register("r0")
            if op in (SYS_EXIT, SYS_EXIT_EXTENDED):
                arg = ctx.read_core_register("r1")
                if op == SYS_EXIT_EXTENDED:
                    reason, subcode = ctx.read_memory_block32(arg, 2)
                else:
                    reason, subcode = arg, 0
                return HaltOutcome("exit", exit_status(op, reason, subcode), pc)
        if self.agent.check_and_handle_semihost_request():
            return HaltOutcome("serviced", pc=pc)
        return HaltOutcome("other", pc=pc)

    def cleanup(self) -> None:
        self.agent.cleanup()


def drive(
    target: Any,
    sink: LogSink,
    deadline: float,
    semihosting: bool = True,
    pollers: Sequence[Callable[[], None]] | None = None,
    poll_interval_s: float = 0.05,
    semihost_output: bool = True,
    case_cycles: CaseCycles | None = None,
) -> RunResult:
    """Runs a resumed ``target`` in the one run loop (``sink.stream``) until the end rule, its exit,
    a fault, or ``deadline``.

    ``pollers`` are called every ``poll_interval_s`` (RTT readers); they feed ``sink`` themselves.
    ``semihost_output=False`` services semihosting (exit status!) but drops what the firmware
    writes through it: for firmware that writes every line to the UART as well. ``case_cycles``: halts on the
    micro_test case markers are the DWT cycle reader's (``harness.runners.dwt``), serviced before anything else.
    """
    context = target.get_target_context()
    service = SemihostService(context, sink if semihost_output else None) if semihosting else None
    stream = sink.stream
    wait_halt = getattr(target, "wait_halt", None)
    stopped = False

    def watch_core(budget_s: float) -> None:
        """The semihosting transport: services the core's halts; blocks up to ``budget_s`` for one."""
        nonlocal stopped
        if stopped:
            time.sleep(min(_POLL_S, budget_s))
            return
        state = target.get_state()
        if state == Target.State.HALTED:
            if case_cycles is not None and case_cycles.handles(target.read_core_register("pc")):
                return
            if service is None:
                stopped = True
                pc = target.read_core_register("pc")
                stream.stop("crash", note=f"core halted at pc=0x{pc:08x} (semihosting disabled)")
                return
            outcome = service.handle_halt()
            if outcome.kind == "exit":
                stopped = True
                stream.exit(outcome.exit_code)
            elif outcome.kind == "serviced":
                target.resume()
            else:
                stopped = True
                stream.stop("crash", note=f"core halted at pc=0x{outcome.pc or 0:08x}, "
                            "not on a semihosting request (breakpoint?)")
            return
        if state == Target.State.LOCKUP:
            stopped = True
            status = getattr(target, "exited_status", None)
            if status is not None:
                stream.stop("infra-error", infra_error=f"the debug server reported the target exited (status {status})")
            else:
                stream.stop("crash", note="core locked up (fault inside the fault handler)")
            return
        if wait_halt is not None:
            wait_halt(min(budget_s, _POLL_S * 5))
        else:
            time.sleep(min(_POLL_S, budget_s))

    try:
        end = stream.follow(deadline, waiter=watch_core, pollers=pollers or [], poll_s=poll_interval_s)
    finally:
        if service is not None:
            service.cleanup()
    return end


class RttPoller:
    """Drains RTT up channel 0 into a LogSink; a callable for ``drive(pollers=...)``.

    Uses pyOCD's ``GenericRTTControlBlock`` on any target with pyOCD's memory API.
    The firmware may set its control block up only at its first log line, so
    until it is found every poll looks again (cheap: the address is exact when
    the ELF has the ``_SEGGER_RTT`` symbol).
    """

    def __init__(self, target: Any, sink: LogSink, address: int | None, search_size: int | None = None) -> None:
        self.target = target
        self.sink = sink
        self.address = address
        self.search_size = search_size
        self._channel: Any = None
        self.error: str | None = None

    def __call__(self) -> None:
        from pyocd.core import exceptions
        from pyocd.debug.rtt import GenericRTTControlBlock

        try:
            if self._channel is None:
                block = GenericRTTControlBlock(self.target, address=self.address, size=self.search_size)
                try:
                    block.start()
                except exceptions.RTTError:
                    return  # not set up yet
                if not block.up_channels:
                    return
                self._channel = block.up_channels[0]
            data = self._channel.read()
        except exceptions.Error as error:
            self.error = f"RTT read failed: {error}"
            return
        if data:
            self.sink.feed(bytes(data))
