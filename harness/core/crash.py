"""Decodes the firmware's one-line HardFault report into something a human can act on.

The boards' fault handler prints exactly one line (docs/log_protocol.md):

  *** HardFault: PC=0x08001234 LR=0x08000567 xPSR=0x01000000 CFSR=0x00000400 HFSR=0x40000000 MMFAR=... BFAR=...

``parse_hardfault_line`` reads it, ``CrashReport.faults`` names the set CFSR/HFSR
bits with what they mean, and ``symbolize`` maps PC/LR to function and
file:line with ``arm-none-eabi-addr2line``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# The boards' fault handler line (boards/cortex_m/fault.c); one per crash, in any log format.
HARDFAULT_PREFIX = "*** HardFault:"
HARDFAULT_RE = re.compile(
    r"\*\*\* HardFault: PC=0x(?P<pc>[0-9a-fA-F]{8}) LR=0x(?P<lr>[0-9a-fA-F]{8}) "
    r"xPSR=0x(?P<xpsr>[0-9a-fA-F]{8}) CFSR=0x(?P<cfsr>[0-9a-fA-F]{8}) HFSR=0x(?P<hfsr>[0-9a-fA-F]{8}) "
    r"MMFAR=0x(?P<mmfar>[0-9a-fA-F]{8}) BFAR=0x(?P<bfar>[0-9a-fA-F]{8})"
)

# (bit, name, explanation) of the Configurable Fault Status Register: MMFSR = bits 0-7,
# BFSR = bits 8-15, UFSR = bits 16-31 (ARMv7-M/ARMv8-M architecture reference manuals).
CFSR_BITS: tuple[tuple[int, str, str], ...] = (
    (0, "IACCVIOL", "instruction fetch from a region the MPU forbids (or execute-never memory)"),
    (1, "DACCVIOL", "data access the MPU forbids (MMFAR holds the address)"),
    (3, "MUNSTKERR", "MPU fault while unstacking on exception return"),
    (4, "MSTKERR", "MPU fault while stacking on exception entry (stack overflow into a guard region?)"),
    (5, "MLSPERR", "MPU fault during lazy floating-point state preservation"),
    (7, "MMARVALID", "MMFAR holds a valid fault address"),
    (8, "IBUSERR", "bus error on instruction fetch (jump to unmapped memory or a bad function pointer?)"),
    (9, "PRECISERR", "precise data bus error (BFAR holds the address)"),
    (10, "IMPRECISERR", "imprecise data bus error (a buffered write failed; PC is after the faulting store)"),
    (11, "UNSTKERR", "bus error while unstacking on exception return"),
    (12, "STKERR", "bus error while stacking on exception entry (stack pointer outside RAM: overflow?)"),
    (13, "LSPERR", "bus error during lazy floating-point state preservation"),
    (15, "BFARVALID", "BFAR holds a valid fault address"),
    (16, "UNDEFINSTR", "undefined instruction (code built for another core, or corrupted code)"),
    (17, "INVSTATE", "invalid execution state: branch to an address with bit 0 clear (ARM state) on Thumb-only core"),
    (18, "INVPC", "invalid EXC_RETURN value on exception return (corrupted LR/stack)"),
    (19, "NOCP", "coprocessor/FPU instruction while the FPU is disabled or absent (float ABI mismatch?)"),
    (20, "STKOF", "stack overflow: stack pointer crossed its limit register (ARMv8-M)"),
    (24, "UNALIGNED", "unaligned memory access while unaligned traps are enabled (or LDM/STRD unaligned)"),
    (25, "DIVBYZERO", "integer division by zero with the divide-by-zero trap enabled"),
)
HFSR_BITS: tuple[tuple[int, str, str], ...] = (
    (1, "VECTTBL", "bus fault reading the vector table during exception processing"),
    (30, "FORCED", "a configurable fault escalated to HardFault (its handler is disabled); see CFSR"),
    (31, "DEBUGEVT", "debug event (e.g. BKPT) with no debugger attached"),
)
_IACCVIOL = 1 << 0
_DACCVIOL = 1 << 1
_MSTKERR = 1 << 4
_MMARVALID = 1 << 7
_PRECISERR = 1 << 9
_BFARVALID = 1 << 15
_ADDR2LINE_FIX = "install gcc-arm-none-eabi (apt-get install gcc-arm-none-eabi binutils-arm-none-eabi) for file:line"


@dataclass
class Frame:
    role: str  # "PC" or "LR"
    address: int
    function: str | None = None
    location: str | None = None  # "file:line"


@dataclass
class CrashReport:
    pc: int
    lr: int
    xpsr: int
    cfsr: int
    hfsr: int
    mmfar: int
    bfar: int
    line: str = ""
    frames: list[Frame] = field(default_factory=list)
    note: str | None = None  # why symbols are missing, with the fix
    # Registers the emulator does not model (read as 0 by the fault handler): never decoded as the chip's
    unmodelled: tuple[str, ...] = ()

    @property
    def faults(self) -> list[tuple[str, str]]:
        """(name, explanation) of every set CFSR and HFSR bit, CFSR first (HFSR only where it is modelled)."""
        found = [(name, text) for bit, name, text in CFSR_BITS if self.cfsr >> bit & 1]
        known = sum(1 << bit for bit, _, _ in CFSR_BITS)
        for bit in range(32):
            if (self.cfsr & ~known) >> bit & 1:
                found.append((f"CFSR bit {bit}", "reserved bit set (register read wrongly?)"))
        if "HFSR" not in self.unmodelled:
            found += [(name, text) for bit, name, text in HFSR_BITS if self.hfsr >> bit & 1]
        return found

    @property
    def fault_names(self) -> list[str]:
        return [name for name, _ in self.faults]

    @property
    def fault_address(self) -> int | None:
        """The faulting data address when the core recorded one (BFAR before MMFAR)."""
        if self.cfsr & _BFARVALID:
            return self.bfar
        if self.cfsr & _MMARVALID:
            return self.mmfar
        return None

    @property
    def exception_number(self) -> int:
        return self.xpsr & 0x1FF  # IPSR: 0 = thread mode, else the active exception

    @property
    def access_faults(self) -> list[str]:
        """Plain-words causes of memory-access faults (MPU/emulation guard, bus), naming the address
        when the core recorded it (MMFAR with MMARVALID, BFAR with BFARVALID); empty for other faults."""
        causes = []
        if self.cfsr & _DACCVIOL:
            at = f" at 0x{self.mmfar:08x}" if self.cfsr & _MMARVALID else " (address not recorded)"
            if self.cfsr & _MMARVALID and "MMFAR" in self.unmodelled:
                at = " (address unknown: the emulator does not model MMFAR)"
            causes.append(f"MemManage data access violation{at}")
        if self.cfsr & _IACCVIOL:
            causes.append("MemManage instruction fetch violation (execute-never or unmapped memory)")
        if self.cfsr & _MSTKERR:
            causes.append("MemManage fault while stacking (stack overflow into the stack guard?)")
        if self.cfsr & _PRECISERR:
            at = f" at 0x{self.bfar:08x}" if self.cfsr & _BFARVALID else " (address not recorded)"
            if self.cfsr & _BFARVALID and "BFAR" in self.unmodelled:
                at = " (address unknown: the emulator does not model BFAR)"
            causes.append(f"BusFault: precise data bus error{at}")
        return causes

    def summary(self) -> str:
        """One line: what went wrong and where (e.g. "MemManage data access violation at 0x60000000")."""
        names = [n for n in self.fault_names if n not in ("MMARVALID", "BFARVALID")] or ["no fault bits set"]
        where = f"PC=0x{self.pc:08x}"
        pc_frame = next((f for f in self.frames if f.role == "PC" and f.function), None)
        if pc_frame is not None:
            where += f" in {pc_frame.function}"
            if pc_frame.location:
                where += f" ({pc_frame.location})"
        causes = self.access_faults
        if causes:
            return f"HardFault: {'; '.join(causes)} [{', '.join(names)}], {where}"
        text = f"HardFault: {', '.join(names)} at {where}"
        address = self.fault_address
        if address is not None:
            text += f", fault address 0x{address:08x}"
        return text

    def render(self) -> str:
        """Multi-line human report: registers, decoded fault bits, symbolized PC/LR."""
        lines = [self.summary(), ""]
        lines.append(f"  PC   = 0x{self.pc:08x}    LR   = 0x{self.lr:08x}    xPSR = 0x{self.xpsr:08x}")
        hfsr = "not modelled by the emulator" if "HFSR" in self.unmodelled else f"0x{self.hfsr:08x}"
        lines.append(f"  CFSR = 0x{self.cfsr:08x}    HFSR = {hfsr}")
        for name, value, valid in (("MMFAR", self.mmfar, _MMARVALID), ("BFAR ", self.bfar, _BFARVALID)):
            if self.cfsr & valid:
                modelled = name.strip() not in self.unmodelled
                lines.append(f"  {name} = " + (f"0x{value:08x} (valid)" if modelled else
                                                "(valid, but not modelled by the emulator: reads 0)"))
        mode = "thread mode" if self.exception_number == 0 else f"handler mode, exception {self.exception_number}"
        lines.append(f"  faulted in {mode}")
        faults = self.faults
        if faults:
            lines.append("  fault status:")
            lines += [f"    {name}: {text}" for name, text in faults]
        else:
            lines.append("  fault status: no CFSR/HFSR bits set (fault handler entered another way?)")
        if self.frames:
            lines.append("  code:")
            for frame in self.frames:
                where = frame.function or "??"
                if frame.location:
                    where += f" at {frame.location}"
                # LR is shown as the register value; it was looked up at the call site (LR - 1).
                shown = self.lr if frame.role == "LR" else frame.address
                lines.append(f"    {frame.role} 0x{shown:08x}: {where}")
        if self.note:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)


def parse_hardfault_line(line: str) -> CrashReport | None:
    """The CrashReport of a HardFault line, or None when ``line`` is not one."""
    match = HARDFAULT_RE.search(line)
    if match is None:
        return None
    values = {key: int(value, 16) for key, value in match.groupdict().items()}
    return CrashReport(pc=values["pc"], lr=values["lr"], xpsr=values["xpsr"], cfsr=values["cfsr"],
                       hfsr=values["hfsr"], mmfar=values["mmfar"], bfar=values["bfar"], line=match.group(0))


def _lookup_addresses(report: CrashReport) -> list[tuple[str, int]]:
    wanted = [("PC", report.pc)]
    # LR is a return address: step back into the calling instruction (and drop the Thumb bit).
    # EXC_RETURN values (0xFFFFFFxx) are not code addresses.
    if report.lr < 0xF0000000 and report.lr > 1:
        wanted.append(("LR", (report.lr & ~1) - 1))
    return wanted


def symbolize(report: CrashReport, elf: Path | None, addr2line: str = "arm-none-eabi-addr2line") -> CrashReport:
    """Fills ``report.frames`` from the ELF's debug info; degrades to a note, never raises."""
    wanted = _lookup_addresses(report)
    report.frames = [Frame(role, address) for role, address in wanted]
    if elf is None:
        report.note = "no ELF given, PC/LR not symbolized"
        return report
    if not Path(elf).is_file():
        report.note = f"ELF {elf} not found, PC/LR not symbolized; rebuild the firmware"
        return report
    tool = shutil.which(addr2line)
    if tool is None:
        report.note = f"{addr2line} not found, PC/LR not symbolized; {_ADDR2LINE_FIX}"
        return report
    args = [tool, "-f", "-C", "-e", str(elf)] + [f"0x{address:08x}" for _, address in wanted]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        report.note = f"{addr2line} failed ({error}); PC/LR not symbolized"
        return report
    out = done.stdout.splitlines()
    if done.returncode != 0 or len(out) < 2 * len(wanted):
        report.note = f"{addr2line} failed: {done.stderr.strip() or 'no output'}; is {elf} an ARM ELF with symbols?"
        return report
    for index, frame in enumerate(report.frames):
        function, location = out[2 * index], out[2 * index + 1]
        frame.function = None if function == "??" else function
        frame.location = None if location.startswith("??") else location.split(" (discriminator")[0]
    return report
