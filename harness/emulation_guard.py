"""The emulation guard word: what an emulator backend writes so the firmware faults like the chip.

Firmware built for the Cortex-M boards carries ``g_emulation_guard``, a word in ``.noinit``
that start-up never zeroes (``boards/cortex_m/emulation_guard.c``). When it holds
``GUARD_MAGIC`` at reset, start-up programs the MPU with the board's real address map
(``harness/mpu_regions.py``) and no background map, so an access outside the chip's flash,
RAM and peripherals is a MemManage fault in the emulator too. A backend calls
``guard_word(elf)`` and writes the value after loading the ELF and before the core runs
(QEMU: ``-device loader,addr=...,data=...,data-len=4``, re-applied on every reset). Real
boards are never given the word, so their firmware behaves as built.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

GUARD_SYMBOL = "g_emulation_guard"
GUARD_MAGIC = 0xE1A5C0DE  # boards/cortex_m/emulation_guard.c: EMULATION_GUARD_MAGIC
BOARD_SYMBOL_PREFIX = "__harness_board_"  # + board name: the board an ELF was linked for

_SHT_SYMTAB = 2
_EM_ARM = 40


def _symbols(data: bytes) -> Iterator[tuple[bytes, int]]:
    """(name, value) of every symbol of a little-endian 32-bit Arm ELF (nothing for other ELFs)."""
    if len(data) < 52 or data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        return  # not a 32-bit little-endian ELF (e.g. a host binary)
    if struct.unpack_from("<H", data, 18)[0] != _EM_ARM:
        return
    shoff = struct.unpack_from("<I", data, 0x20)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    for index in range(shnum):
        _, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from(
            "<10I", data, shoff + index * shentsize
        )
        if kind != _SHT_SYMTAB or entsize < 16:
            continue
        strtab_offset = struct.unpack_from("<I", data, shoff + link * shentsize + 16)[0]
        for entry in range(offset, offset + size, entsize):
            name_offset, value = struct.unpack_from("<II", data, entry)
            start = strtab_offset + name_offset
            yield data[start : data.index(b"\0", start)], int(value)


def _symbol_address(data: bytes, name: str) -> int | None:
    """Value of the symbol ``name`` in a little-endian 32-bit Arm ELF, or None (also for other ELFs)."""
    wanted = name.encode()
    return next((value for symbol, value in _symbols(data) if symbol == wanted), None)


def built_for(elf: Path) -> str | None:
    """The board ``elf`` was linked for (the ``__harness_board_<name>`` symbol that harness.board_mk puts
    in every MCU board's memory.ld), or None: a host binary, older firmware, an unreadable file."""
    try:
        data = Path(elf).read_bytes()
        prefix = BOARD_SYMBOL_PREFIX.encode()
        return next((s[len(prefix) :].decode() for s, _ in _symbols(data) if s.startswith(prefix)), None)
    except (OSError, struct.error, ValueError):
        return None


def guard_word(elf: Path) -> tuple[int, int] | None:
    """(address, value) to write into the target's memory after loading ``elf`` and before it runs,
    or None when the ELF has no guard symbol (older firmware, host binaries, unreadable files)."""
    try:
        data = Path(elf).read_bytes()
        address = _symbol_address(data, GUARD_SYMBOL)
    except (OSError, struct.error):
        return None
    if address is None or address == 0:
        return None
    return address, GUARD_MAGIC
