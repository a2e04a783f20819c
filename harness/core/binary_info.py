"""What a binary says about itself: its sections, its symbols, and the test framework it declares.

A binary built with ``micro_runtime/micro_test.h`` carries two ELF sections the harness reads
instead of guessing from the log or scanning the source:

* ``.micro_test.framework``: ``micro_test 2`` (the framework and its record version);
* ``.micro_test.cases``: the name of every ``TF_LITE_MICRO_TEST`` the compiler kept, NUL
  terminated, in no particular order (a case the preprocessor removed has no name here).

``declared_tests(elf)`` returns both (``None`` for a binary that declares nothing: a foreign
framework, a plain program, a file that is not an ELF). The reader handles 32- and 64-bit
ELF of either byte order, so host binaries and every Cortex-M board's firmware alike.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FRAMEWORK_SECTION = ".micro_test.framework"
CASES_SECTION = ".micro_test.cases"
_STT_FUNC = 2
_SHT_SYMTAB = 2
_SHT_NOBITS = 8


class NotAnElf(ValueError):
    """A file that is not a readable ELF (message says what was wrong)."""


@dataclass(frozen=True)
class ElfSection:
    name: str
    kind: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    entsize: int

    @property
    def nobits(self) -> bool:
        """Takes no room in the file (.bss, .noinit, the stack): RAM only, never flash."""
        return self.kind == _SHT_NOBITS


@dataclass(frozen=True)
class DeclaredTests:
    """The framework a binary declares and its compiled cases (a multiset: names may repeat)."""

    framework: str  # e.g. "micro_test"
    version: str  # e.g. "2"
    cases: tuple[str, ...]


class Elf:
    def __init__(self, data: bytes, name: str = "binary") -> None:
        if len(data) < 52 or data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
            raise NotAnElf(f"{name} is not an ELF file")
        self.data = data
        self.is64 = data[4] == 2
        self.endian = "<" if data[5] == 1 else ">"
        self.machine = struct.unpack_from(self.endian + "H", data, 18)[0]
        try:
            self.sections = self._read_sections()
        except (struct.error, IndexError) as error:
            raise NotAnElf(f"{name}: truncated or corrupt ELF section table ({error})") from error

    def _unpack(self, fmt: str, offset: int) -> tuple[int, ...]:
        return struct.unpack_from(self.endian + fmt, self.data, offset)

    def _read_sections(self) -> list[ElfSection]:
        if self.is64:
            (shoff,) = self._unpack("Q", 0x28)
            shentsize, shnum, shstrndx = self._unpack("HHH", 0x3A)
            layout = "IIQQQQIIQQ"
        else:
            (shoff,) = self._unpack("I", 0x20)
            shentsize, shnum, shstrndx = self._unpack("HHH", 0x2E)
            layout = "IIIIIIIIII"
        raw = [self._unpack(layout, shoff + index * shentsize) for index in range(shnum)]
        names_at = raw[shstrndx][4] if shnum else 0
        sections = []
        for name_off, kind, flags, addr, offset, size, link, _info, _align, entsize in raw:
            sections.append(ElfSection(self._string(names_at + name_off), kind, flags, addr, offset, size, link,
                                       entsize))
        return sections

    def _string(self, at: int) -> str:
        end = self.data.find(b"\0", at)
        return self.data[at : end if end >= 0 else len(self.data)].decode("utf-8", errors="replace")

    def section(self, name: str) -> ElfSection | None:
        return next((s for s in self.sections if s.name == name), None)

    def section_bytes(self, section: ElfSection) -> bytes:
        if section.kind == _SHT_NOBITS:
            return b""
        return self.data[section.offset : section.offset + section.size]

    def _symbol_entries(self) -> Iterator[tuple[str, int, int, int]]:
        """(name, value, size, type) of every named symbol."""
        for table in self.sections:
            if table.kind != _SHT_SYMTAB or table.entsize == 0 or table.link >= len(self.sections):
                continue
            names_at = self.sections[table.link].offset
            for entry in range(table.offset, table.offset + table.size, table.entsize):
                if self.is64:
                    name_off, info, _other, _shndx, value, size = self._unpack("IBBHQQ", entry)
                else:
                    name_off, value, size, info = self._unpack("IIIB", entry)
                if name_off:
                    yield self._string(names_at + name_off), value, size, info & 0xF

    def symbols(self) -> dict[str, int]:
        """Name -> value of every named symbol (the first of a name wins)."""
        found: dict[str, int] = {}
        for name, value, _size, _kind in self._symbol_entries():
            found.setdefault(name, value)
        return found

    def functions(self) -> dict[int, tuple[str, int]]:
        """Address (Thumb bit cleared) -> (name, size) of every function symbol with a size."""
        return {value & ~1: (name, size) for name, value, size, kind in self._symbol_entries()
                if kind == _STT_FUNC and size}


@functools.lru_cache(maxsize=64)
def _load(path: str, mtime_ns: int, size: int) -> Elf:
    return Elf(Path(path).read_bytes(), Path(path).name)


@functools.lru_cache(maxsize=256)
def _sha256(path: str, mtime_ns: int, size: int) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 (hex) of a binary, computed once while the file is unchanged; OSError when unreadable."""
    stat = Path(path).stat()
    return _sha256(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


def load(elf: Path) -> Elf:
    """The parsed ELF (cached while the file is unchanged); NotAnElf or OSError otherwise."""
    stat = Path(elf).stat()
    return _load(str(Path(elf).resolve()), stat.st_mtime_ns, stat.st_size)


def symbol_address(elf: Path, name: str) -> int | None:
    """The value of symbol ``name`` in ``elf``, or None (no such symbol, not an ELF, unreadable)."""
    try:
        return load(elf).symbols().get(name)
    except (OSError, NotAnElf, struct.error):
        return None


def declared_tests(elf: Path) -> DeclaredTests | None:
    """The framework and compiled cases ``elf`` declares (module doc), or None when it declares none."""
    try:
        parsed = load(elf)
    except (OSError, NotAnElf):
        return None
    marker = parsed.section(FRAMEWORK_SECTION)
    if marker is None:
        return None
    words = parsed.section_bytes(marker).split(b"\0")[0].decode("utf-8", errors="replace").split()
    framework, version = (words + ["", ""])[:2]
    cases_section = parsed.section(CASES_SECTION)
    raw = parsed.section_bytes(cases_section) if cases_section is not None else b""
    # Names are NUL-terminated strings; alignment padding between them shows as empty strings.
    cases = tuple(name.decode("utf-8", errors="replace") for name in raw.split(b"\0") if name)
    return DeclaredTests(framework=framework, version=version, cases=cases)


__all__ = ["CASES_SECTION", "FRAMEWORK_SECTION", "DeclaredTests", "Elf", "NotAnElf", "declared_tests", "load",
           "symbol_address"]
