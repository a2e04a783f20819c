"""Board resources: what a board *has*, read from ``boards/<name>/board.toml``.

This module only describes boards (core, memory, toolchain flags, log
transports, emulator machine names). How to build for them lives in
``harness.build``; how to run on them lives in ``harness.runners``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import REPO_ROOT

BOARDS_DIR = REPO_ROOT / "boards"


class BoardError(Exception):
    """A board name or board file that cannot be used, with the fix in the message."""


@dataclass(frozen=True)
class MemoryRegion:
    origin: int
    size: int


@dataclass(frozen=True)
class Board:
    name: str
    description: str
    core: str
    path: Path
    toolchain_prefix: str
    cc: str
    cxx: str
    arch_flags: tuple[str, ...]
    opt: str
    ldflags: tuple[str, ...]
    libs: tuple[str, ...]
    tags: tuple[str, ...]
    sources: tuple[str, ...]
    linker_script: str | None
    flash: MemoryRegion | None
    ram: MemoryRegion | None
    backends: tuple[str, ...]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @property
    def is_host(self) -> bool:
        return self.core == "native"

    def section(self, name: str) -> dict[str, Any]:
        """A backend-specific table of the board file (``[qemu]``, ``[renode]``...)."""
        value = self.raw.get(name, {})
        return value if isinstance(value, dict) else {}

    def tool(self, name: str) -> str:
        """Full name of a binutils tool for this board (``size``, ``addr2line``...)."""
        return f"{self.toolchain_prefix}{name}"


def available_boards() -> list[str]:
    return sorted(p.parent.name for p in BOARDS_DIR.glob("*/board.toml"))


def _region(table: dict[str, Any], key: str) -> MemoryRegion | None:
    entry = table.get(key)
    if entry is None:
        return None
    return MemoryRegion(origin=int(entry["origin"]), size=int(entry["size"]))


def load_board(name: str) -> Board:
    path = BOARDS_DIR / name / "board.toml"
    if not path.is_file():
        known = ", ".join(available_boards()) or "none"
        raise BoardError(f"unknown board '{name}': no {path.relative_to(REPO_ROOT)}; known boards: {known}")
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"{path}: not valid TOML: {error}") from error
    try:
        board = raw["board"]
        build = raw.get("build", {})
        memory = raw.get("memory", {})
        prefix = build.get("toolchain_prefix", "")
        return Board(
            name=board["name"],
            description=board.get("description", ""),
            core=board["core"],
            path=path.parent,
            toolchain_prefix=prefix,
            cc=build.get("cc", f"{prefix}gcc"),
            cxx=build.get("cxx", f"{prefix}g++"),
            arch_flags=tuple(build.get("arch_flags", [])),
            opt=build.get("opt", "-Os"),
            ldflags=tuple(build.get("ldflags", [])),
            libs=tuple(build.get("libs", [])),
            tags=tuple(build.get("tags", [])),
            sources=tuple(build.get("sources", [])),
            linker_script=build.get("linker_script"),
            flash=_region(memory, "flash"),
            ram=_region(memory, "ram"),
            backends=tuple(raw.get("run", {}).get("backends", [])),
            raw=raw,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise BoardError(f"{path}: missing or malformed field: {error}") from error
