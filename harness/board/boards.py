"""Board resources: what a board *has*, read from ``boards/<name>/board.toml``.

This module only describes boards (core, memory, toolchain flags, log
transports, emulator machine names). How to build for them lives in
``harness.build.driver``; how to run on them lives in ``harness.runners``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import REPO_ROOT
from harness.core import project

BOARDS_DIR = project.BUILTIN_BOARDS  # the built-in boards; a project's own come first (board_dirs())


class BoardError(Exception):
    """A board name or board file that cannot be used, with the fix in the message."""


@dataclass(frozen=True)
class MemoryRegion:
    origin: int
    size: int


@dataclass(frozen=True)
class Timing:
    """What the cycle estimate assumes of a board (``[timing]``; docs/measurement.md): its core's timing
    tables, the clock the estimate is for, and the flash interface at that clock."""

    core: str  # "m3", "m4" or "m33": the timing tables used
    clock_hz: int  # the clock the estimated time is for ([timing] clock_hz, else [board] clock_hz)
    flash_wait_states: int = 0  # at clock_hz; 0: flash as fast as SRAM (no memory model at all)
    flash_line_bytes: int = 16  # bytes one flash read delivers
    prefetch: bool = False  # the next sequential line is read while the current one executes
    icache_lines: int = 0  # ART-style instruction cache, lines of flash_line_bytes (fully associative, LRU)
    dcache_lines: int = 0  # data cache for loads from flash, lines of flash_line_bytes
    flash: tuple[int, int] = (0, 0)  # [low, high) the wait states apply to: [memory] flash


# Cores the cycle estimate has timing tables for (harness/runners/insn_counter/cortex_m_timing.c).
TIMED_CORES = {"cortex-m3": "m3", "cortex-m4": "m4", "cortex-m33": "m33"}
_TIMING_KEYS = {"clock_hz", "flash_wait_states", "flash_line_bytes", "prefetch", "icache_lines", "dcache_lines"}


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
    # Added for the Cortex-M boards; defaults keep older board files valid.
    clock_hz: int | None = None  # core clock after BoardInit = SysTick rate = MicroTicksPerSecond
    stack_size: int = 0  # bytes reserved at the top of RAM (MCU boards)
    cflags: tuple[str, ...] = ()
    cxxflags: tuple[str, ...] = ()
    log_transports: tuple[str, ...] = ()  # a subset of LOG_TRANSPORTS; one is the norm (no doubled lines)
    uart_base: int | None = None
    timeout_s: float = 60.0
    lto: bool = False  # [build] lto: link-time optimization by default (make LTO=0/1 overrides)
    # [build] kernel_opt: optimization of micro_runtime/kernels/ (as TFLM ships: kernels -O2, core -Os);
    # empty: the same as opt.
    kernel_opt: str = ""

    @property
    def is_host(self) -> bool:
        return self.core == "native"

    def section(self, name: str) -> dict[str, Any]:
        """A backend-specific table of the board file (``[qemu]``, ``[renode]``...)."""
        value = self.raw.get(name, {})
        return value if isinstance(value, dict) else {}

    def case_timeout(self) -> tuple[float, str] | None:
        """The board file's default per-case limit, ``[run] case_timeout_s``, and where it is written
        (``harness.formats.case_limits``); BoardError when it is not a number of seconds > 0."""
        value = self.section("run").get("case_timeout_s")
        if value is None:
            return None
        toml = self.path / "board.toml"
        where = toml.relative_to(REPO_ROOT) if toml.is_relative_to(REPO_ROOT) else toml
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise BoardError(f"{where}: [run] case_timeout_s must be a number of seconds > 0, not {value!r}")
        return float(value), f"[run] case_timeout_s = {value:g} in {where}"

    def with_run(self, **values: Any) -> Board:
        """This board with ``[run]`` keys replaced (e.g. ``exit_status=False`` for one firmware that never
        exits); None values are left as the board file has them."""
        changed = {key: value for key, value in values.items() if value is not None}
        if not changed:
            return self
        raw = dict(self.raw)
        raw["run"] = {**self.section("run"), **changed}
        return dataclasses.replace(self, raw=raw)

    def case_budgets(self) -> dict[str, int]:
        """``[run] case_budgets = { max_stack = N, ... }``: default budgets of every micro case on this board (a
        case's own ``// harness:`` budget wins); BoardError when malformed."""
        table = self.section("run").get("case_budgets", {})
        toml = self.path / "board.toml"
        where = toml.relative_to(REPO_ROOT) if toml.is_relative_to(REPO_ROOT) else toml
        try:
            return project.budget_table(table, f"{where}: [run] case_budgets")
        except project.ProjectError as error:
            raise BoardError(str(error)) from error

    def timing(self) -> Timing | None:
        """The cycle estimate's assumptions for this board (``[timing]``, defaults: the board's clock, flash
        without wait states), or None for a core without timing tables (host, other cores); BoardError when
        ``[timing]`` is malformed."""
        core = TIMED_CORES.get(self.core)
        if core is None or self.clock_hz is None:
            return None
        table = self.section("timing")
        toml = self.path / "board.toml"
        where = toml.relative_to(REPO_ROOT) if toml.is_relative_to(REPO_ROOT) else toml
        unknown = sorted(set(table) - _TIMING_KEYS)
        if unknown:
            raise BoardError(f"{where}: [timing] has unknown keys {unknown}; known: {sorted(_TIMING_KEYS)}")
        values: dict[str, int] = {}
        for key in _TIMING_KEYS - {"prefetch"}:
            value = table.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BoardError(f"{where}: [timing] {key} must be a whole number >= 0, not {value!r}")
            values[key] = value
        line = values["flash_line_bytes"] or 16
        if line < 4 or line & (line - 1):
            raise BoardError(f"{where}: [timing] flash_line_bytes must be a power of two >= 4, not {line}")
        for key in ("icache_lines", "dcache_lines"):
            if values[key] > 256:
                raise BoardError(f"{where}: [timing] {key} = {values[key]}: the model holds at most 256 lines")
        if not isinstance(table.get("prefetch", False), bool):
            raise BoardError(f"{where}: [timing] prefetch must be true or false")
        flash = (self.flash.origin, self.flash.origin + self.flash.size) if self.flash else (0, 0)
        return Timing(core=core, clock_hz=values["clock_hz"] or self.clock_hz,
                      flash_wait_states=values["flash_wait_states"], flash_line_bytes=line,
                      prefetch=bool(table.get("prefetch", False)), icache_lines=values["icache_lines"],
                      dcache_lines=values["dcache_lines"], flash=flash)

    def tool(self, name: str) -> str:
        """Full name of a binutils tool for this board (``size``, ``addr2line``...)."""
        return f"{self.toolchain_prefix}{name}"


# What DebugLog can write to (boards/cortex_m/log.c); docs/boards.md explains each.
LOG_TRANSPORTS = ("semihosting", "uart", "rtt", "semihosting-if-debugger")
DEFAULT_STACK_SIZE = 4096


def board_dirs() -> list[Path]:
    """Where board folders are looked up, first match wins: the project's own, then the built-in ones."""
    return [*project.current().board_dirs, BOARDS_DIR]


def board_file(name: str) -> Path | None:
    """``<dir>/<name>/board.toml`` of the first board folder that has it."""
    for folder in board_dirs():
        path = folder / name / "board.toml"
        if path.is_file():
            return path
    return None


def available_boards() -> list[str]:
    return sorted({p.parent.name for folder in board_dirs() for p in folder.glob("*/board.toml")})


def resolve_board_path(board: Board, relative: str) -> Path | None:
    """A path named in a board file (sources, linker script): relative to the board's folder, the
    project, or the harness's own tree (``boards/cortex_m/...``), first that exists; absolute as is."""
    candidate = Path(relative)
    if candidate.is_absolute():
        return candidate if candidate.exists() else None
    for base in (board.path, project.current().root, REPO_ROOT):
        path = (base / candidate).resolve()
        if path.exists():
            return path
    return None


def _region(table: dict[str, Any], key: str) -> MemoryRegion | None:
    entry = table.get(key)
    if entry is None:
        return None
    return MemoryRegion(origin=int(entry["origin"]), size=int(entry["size"]))


def _check(board: Board, path: Path) -> None:
    """Rejects board files the MCU build cannot use, naming the field to fix."""
    unknown = [t for t in board.log_transports if t not in LOG_TRANSPORTS]
    if unknown:
        raise BoardError(f"{path}: [log] transports has unknown {unknown}; use a list of {list(LOG_TRANSPORTS)}")
    if {"semihosting", "semihosting-if-debugger"} <= set(board.log_transports):
        raise BoardError(
            f'{path}: [log] transports: use "semihosting" (always) or "semihosting-if-debugger", not both'
        )
    board.case_timeout()  # [run] case_timeout_s: a number of seconds > 0
    board.timing()  # [timing]: known keys, whole numbers
    board.case_budgets()  # [run] case_budgets: known budgets, whole numbers > 0
    if board.is_host:
        return
    if board.flash is None or board.ram is None:
        raise BoardError(f"{path}: an MCU board needs [memory] flash = {{origin = ..., size = ...}} and ram = {{...}}")
    if board.clock_hz is None or board.clock_hz <= 0:
        raise BoardError(f"{path}: an MCU board needs [board] clock_hz = <core clock in Hz> (the tick rate)")
    if not board.log_transports:
        raise BoardError(f'{path}: an MCU board needs [log] transports = ["uart"] (or one of {list(LOG_TRANSPORTS)})')
    if "uart" in board.log_transports and board.uart_base is None:
        raise BoardError(f'{path}: [log] transports has "uart" but no [log] uart_base = 0x<address>')
    if board.stack_size <= 0 or board.stack_size % 8 or board.stack_size >= board.ram.size:
        raise BoardError(
            f"{path}: [build] stack_size = {board.stack_size} must be a positive multiple of 8 below the RAM size"
        )


def load_board(name: str) -> Board:
    path = board_file(name) if name and "/" not in name and name not in (".", "..") else None
    if path is None:
        known = ", ".join(available_boards()) or "none"
        where = " or ".join(str(folder / name / "board.toml") for folder in board_dirs())
        raise BoardError(f"unknown board '{name}': no {where}; known boards: {known}")
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"{path}: not valid TOML: {error}") from error
    try:
        board = raw["board"]
        build = raw.get("build", {})
        memory = raw.get("memory", {})
        prefix = build.get("toolchain_prefix", "")
        log = raw.get("log", {})
        run = raw.get("run", {})
        uart_base = log.get("uart_base")
        result = Board(
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
            backends=tuple(run.get("backends", [])),
            raw=raw,
            clock_hz=int(board["clock_hz"]) if "clock_hz" in board else None,
            stack_size=int(build.get("stack_size", 0 if board["core"] == "native" else DEFAULT_STACK_SIZE)),
            cflags=tuple(build.get("cflags", [])),
            cxxflags=tuple(build.get("cxxflags", [])),
            log_transports=tuple(log.get("transports", [])),
            uart_base=int(uart_base) if uart_base is not None else None,
            timeout_s=float(run.get("timeout_s", 60.0)),
            lto=bool(build.get("lto", False)),
            kernel_opt=str(build.get("kernel_opt", "")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise BoardError(f"{path}: missing or malformed field: {error}") from error
    if result.name != path.parent.name:  # one board, one name: its folder's (node ids, gen/<board>/, --board)
        raise BoardError(f"{path}: [board] name '{result.name}' differs from its folder '{path.parent.name}'; "
                         f"rename one so they match")
    _check(result, path)
    return result
