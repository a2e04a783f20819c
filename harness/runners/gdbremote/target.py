"""A pyOCD-compatible Cortex-M target over a GDB server.

``GdbTarget`` offers the subset of pyOCD's ``Target``/``DebugContext`` API
that the harness uses (state, halt/resume, core registers, memory), so the
same code drives a real probe through pyOCD and an emulated core (QEMU's gdb
stub) or any GDB server. pyOCD's ``SemihostAgent`` and ``GenericRTTControlBlock``
accept it as their target/context.

Two things GDB servers do not give us and the adapter supplies:

* DFSR (0xE000ED30). pyOCD's agent checks DFSR.BKPT to see whether the halt
  came from a breakpoint; QEMU does not model DFSR, so reads of it are
  answered from the last stop reply (SIGTRAP -> BKPT bit set).
* Trapping ``BKPT 0xAB``. A real core with a debugger attached halts on it; QEMU
  without ``-semihosting`` turns it into a HardFault instead. ``trap_semihost_sites``
  plants a software breakpoint on every ``BKPT 0xAB`` in the firmware's code so
  the core stops *before* executing it; the agent then services the request and
  moves PC past it, exactly like on hardware.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pyocd.core.target import Target

from harness.runners.gdbremote.rsp import SIGTRAP, RspClient, RspError, StopReply

DFSR = 0xE000ED30
DFSR_BKPT = 1 << 1
BKPT_SEMIHOST = 0xBEAB  # Thumb encoding of "bkpt 0xab"

# GDB's register numbers for the Arm M-profile target description.
REGISTERS = {f"r{i}": i for i in range(13)} | {"sp": 13, "r13": 13, "lr": 14, "r14": 14, "pc": 15, "r15": 15}
REGISTERS |= {"xpsr": 25}


@dataclass(frozen=True)
class FlashRegion:
    start: int
    length: int
    blocksize: int

    def contains(self, address: int) -> bool:
        return self.start <= address < self.start + self.length


def parse_memory_map(text: str) -> list[FlashRegion]:
    """Flash regions of a GDB memory-map XML (``<memory type="flash" ...><property name="blocksize">``)."""
    regions = []
    for match in re.finditer(r"<memory\s+([^>]*?)(?:/>|>(.*?)</memory>)", text, re.DOTALL):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
        if attrs.get("type") != "flash":
            continue
        block = re.search(r'<property\s+name="blocksize"\s*>\s*([^<\s]+)\s*<', match.group(2) or "")
        blocksize = int(block.group(1), 0) if block else 1
        regions.append(FlashRegion(int(attrs["start"], 0), int(attrs["length"], 0), max(1, blocksize)))
    return regions


def erase_ranges(spans: Iterable[tuple[int, int]], regions: list[FlashRegion]) -> list[tuple[int, int]]:
    """(start, end) ranges to erase for (address, length) spans: widened to whole blocks, merged."""
    ranges = []
    for address, length in spans:
        region = next((r for r in regions if r.contains(address)), None)
        block = region.blocksize if region else 1
        start = address - (address - (region.start if region else 0)) % block
        end = address + length
        if region is not None:
            end = min(region.start + region.length, end + (-(end - region.start)) % block)
        ranges.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@dataclass
class _Options:
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def is_set(self, key: str) -> bool:
        return key in self.values


@dataclass
class _Session:
    """What pyOCD code reads from ``context.session``."""

    options: _Options = field(default_factory=_Options)
    log_tracebacks: bool = False


class GdbTarget:
    """One halted-or-running Cortex-M core behind a GDB server."""

    def __init__(self, client: RspClient, halt_timeout_s: float = 5.0) -> None:
        self.client = client
        self.halt_timeout_s = halt_timeout_s
        self.session = _Session()
        self.last_stop: StopReply | None = None
        self._running = False
        self._breakpoints: set[int] = set()
        self.semihost_sites: set[int] = set()
        self.exited_status: int | None = None  # the server reported the program/emulator exited
        self.vector_table: int | None = None  # where reset_and_halt() takes SP/PC from (set by the loader)
        self.reset_commands: tuple[str, ...] = ()  # monitor commands that reset the chip, e.g. ("reset halt",)

    # pyOCD's DebugContext has .core (for find_breakpoint); we are our own core.
    @property
    def core(self) -> GdbTarget:
        return self

    def get_target_context(self) -> GdbTarget:
        return self

    def find_breakpoint(self, addr: int) -> None:
        # The only breakpoints we plant are the semihosting traps, which must not
        # look like user breakpoints to the agent.
        return None

    # ------------------------------------------------------------ run state
    def get_state(self) -> Target.State:
        if self._running:
            stop = self.client.wait_stop(0.0)
            if stop is not None:
                self._stopped(stop)
        if self.exited_status is not None:
            return Target.State.LOCKUP  # nothing more will run; callers check exited_status
        return Target.State.RUNNING if self._running else Target.State.HALTED

    def is_halted(self) -> bool:
        halted: bool = self.get_state() == Target.State.HALTED  # pyocd's Target.State is untyped (Any)
        return halted

    def wait_halt(self, timeout_s: float) -> bool:
        """Blocks up to ``timeout_s`` for the running core to stop; True if halted."""
        if self._running:
            stop = self.client.wait_stop(timeout_s)
            if stop is not None:
                self._stopped(stop)
        return not self._running

    def _stopped(self, stop: StopReply) -> None:
        self._running = False
        self.last_stop = stop
        if stop.kind != "signal":
            self.exited_status = stop.signal

    def halt(self) -> None:
        if not self._running:
            return
        self.client.interrupt()
        stop = self.client.wait_stop(self.halt_timeout_s)
        if stop is None:
            raise RspError("the target did not halt after an interrupt request")
        self._stopped(stop)

    def resume(self) -> None:
        if self._running:
            return
        self.client.cont()
        self._running = True

    def step(self) -> None:
        self._stopped(self.client.step())

    def refresh_halt_reason(self) -> None:
        """Reads why an already-halted core stopped (after connecting)."""
        self._stopped(self.client.halt_reason())

    # ------------------------------------------------------------ registers
    def _regno(self, name: str | int) -> int:
        if isinstance(name, int):
            return name
        key = name.lower()
        if key in self.client.registers:  # the server's own numbering, when it described the target
            return self.client.registers[key]
        try:
            return REGISTERS[key]
        except KeyError:
            raise ValueError(f"unknown core register {name!r}; known: {', '.join(REGISTERS)}") from None

    def read_core_register(self, name: str | int) -> int:
        return self.client.read_register(self._regno(name))

    def write_core_register(self, name: str | int, value: int) -> None:
        self.client.write_register(self._regno(name), value)

    # --------------------------------------------------------------- memory
    def _paused(self) -> bool:
        """Halts a running core for a memory access; returns True if it must be resumed.

        pyOCD reads memory of a running core through the debug port; over GDB the
        core has to stop. If it stopped on its own (semihost trap) in the meantime,
        it stays halted so the caller sees that stop.
        """
        if not self._running:
            return False
        self.client.interrupt()
        stop = self.client.wait_stop(self.halt_timeout_s)
        if stop is None:
            raise RspError("the target did not halt for a memory access")
        self._stopped(stop)
        # SIGINT = our interrupt; anything else is a real stop the caller must see.
        return stop.kind == "signal" and stop.signal != SIGTRAP

    def read_memory_block8(self, addr: int, size: int) -> list[int]:
        resume = self._paused()
        try:
            return list(self._read(addr, size))
        finally:
            if resume:
                self.resume()

    def _read(self, addr: int, size: int) -> bytes:
        if addr == DFSR and size <= 4:
            return self._dfsr().to_bytes(4, "little")[:size]
        return self.client.read_memory(addr, size)

    def _dfsr(self) -> int:
        stop = self.last_stop
        if stop is not None and stop.kind == "signal" and stop.signal == SIGTRAP:
            return DFSR_BKPT
        return 0

    def read_memory_block32(self, addr: int, size: int) -> list[int]:
        data = bytes(self.read_memory_block8(addr, size * 4))
        return [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]

    def write_memory_block8(self, addr: int, data: Iterable[int]) -> None:
        resume = self._paused()
        try:
            self.client.write_memory(addr, bytes(data))
        finally:
            if resume:
                self.resume()

    def write_memory_block32(self, addr: int, data: Iterable[int]) -> None:
        self.write_memory_block8(addr, b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in data))

    def read_memory(self, addr: int, transfer_size: int = 32) -> int:
        width = transfer_size // 8
        return int.from_bytes(bytes(self.read_memory_block8(addr, width)), "little")

    def write_memory(self, addr: int, value: int, transfer_size: int = 32) -> None:
        width = transfer_size // 8
        self.write_memory_block8(addr, (value & ((1 << transfer_size) - 1)).to_bytes(width, "little"))

    def read32(self, addr: int) -> int:
        return self.read_memory(addr, 32)

    def read16(self, addr: int) -> int:
        return self.read_memory(addr, 16)

    def read8(self, addr: int) -> int:
        return self.read_memory(addr, 8)

    def write32(self, addr: int, value: int) -> None:
        self.write_memory(addr, value, 32)

    # -------------------------------------------------- semihosting traps
    def trap_semihost_sites(self, sites: Iterable[int]) -> None:
        """Plants a breakpoint on each ``BKPT 0xAB`` so the core stops before it (see module doc)."""
        for address in sorted(set(sites)):
            if address not in self._breakpoints:
                self.client.insert_breakpoint(address, 2)
                self._breakpoints.add(address)
        self.semihost_sites |= set(sites)

    # ---------------------------------------------- pyOCD's breakpoint API
    def set_breakpoint(self, addr: int, type: Any = None) -> bool:  # pyOCD's parameter names
        """A breakpoint at ``addr`` (the server's software breakpoint, whatever ``type`` asks: a GDB server
        picks its own kind); True when set."""
        if addr not in self._breakpoints:
            try:
                self.client.insert_breakpoint(addr, 2)
            except RspError:
                return False
            self._breakpoints.add(addr)
        return True

    def remove_breakpoint(self, addr: int) -> None:
        if addr in self._breakpoints and addr not in self.semihost_sites:
            with contextlib.suppress(RspError):
                self.client.remove_breakpoint(addr, 2)
            self._breakpoints.discard(addr)

    def clear_breakpoints(self) -> None:
        for address in sorted(self._breakpoints):
            with contextlib.suppress(RspError):
                self.client.remove_breakpoint(address, 2)
        self._breakpoints.clear()

    # ------------------------------------------------------------- program
    def load_segments(self, segments: Iterable[tuple[int, bytes]], method: str = "memory") -> None:
        """Writes the firmware: plain memory writes (RAM, emulators) or the server's flash loader.

        With ``vflash`` the parts inside the server's flash regions (qXfer:memory-map) are erased
        in whole blocks and written through vFlashWrite; everything else with plain writes.
        """
        segments = [(a, d) for a, d in segments if d]
        if method == "memory":
            for address, data in segments:
                self.client.write_memory(address, data)
            return
        if method != "vflash":
            raise ValueError(f"unknown load method {method!r}; use 'memory', 'vflash' or 'none'")
        regions = self.flash_regions()
        in_flash = [(a, d) for a, d in segments if not regions or any(r.contains(a) for r in regions)]
        for start, end in erase_ranges([(a, len(d)) for a, d in in_flash], regions):
            self.client.flash_erase(start, end - start)
        for address, data in in_flash:
            self.client.flash_write(address, data)
        self.client.flash_done()
        for address, data in segments:
            if (address, data) not in in_flash:
                self.client.write_memory(address, data)

    def flash_regions(self) -> list[FlashRegion]:
        if self.client.features.get("qXfer:memory-map:read") != "+":
            return []
        try:
            text = self.client.read_xfer("memory-map", "").decode("utf-8", errors="replace")
        except RspError:
            return []
        return parse_memory_map(text)

    def reset_from_vector_table(self, vector_table: int) -> None:
        """Starts the program like a reset would: SP and PC from the vector table, Thumb state."""
        sp = self.read32(vector_table)
        pc = self.read32(vector_table + 4)
        self.write_core_register("sp", sp)
        self.write_core_register("pc", pc & ~1)
        self.write_core_register("xpsr", 1 << 24)
        self.last_stop = None

    def reset_and_halt(self) -> None:
        """pyOCD's reset_and_halt: the server's reset commands, then SP/PC from the vector table."""
        self.halt()
        for command in self.reset_commands:
            self.client.monitor(command, timeout_s=10.0)
        if self.vector_table is not None:
            self.reset_from_vector_table(self.vector_table)
        self.last_stop = None

    def reset(self) -> None:
        self.reset_and_halt()
        self.resume()

    def run_until_halt(self, timeout_s: float) -> bool:
        """Resumes and waits for the next stop; True if it stopped."""
        self.resume()
        deadline = time.monotonic() + timeout_s
        return self.wait_halt(max(0.0, deadline - time.monotonic()))
