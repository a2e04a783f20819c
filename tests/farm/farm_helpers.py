"""Helpers of the farm tests: real pytest runs of real micro tests recording into a history."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

from harness_helpers import FIXTURES, plugin_args, subprocess_env

FARM_FIXTURES = Path(__file__).resolve().parent / "fixtures"


def put(directory: Path, name: str) -> Path:
    """A fixture program as ``<name>_test.cc`` in ``directory`` (collected by the harness plugin)."""
    source = FARM_FIXTURES / f"{name}.cc"
    if not source.is_file():
        source = FIXTURES / f"{name}.cc"
    target = directory / f"{name}_test.cc"
    shutil.copyfile(source, target)
    return target


def run_pytest(cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 900,
               wait: bool = True) -> subprocess.CompletedProcess[str] | subprocess.Popen[str]:
    """``python -m pytest ARGS`` in ``cwd`` as a farm host would run it."""
    full_env = subprocess_env()
    full_env.pop("FARM_COIN", None)
    full_env.update(env or {})
    # labgrid's pytest plugin (installed for part 1 of the farm work) is not what these tests are about.
    cmd = [sys.executable, "-m", "pytest", *plugin_args(), "-p", "no:randomly", "-p", "no:cacheprovider",
           "-p", "no:labgrid",
           f"--rootdir={cwd}", *args]
    if not wait:
        return subprocess.Popen(cmd, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
    return subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout, check=False)


def run_harness(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, timeout=300,
                          env=subprocess_env(), cwd=cwd, check=False)


def png_rows(path: Path, max_rows: int) -> tuple[int, int, list[bytes]]:
    """(width, channels, the first ``max_rows`` rows of RGB(A) bytes) of a non-interlaced 8-bit PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, width = 8, b"", 0
    height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6), f"unexpected PNG format depth={depth} color={color}"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(min(height, max_rows)):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, channels, rows
