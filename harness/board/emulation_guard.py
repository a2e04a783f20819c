"""The emulation guard word: what an emulator backend writes so the firmware faults like the chip.

Firmware built for the Cortex-M boards carries ``g_emulation_guard``, a word in ``.noinit``
that start-up never zeroes (``boards/cortex_m/emulation_guard.c``). When it holds
``GUARD_MAGIC`` at reset, start-up programs the MPU with the board's real address map
(``harness/board/mpu_regions.py``) and no background map, so an access outside the chip's flash,
RAM and peripherals is a MemManage fault in the emulator too. A backend calls
``guard_word(elf)`` and writes the value after loading the ELF and before the core runs
(QEMU: ``-device loader,addr=...,data=...,data-len=4``, re-applied on every reset). Real
boards are never given the word, so their firmware behaves as built.
"""

from __future__ import annotations

from pathlib import Path

from harness.core.binary_info import NotAnElf, load, symbol_address

GUARD_SYMBOL = "g_emulation_guard"
GUARD_MAGIC = 0xE1A5C0DE  # boards/cortex_m/emulation_guard.c: EMULATION_GUARD_MAGIC
BOARD_SYMBOL_PREFIX = "__harness_board_"  # + board name: the board an ELF was linked for
_EM_ARM = 40


def built_for(elf: Path) -> str | None:
    """The board ``elf`` was linked for (the ``__harness_board_<name>`` symbol that harness.board.board_mk puts
    in every MCU board's memory.ld), or None: a host binary, older firmware, an unreadable file."""
    try:
        symbols = load(elf).symbols() if is_arm32(elf) else {}
    except (OSError, NotAnElf):
        return None
    return next((name[len(BOARD_SYMBOL_PREFIX) :] for name in symbols if name.startswith(BOARD_SYMBOL_PREFIX)),
                None)


def guard_word(elf: Path) -> tuple[int, int] | None:
    """(address, value) to write into the target's memory after loading ``elf`` and before it runs,
    or None when the ELF has no guard symbol (older firmware, host binaries, unreadable files)."""
    address = symbol_address(elf, GUARD_SYMBOL) if is_arm32(elf) else None
    if not address:
        return None
    return address, GUARD_MAGIC


def is_arm32(elf: Path) -> bool:
    """A readable 32-bit little-endian Arm ELF (the only firmware an emulator guard applies to)."""
    try:
        parsed = load(elf)
    except (OSError, NotAnElf):
        return False
    return not parsed.is64 and parsed.endian == "<" and parsed.machine == _EM_ARM
