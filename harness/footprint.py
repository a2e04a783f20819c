"""Flash and RAM use of a firmware ELF, checked against the board's ``[memory]``.

Reads the ELF section headers directly instead of parsing ``size`` output:
``size -A`` cannot tell a section with contents (.data, stored in flash) from
a NOBITS one (.bss, RAM only), and the headers say so exactly. Works for
32- and 64-bit, little- and big-endian ELF, so host binaries report too.

    flash = every allocated section with contents (text, rodata, vectors, .data's load image)
    RAM   = every allocated section placed in the board's RAM region (data, bss, stack, heap);
            without a RAM region: every writable allocated section
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from harness.boards import Board, BoardError, MemoryRegion, available_boards, load_board

_SHT_NOBITS = 8
_SHF_WRITE = 0x1
_SHF_ALLOC = 0x2


class FootprintError(Exception):
    """An ELF that cannot be read, or a binary that does not fit its board (message names the fix)."""


@dataclass(frozen=True)
class Section:
    name: str
    addr: int
    size: int
    flags: int
    nobits: bool


@dataclass(frozen=True)
class Footprint:
    flash: int
    ram: int
    sections: tuple[Section, ...]

    def describe(self, board: Board | None = None) -> str:
        flash = f"flash {self.flash:,} B"
        ram = f"RAM {self.ram:,} B"
        if board is not None and board.flash is not None:
            flash += f" of {board.flash.size:,} ({100 * self.flash / board.flash.size:.0f}%)"
        if board is not None and board.ram is not None:
            ram += f" of {board.ram.size:,} ({100 * self.ram / board.ram.size:.0f}%)"
        return f"{flash}, {ram}"


def read_sections(elf: Path) -> list[Section]:
    try:
        data = Path(elf).read_bytes()
    except OSError as error:
        raise FootprintError(f"cannot read {elf}: {error.strerror}; build it first") from error
    if len(data) < 52 or data[:4] != b"\x7fELF":
        raise FootprintError(f"{elf} is not an ELF file; pass the linked binary, not a .bin/.hex")
    is64 = data[4] == 2
    endian = "<" if data[5] == 1 else ">"
    try:
        if is64:
            shoff, = struct.unpack_from(endian + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", data, 0x3A)
        else:
            shoff, = struct.unpack_from(endian + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", data, 0x2E)
        headers = []
        for index in range(shnum):
            base = shoff + index * shentsize
            if is64:
                name, kind, flags, addr, _off, size = struct.unpack_from(endian + "IIQQQQ", data, base)
            else:
                name, kind, flags, addr, _off, size = struct.unpack_from(endian + "IIIIII", data, base)
            headers.append((name, kind, flags, addr, _off, size))
        strtab_off = headers[shstrndx][4] if shnum else 0
    except (struct.error, IndexError) as error:
        raise FootprintError(f"{elf}: truncated or corrupt ELF section table ({error}); rebuild it") from error

    sections = []
    for name_off, kind, flags, addr, _off, size in headers:
        end = data.find(b"\0", strtab_off + name_off)
        name = data[strtab_off + name_off : end].decode("ascii", errors="replace")
        sections.append(Section(name, addr, size, flags, kind == _SHT_NOBITS))
    return sections


def _inside(addr: int, region: MemoryRegion) -> bool:
    return region.origin <= addr < region.origin + region.size


def measure(elf: Path, board: Board | None = None) -> Footprint:
    sections = [s for s in read_sections(elf) if s.flags & _SHF_ALLOC and s.size > 0]
    flash = sum(s.size for s in sections if not s.nobits)
    if board is not None and board.ram is not None:
        ram = sum(s.size for s in sections if _inside(s.addr, board.ram))
    else:
        ram = sum(s.size for s in sections if s.flags & _SHF_WRITE)
    return Footprint(flash=flash, ram=ram, sections=tuple(sections))


def boards_that_fit(flash: int, ram: int, exclude: str = "") -> list[str]:
    """Board names (not the host) whose memory holds ``flash``/``ram`` bytes, smallest flash first."""
    fits = []
    for name in available_boards():
        if name == exclude:
            continue
        try:
            other = load_board(name)
        except BoardError:
            continue
        if other.is_host or other.flash is None or other.ram is None:
            continue
        if other.flash.size >= flash and other.ram.size >= ram:
            fits.append((other.flash.size, name))
    return [name for _, name in sorted(fits)]


def misfit_message(binary: str, board: Board, flash: int, ram: int) -> str | None:
    """None when the binary fits ``board``; else what overflows, by how much, and a board that fits."""
    problems = []
    if board.flash is not None and flash > board.flash.size:
        problems.append(f"{flash:,} B flash but {board.name} has {board.flash.size:,} B")
    if board.ram is not None and ram > board.ram.size:
        problems.append(f"{ram:,} B RAM but {board.name} has {board.ram.size:,} B")
    if not problems:
        return None
    others = boards_that_fit(flash, ram, exclude=board.name)
    if others:
        hint = f"try --board={others[0]}"
    else:
        hint = "no board in boards/ is big enough; shrink the binary or add a board"
    return f"{binary} needs {' and '.join(problems)}; {hint}"


def check_fits(elf: Path, board: Board) -> Footprint:
    footprint = measure(elf, board)
    problem = misfit_message(Path(elf).name, board, footprint.flash, footprint.ram)
    if problem is not None:
        raise FootprintError(problem)
    return footprint
