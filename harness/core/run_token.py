"""The run token: a fresh random key per run that makes the framework's records unforgeable.

The harness makes one ``RunToken`` per run and hands it to the firmware before its first
record; ``micro_runtime/micro_test.h`` signs every record with it (``record_mac``: the record's
sequence number and text under the key), and ``harness.formats.micro_test`` accepts only
records whose authenticator verifies under the run's key. A line a test prints cannot carry a
valid authenticator, because the key did not exist when the firmware was built.

How the token reaches the device (``docs/log_protocol.md``, "Run token"):

* host: the environment variable ``MICRO_TEST_TOKEN`` (16 hex digits, ``TOKEN_ENV``);
* boards loaded by an emulator or a debugger (QEMU, Renode, pyOCD, GDB servers): the
  ``g_micro_run_token`` block in ``.noinit`` (``TOKEN_SYMBOL``), written before the core starts
  as four words ``{TOKEN_MAGIC, key0, key1, ~(magic ^ key0 ^ key1)}`` (``memory_words``);
* a transport that can do neither runs unauthenticated: key 0, said in the report.

This module is the one place that knows the algorithm on the Python side; the C++ side is
``micro_test::RecordMac``. Both must give ``record_mac((0x01234567, 0x89abcdef), 5,
"BEGIN Case")`` == ``KNOWN_MAC`` (checked by ``harness/core/run_token_test.py`` and
``micro_runtime/micro_test_test.cc``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

TOKEN_ENV = "MICRO_TEST_TOKEN"
TOKEN_SYMBOL = "g_micro_run_token"
TOKEN_MAGIC = 0x4D54304B  # boards/cortex_m/platform.cc: MICRO_RUN_TOKEN_MAGIC
_MASK = 0xFFFFFFFF

# A fixed example both sides must agree on (see the module doc).
KNOWN_KEY = (0x01234567, 0x89ABCDEF)
KNOWN_MAC = 0  # filled in below from the Python implementation, checked against the C++ one


def _mix(h: int) -> int:
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h


def record_mac(key: tuple[int, int], sequence: int, text: str | bytes) -> int:
    """The 32-bit authenticator of record ``sequence`` with ``text`` under ``key`` (micro_test::RecordMac)."""
    data = text.encode("utf-8", errors="surrogateescape") if isinstance(text, str) else text
    h = _mix((key[0] ^ ((sequence * 0x9E3779B1) & _MASK)) & _MASK)
    for byte in data:
        h = ((h ^ byte) * 0x01000193) & _MASK
    return _mix(h ^ key[1])


KNOWN_MAC = record_mac(KNOWN_KEY, 5, "BEGIN Case")

UNKEYED = (0, 0)  # the key of firmware that received no token


@dataclass(frozen=True)
class RunToken:
    """One run's key (two 32-bit words) and where it was delivered (None: not yet / could not be)."""

    key: tuple[int, int]

    @classmethod
    def fresh(cls) -> RunToken:
        while True:
            key = (secrets.randbits(32), secrets.randbits(32))
            if key != UNKEYED:
                return cls(key)

    @property
    def hex(self) -> str:
        """The form the host environment variable carries: 16 hex digits, key0 then key1."""
        return f"{self.key[0]:08x}{self.key[1]:08x}"

    def memory_words(self) -> tuple[int, int, int, int]:
        """The four words of the firmware's token block (boards/cortex_m/platform.cc)."""
        check = ~(TOKEN_MAGIC ^ self.key[0] ^ self.key[1]) & _MASK
        return TOKEN_MAGIC, self.key[0], self.key[1], check

    def memory_writes(self, elf: Path) -> list[tuple[int, int]]:
        """(address, word) writes that hand this token to ``elf`` before its core starts; empty when the
        ELF has no token block (a host binary, firmware of another framework, an unreadable file)."""
        from harness.core.binary_info import symbol_address

        address = symbol_address(elf, TOKEN_SYMBOL)
        if not address:
            return []
        return [(address + 4 * index, word) for index, word in enumerate(self.memory_words())]


__all__ = ["KNOWN_KEY", "KNOWN_MAC", "TOKEN_ENV", "TOKEN_MAGIC", "TOKEN_SYMBOL", "UNKEYED", "RunToken", "record_mac"]
