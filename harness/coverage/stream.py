"""The gcov stream a coverage build's firmware writes at its exit (``boards/cortex_m/gcov_dump.c``), read back
into .gcda files.

The stream: ``MGCV`` u32 version; per instrumented object ``FILE`` u32 length + the .gcda file name gcov
gave it, then ``DATA`` u32 length + bytes (any number of them); at the end ``END!`` u32 number of objects
(u32 little-endian). It arrives as the file ``<ELF>.gcov`` (semihosting file I/O) or over the log as
lines ``~~~GCOV <hex>`` where the board has no semihosting file I/O. A stream without its end (the run
crashed or was stopped during the dump) is incomplete: its files are not used.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

MAGIC = b"MGCV"
VERSION = 1
_FILE, _DATA, _END = b"FILE", b"DATA", b"END!"
LOG_PREFIX = b"~~~GCOV "
_LOG_LINE = re.compile(rb"^~~~GCOV ([0-9a-f]*)\r?$", re.MULTILINE)


class StreamError(ValueError):
    """The bytes are not a gcov stream of this version."""


@dataclass
class GcovStream:
    """The .gcda files of one run: gcov's file name -> the file's bytes."""

    files: dict[str, bytes] = field(default_factory=dict)
    complete: bool = False  # the end record arrived and named as many objects as came
    problem: str = ""  # why it is incomplete, for a person


def parse(data: bytes) -> GcovStream:
    """The files of a stream; raises StreamError when ``data`` is no gcov stream at all."""
    if len(data) < 8 or data[:4] != MAGIC:
        raise StreamError("not a gcov stream (no MGCV header)")
    (version,) = struct.unpack_from("<I", data, 4)
    if version != VERSION:
        raise StreamError(f"gcov stream version {version}; this harness reads version {VERSION}")
    stream = GcovStream()
    chunks: dict[str, list[bytes]] = {}
    current: list[bytes] | None = None
    at = 8
    while at + 8 <= len(data):
        tag = data[at:at + 4]
        (length,) = struct.unpack_from("<I", data, at + 4)
        body = data[at + 8:at + 8 + length]
        if tag == _END:
            if length != len(chunks):
                stream.problem = f"the end record counts {length} objects but {len(chunks)} came"
                break
            stream.files = {name: b"".join(parts) for name, parts in chunks.items()}
            stream.complete = True
            return stream
        if len(body) < length:
            break
        if tag == _FILE:
            current = chunks.setdefault(body.decode("utf-8", errors="replace"), [])
        elif tag == _DATA and current is not None:
            current.append(body)
        else:
            stream.problem = f"unknown record {tag!r} at byte {at}"
            break
        at += 8 + length
    stream.problem = stream.problem or f"the stream ends after {len(data)} bytes, before its end record"
    stream.files = {name: b"".join(parts) for name, parts in chunks.items()}
    return stream


def from_log(log: bytes) -> bytes | None:
    """The stream the firmware printed as ``~~~GCOV <hex>`` lines, or None when the log has none."""
    lines = _LOG_LINE.findall(log)
    if not lines:
        return None
    return bytes.fromhex(b"".join(lines).decode())


def encode(files: dict[str, bytes], *, end: bool = True) -> bytes:
    """A stream holding ``files`` (for tests): what the firmware writes."""
    out = [MAGIC, struct.pack("<I", VERSION)]
    for name, content in files.items():
        raw = name.encode()
        out += [_FILE, struct.pack("<I", len(raw)), raw, _DATA, struct.pack("<I", len(content)), content]
    if end:
        out += [_END, struct.pack("<I", len(files))]
    return b"".join(out)
