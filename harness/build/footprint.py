"""Flash and RAM use of a firmware ELF, checked against the board's ``[memory]``.

Reads the ELF section headers directly instead of parsing ``size`` output:
``size -A`` cannot tell a section with contents (.data, stored in flash) from
a NOBITS one (.bss, RAM only), and the headers say so exactly. Works for
32- and 64-bit, little- and big-endian ELF, so host binaries report too.

    flash = every allocated section with contents (text, rodata, vectors, .data's load image)
    RAM   = every allocated section placed in the board's RAM region (data, bss, stack, heap);
            without a RAM region: every writable allocated section

``report(board, {name: elf})`` is the per-build footprint report (``gen/<board>/footprint.json``,
written by harness.build.driver): per binary its flash/RAM totals, per section and, from the link map
``<elf>.map``, per object file (docs/build.md, "Footprint report").
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from harness.board.boards import Board, BoardError, MemoryRegion, available_boards, load_board
from harness.core.binary_info import ElfSection as Section

_SHF_WRITE = 0x1
_SHF_ALLOC = 0x2


class FootprintError(Exception):
    """An ELF that cannot be read, or a binary that does not fit its board (message names the fix)."""


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
    from harness.core.binary_info import Elf, NotAnElf

    try:
        data = Path(elf).read_bytes()
    except OSError as error:
        raise FootprintError(f"cannot read {elf}: {error.strerror}; build it first") from error
    try:
        parsed = Elf(data, str(elf))
    except NotAnElf as error:
        if data[:4] != b"\x7fELF":
            raise FootprintError(f"{elf} is not an ELF file; pass the linked binary, not a .bin/.hex") from error
        raise FootprintError(f"{error}; rebuild it") from error
    return list(parsed.sections)


def _inside(addr: int, region: MemoryRegion) -> bool:
    return region.origin <= addr < region.origin + region.size


def _in_flash(section: Section) -> bool:
    return not section.nobits


def _in_ram(section: Section, board: Board | None) -> bool:
    if board is not None and board.ram is not None:
        return _inside(section.addr, board.ram)
    return bool(section.flags & _SHF_WRITE)


def measure(elf: Path, board: Board | None = None) -> Footprint:
    sections = [s for s in read_sections(elf) if s.flags & _SHF_ALLOC and s.size > 0]
    flash = sum(s.size for s in sections if _in_flash(s))
    ram = sum(s.size for s in sections if _in_ram(s, board))
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


# ------------------------------------------------------------ the report --
REPORT_SCHEMA = 1
LTO_NOTE = ("LTO build: the linker saw LTO partitions ('<lto>.ltransN'), not the runtime's objects, so the "
            "per-object figures do not name them; for per-object sizes build with LTO=0 "
            "(make -C micro_runtime TARGET=<board> LTO=0 ..., outputs in gen/<board>_nolto/)")
# An input section line of a GNU ld map: " .text.foo  0xADDR  0xSIZE  file" (the name may be on the
# line before when it is long), or "*fill*" padding.
_MAP_INPUT = re.compile(r"^ (\S+)?\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)(?:\s+(\S.*))?$")
_MAP_OUTPUT = re.compile(r"^([.\w][^\s]*)(?:\s+0x[0-9a-fA-F]+\s+0x[0-9a-fA-F]+.*)?$")
LINKER_ENTRY = "(linker script: stack, heap, linker-made sections)"
_LTRANS = re.compile(r"^.*?(\.ltrans\d+)\.ltrans\.o$")


def _object_name(path: str, root: Path | None) -> str:
    """Stable name of an input file: repository-relative, LTO partitions without their temporary name."""
    if match := _LTRANS.match(path):
        return "<lto>" + match.group(1)
    if root is not None:
        prefix = str(root).rstrip("/") + "/"
        if path.startswith(prefix):
            return path[len(prefix):]
    return os.path.normpath(path) if path.startswith("/") else path


def map_input_sections(map_path: Path, root: Path | None = None) -> list[tuple[str, str, int]]:
    """(output section, input file, bytes) of every input section the linker placed (GNU ld map)."""
    placed: list[tuple[str, str, int]] = []
    output = ""
    pending = ""  # an input section name alone on its line: its numbers are on the next line
    in_map = False
    for line in map_path.read_text(errors="replace").splitlines():
        if not in_map:
            in_map = line.startswith("Linker script and memory map")
            continue
        if not line.strip():
            continue
        if line[0] not in " \t":
            match = _MAP_OUTPUT.match(line)
            if match and not line.startswith(("LOAD ", "START GROUP", "END GROUP", "OUTPUT(")):
                output = match.group(1)
            pending = ""
            continue
        match = _MAP_INPUT.match(line)
        if match is None:
            stripped = line.strip()
            pending = stripped if line.startswith(" ") and " " not in stripped and not line.startswith("  ") else ""
            continue
        name, _addr, size, source = match.groups()
        name = name or pending
        pending = ""
        if not name or not output or int(size, 16) == 0:
            continue
        if name == "*fill*":
            source = "(fill)"
        elif source is None:
            continue
        placed.append((output, _object_name(source.strip(), root), int(size, 16)))
    return placed


class _ObjectFigures(TypedDict):
    """One object file's entry in the report: its bytes in flash and RAM, and per output section."""
    flash: int
    ram: int
    sections: dict[str, int]


def _figures(size: int, flash: bool, ram: bool) -> dict[str, int]:
    return {"size": size, "flash": size if flash else 0, "ram": size if ram else 0}


def binary_report(elf: Path, board: Board | None = None, root: Path | None = None) -> dict[str, object]:
    """One binary of the report: flash/RAM totals, per section, per object (from ``<elf>.map``)."""
    footprint = measure(elf, board)
    where = {s.name: (_in_flash(s), _in_ram(s, board)) for s in footprint.sections}
    entry: dict[str, object] = {
        "elf": _object_name(str(Path(elf).resolve()), root),
        "flash": footprint.flash,
        "ram": footprint.ram,
        "sections": {s.name: _figures(s.size, *where[s.name]) for s in footprint.sections},
        "objects": None,
    }
    map_path = Path(f"{elf}.map")
    if not map_path.is_file():
        entry["objects_note"] = f"no link map {map_path.name} beside the ELF"
        return entry
    objects: dict[str, _ObjectFigures] = {}
    lto = False
    for output, source, size in map_input_sections(map_path, root):
        if output not in where:
            continue  # not allocated (debug info) or empty in the ELF
        lto = lto or source.startswith("<lto>")
        flash, ram = where[output]
        item = objects.setdefault(source, {"flash": 0, "ram": 0, "sections": {}})
        item["flash"] += size if flash else 0
        item["ram"] += size if ram else 0
        sections = item["sections"]
        sections[output] = sections.get(output, 0) + size
    # What no input file holds (the stack and heap the linker script reserves, linker-made tables):
    # one entry, so the objects add up to the binary's totals.
    placed: dict[str, int] = {}
    for item in objects.values():
        for output, size in item["sections"].items():
            placed[output] = placed.get(output, 0) + size
    for section in footprint.sections:
        rest = section.size - placed.get(section.name, 0)
        if rest > 0:
            flash, ram = where[section.name]
            item = objects.setdefault(LINKER_ENTRY, {"flash": 0, "ram": 0, "sections": {}})
            item["flash"] += rest if flash else 0
            item["ram"] += rest if ram else 0
            item["sections"][section.name] = rest
    entry["objects"] = dict(sorted(objects.items()))
    if lto:
        entry["objects_note"] = LTO_NOTE
    return entry


def report(board: Board, binaries: Mapping[str, Path], root: Path | None = None,
           folder: str | None = None) -> dict[str, object]:
    """The footprint report of ``binaries`` (name -> ELF) built for ``board``; see docs/build.md."""
    entries = {}
    for name, elf in sorted(binaries.items()):
        try:
            entries[name] = binary_report(elf, board, root)
        except (FootprintError, OSError) as error:
            entries[name] = {"elf": str(elf), "error": str(error)}
    lto = any(str(e.get("objects_note", "")).startswith("LTO build") for e in entries.values())
    result: dict[str, object] = {
        "schema": REPORT_SCHEMA,
        "board": board.name,
        "folder": folder or board.name,
        "limits": {"flash": board.flash.size if board.flash else None, "ram": board.ram.size if board.ram else None},
        "lto": lto,
        "binaries": entries,
    }
    if lto:
        result["note"] = LTO_NOTE
    return result


def write_report(path: Path, data: Mapping[str, object], merge_root: Path | None = None) -> None:
    """Writes ``data`` as JSON (atomically). With ``merge_root`` (the root the ELF paths are relative to),
    entries of the old file for other binaries whose ELF still exists are kept."""
    data = dict(data)
    if merge_root is not None and path.is_file():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            old = {}
        binaries = dict(data.get("binaries", {}))  # type: ignore[call-overload]
        if isinstance(old, dict) and old.get("schema") == REPORT_SCHEMA and isinstance(old.get("binaries"), dict):
            for name, entry in old["binaries"].items():
                if name in binaries or not isinstance(entry, dict) or "error" in entry:
                    continue
                if (merge_root / str(entry.get("elf", ""))).is_file():
                    binaries[name] = entry
        data["binaries"] = dict(sorted(binaries.items()))
        if any(str(e.get("objects_note", "")).startswith("LTO build") for e in binaries.values()):
            data["lto"], data["note"] = True, LTO_NOTE
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    os.replace(temporary, path)
