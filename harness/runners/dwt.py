"""Cycles per micro case on a real board: the core's own DWT cycle counter, read by the debugger at the case
markers (``micro_test_case_start``/``_stop``, the ones QEMU's counting plugin uses).

The firmware prints nothing for this and cannot fake it: the debugger halts the core on a hardware
breakpoint at each marker, reads ``DWT_CYCCNT`` and resumes. The counter does not run while the core is
halted in debug state, so the figure is the cycles the case executed on the silicon (plus the marker calls'
few cycles, as the emulator's counts include them) — set beside the timing model's estimate
(docs/measurement.md) it shows how close the estimate is. CYCCNT is 32 bits: a case longer than 2**32
cycles (36 s at 120 MHz) would wrap, so a run with such a case reports none.

Where the core's DWT does not count (QEMU does not emulate it; a Cortex-M0 has none) the run says so once
and reports no cycles. ``MICRO_HARNESS_NO_COUNTS=1`` turns this off as it turns the plugin off.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.runners.insn_count import OFF_ENV, case_markers

DEMCR = 0xE000EDFC
DEMCR_TRCENA = 1 << 24
DWT_CTRL = 0xE0001000
DWT_CTRL_CYCCNTENA = 1
DWT_CYCCNT = 0xE0001004
WRAP = 1 << 32


@dataclass
class CaseCycles:
    """Reads DWT_CYCCNT at the case markers of a halted-and-resumed target (pyOCD's Target API)."""

    target: Any
    start: int
    stop: int
    cycles: list[int] = field(default_factory=list)  # one per case that reached its stop marker, in order
    problem: str | None = None  # why there are no figures (set once known)
    _begin: int | None = None

    @classmethod
    def for_elf(cls, target: Any, elf: Path | None) -> CaseCycles | None:
        """The reader for ``elf``'s markers, armed on ``target`` (halted); None for a binary without markers or
        with counting turned off."""
        if elf is None or os.environ.get(OFF_ENV, "") not in ("", "0"):
            return None
        markers = case_markers(Path(elf))
        if markers is None:
            return None
        reader = cls(target, *markers)
        reader.arm()
        return reader

    def arm(self) -> None:
        """Enables the cycle counter and plants a hardware breakpoint on each marker (target halted)."""
        from pyocd.core.target import Target

        try:
            self.target.write32(DEMCR, self.target.read32(DEMCR) | DEMCR_TRCENA)
            self.target.write32(DWT_CYCCNT, 0)
            self.target.write32(DWT_CTRL, self.target.read32(DWT_CTRL) | DWT_CTRL_CYCCNTENA)
        except Exception as error:  # a core without a DWT faults the access: no figures, the run goes on
            self.problem = f"the core's DWT cycle counter cannot be enabled ({error})"
        for address in (self.start, self.stop):
            if not self.target.set_breakpoint(address, Target.BreakpointType.HW):
                self.problem = self.problem or f"no hardware breakpoint left for the case marker at 0x{address:08x}"

    def handles(self, pc: int) -> bool:
        """If the core halted on a marker: reads the counter, steps off the breakpoint and resumes; True. Any
        other halt is not ours (False)."""
        if pc not in (self.start, self.stop):
            return False
        now = self._read()
        if pc == self.start:
            self._begin = now
        elif self._begin is not None and now is not None:
            self.cycles.append((now - self._begin) % WRAP)
            self._begin = None
        self._step_over(pc)
        self.target.resume()
        return True

    def _read(self) -> int | None:
        try:
            return int(self.target.read32(DWT_CYCCNT))
        except Exception as error:
            self.problem = self.problem or f"reading DWT_CYCCNT failed ({error})"
            return None

    def _step_over(self, pc: int) -> None:
        """Executes the marker's first instruction with its breakpoint lifted (a resume at a hardware
        breakpoint would halt on it again at once)."""
        from pyocd.core.target import Target

        self.target.remove_breakpoint(pc)
        self.target.step()
        self.target.set_breakpoint(pc, Target.BreakpointType.HW)

    def disarm(self) -> None:
        for address in (self.start, self.stop):
            with contextlib.suppress(Exception):  # the session may be gone already; nothing to undo then
                self.target.remove_breakpoint(address)

    def figures(self) -> tuple[list[int], str | None]:
        """(cycles per ended case, why there are none): nothing when the counter never moved."""
        if self.problem is not None:
            return [], self.problem
        if self.cycles and not any(self.cycles):  # the counter never moved between two markers
            return [], "the core's DWT cycle counter does not count (DWT_CYCCNT stayed put; emulators leave it out)"
        return list(self.cycles), None


__all__ = ["DWT_CYCCNT", "CaseCycles"]
