"""The chip's address map as an MPU region table: what the emulation guard programs.

An emulator models a bigger or more forgiving chip than the board's (QEMU's netduino2 is an
STM32F205 with 128 KB RAM that ignores stores to unmapped addresses), so firmware that
corrupts memory can pass there and crash on silicon. When the emulation guard word holds its
magic (``harness.board.emulation_guard``), the start-up code (``boards/cortex_m/emulation_guard.c``)
programs the MPU with the regions computed here and turns the background map off: every
access outside the board's flash, RAM and declared peripheral windows is a MemManage fault
(reported on the HardFault line with MMFAR). Real chips never get the magic, so nothing
changes there.

The board file declares the map: ``[memory] flash`` (read-only, executable), ``ram``
(read-write, execute-never) and ``peripherals = [{ name = "APB1", origin = ..., size = ... }]``
(device memory, read-write, execute-never). The system control space (0xE0000000-0xE00FFFFF)
is always accessible: the MPU does not apply to it.

- ARMv7-M (Cortex-M3/M4): a region is a power-of-two block aligned to its size, split into 8
  subregions that can be disabled; each window gets the smallest block covering it with the
  subregions it touches (split further when that would cover more than twice the window). On
  these cores a no-access region of ``STACK_GUARD_SIZE`` bytes at the bottom of the stack
  reservation (inside it: the link and silicon are unchanged) catches stack overflows.
- ARMv8-M (Cortex-M33): base and limit at 32-byte granularity, regions must not overlap;
  attributes through MAIR0. Stack overflows are caught by MSPLIM there already.

The table reaches the firmware as linker symbols in the generated ``memory.ld``
(``render_linker_symbols``).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.board.boards import Board, BoardError

MPU_SLOTS = 8  # regions every supported core has (Cortex-M3/M4: 8; the M33 configurations: 8 or more)
STACK_GUARD_SIZE = 256  # bytes of no-access at the bottom of the stack (ARMv7-M)
V7M_CORES = ("cortex-m3", "cortex-m4", "cortex-m7")
V8M_CORES = ("cortex-m33", "cortex-m35p", "cortex-m55", "cortex-m85")

# ARMv8-M MAIR0 attribute indexes: 0 = Device-nGnRnE, 1 = Normal write-through (flash), 2 = Normal write-back (RAM).
V8M_MAIR0 = 0x00 | (0xAA << 8) | (0xFF << 16)
_V8M_ATTR_INDEX = {"peripheral": 0, "flash": 1, "ram": 2}

# ARMv7-M RASR fields per kind: (XN, AP, TEX, S, C, B). AP 0b110 = read-only, 0b011 = read-write, 0 = no access.
_V7M_ATTRS = {
    "flash": (0, 0b110, 0, 0, 1, 0),  # Normal, write-through
    "ram": (1, 0b011, 0, 1, 1, 1),  # Normal, write-back, shareable
    "peripheral": (1, 0b011, 0, 1, 0, 1),  # shareable Device
    "stack guard": (1, 0b000, 0, 0, 0, 0),
}
# ARMv8-M RBAR fields per kind: (AP, XN). AP 0b11 = read-only, 0b01 = read-write (any privilege).
_V8M_ACCESS = {"flash": (0b11, 0), "ram": (0b01, 1), "peripheral": (0b01, 1)}


@dataclass(frozen=True)
class Window:
    """One declared address range of the chip."""

    kind: str  # "flash", "ram", "peripheral" or "stack guard"
    name: str
    origin: int
    size: int

    @property
    def end(self) -> int:
        return self.origin + self.size


@dataclass(frozen=True)
class Region:
    """One MPU region: the register values and what it covers (for messages and tests)."""

    window: Window
    rbar: int
    attr: int  # RASR (ARMv7-M) or RLAR (ARMv8-M)
    covered: tuple[tuple[int, int], ...]  # [start, end) ranges the region matches

    def describe(self) -> str:
        spans = ", ".join(f"0x{start:08x}-0x{end - 1:08x}" for start, end in self.covered)
        return f"{self.window.name}: {spans}"


@dataclass(frozen=True)
class MpuTable:
    arch: str | None  # "armv7m", "armv8m", or None (core without a supported MPU: guard off)
    regions: tuple[Region, ...]
    mair0: int = 0
    stack_guard: Window | None = None


def mpu_arch(core: str) -> str | None:
    if core in V7M_CORES:
        return "armv7m"
    if core in V8M_CORES:
        return "armv8m"
    return None


def _path(board: Board) -> str:
    return str(board.path / "board.toml")


def peripheral_windows(board: Board) -> list[Window]:
    """``[memory] peripherals`` of the board file, checked (inside 32 bits, no overlaps)."""
    entries = board.section("memory").get("peripherals", [])
    if not isinstance(entries, list):
        raise BoardError(f"{_path(board)}: [memory] peripherals must be a list of {{origin = ..., size = ...}}")
    windows = []
    for index, entry in enumerate(entries):
        try:
            origin, size = int(entry["origin"]), int(entry["size"])
            name = str(entry.get("name", f"peripherals[{index}]"))
        except (KeyError, TypeError, ValueError) as error:
            raise BoardError(
                f"{_path(board)}: [memory] peripherals[{index}] needs integer origin and size ({error})"
            ) from error
        if size <= 0 or origin < 0 or origin + size > 1 << 32:
            raise BoardError(f"{_path(board)}: [memory] peripherals[{index}] ({name}) is outside the 32-bit space")
        windows.append(Window("peripheral", name, origin, size))
    return windows


def declared_windows(board: Board) -> list[Window]:
    """Flash, RAM and the peripheral windows; overlaps are an error naming both."""
    if board.flash is None or board.ram is None:
        raise BoardError(f"board '{board.name}' has no [memory] flash/ram; no address map to guard")
    windows = [
        Window("flash", "flash", board.flash.origin, board.flash.size),
        Window("ram", "RAM", board.ram.origin, board.ram.size),
        *peripheral_windows(board),
    ]
    ordered = sorted(windows, key=lambda w: w.origin)
    for low, high in zip(ordered, ordered[1:], strict=False):
        if high.origin < low.end:
            raise BoardError(f"{_path(board)}: [memory] {low.name} and {high.name} overlap")
    return windows


def stack_guard_window(board: Board) -> Window | None:
    """The no-access window at the bottom of the stack reservation (ARMv7-M boards), or None."""
    if mpu_arch(board.core) != "armv7m" or board.ram is None:
        return None
    stack_top = board.ram.origin + board.ram.size
    bottom = stack_top - board.stack_size
    base = -(-bottom // STACK_GUARD_SIZE) * STACK_GUARD_SIZE  # aligned up: the region needs its size alignment
    if base + STACK_GUARD_SIZE > stack_top - STACK_GUARD_SIZE:
        return None  # a stack this small keeps all of itself
    return Window("stack guard", "stack guard", base, STACK_GUARD_SIZE)


def _v7m_blocks(start: int, end: int) -> list[tuple[int, int, int]]:
    """(base, log2 size, subregion-disable mask) blocks covering [start, end) on ARMv7-M."""
    log2 = max(5, (start ^ (end - 1)).bit_length())
    base = start & ~((1 << log2) - 1)
    if log2 < 8:  # regions below 256 bytes have no subregions
        return [(base, log2, 0)]
    sub = 1 << (log2 - 3)
    first, last = (start - base) // sub, (end - 1 - base) // sub
    if (last - first + 1) * sub > 2 * (end - start) and log2 > 8:
        middle = base + (1 << (log2 - 1))  # start and end-1 lie on either side of it
        return _v7m_blocks(start, middle) + _v7m_blocks(middle, end)
    disabled = sum(1 << i for i in range(8) if not first <= i <= last)
    return [(base, log2, disabled)]


def _v7m_covered(base: int, log2: int, disabled: int) -> list[tuple[int, int]]:
    if log2 < 8:
        return [(base, base + (1 << log2))]
    sub = 1 << (log2 - 3)
    spans: list[tuple[int, int]] = []
    for i in range(8):
        if disabled >> i & 1:
            continue
        start = base + i * sub
        if spans and spans[-1][1] == start:
            spans[-1] = (spans[-1][0], start + sub)
        else:
            spans.append((start, start + sub))
    return spans


def _v7m_regions(window: Window) -> list[Region]:
    xn, ap, tex, s, c, b = _V7M_ATTRS[window.kind]
    regions = []
    for base, log2, disabled in _v7m_blocks(window.origin, window.end):
        rasr = xn << 28 | ap << 24 | tex << 19 | s << 18 | c << 17 | b << 16 | disabled << 8 | (log2 - 1) << 1 | 1
        regions.append(Region(window, base, rasr, tuple(_v7m_covered(base, log2, disabled))))
    return regions


def _v8m_region(window: Window) -> Region:
    ap, xn = _V8M_ACCESS[window.kind]
    base = window.origin & ~0x1F
    limit = ((window.end + 0x1F) & ~0x1F) - 1
    rbar = base | ap << 1 | xn
    rlar = (limit & ~0x1F) | _V8M_ATTR_INDEX[window.kind] << 1 | 1
    return Region(window, rbar, rlar, ((base, limit + 1),))


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def region_table(board: Board) -> MpuTable:
    """The MPU regions of ``board`` (raises BoardError when the map does not fit the MPU)."""
    arch = mpu_arch(board.core)
    if arch is None or board.is_host:
        return MpuTable(None, ())
    windows = declared_windows(board)
    guard = stack_guard_window(board)
    if arch == "armv7m":
        # Higher region numbers win where regions overlap: the stack guard comes last.
        regions = [r for w in windows for r in _v7m_regions(w)]
        if guard is not None:
            regions += _v7m_regions(guard)
    else:
        regions = [_v8m_region(w) for w in windows]
    for i, low in enumerate(regions):
        for high in regions[i + 1 :]:
            # ARMv7-M: the higher region wins, harmless within one kind and meant for the stack guard.
            allowed = arch == "armv7m" and (low.window.kind == high.window.kind or high.window.kind == "stack guard")
            if not allowed and any(_overlap(a, b) for a in low.covered for b in high.covered):
                raise BoardError(
                    f"{_path(board)}: MPU regions overlap after rounding to the MPU's granularity: "
                    f"{low.describe()} and {high.describe()}; move or resize the [memory] windows"
                )
    if len(regions) > MPU_SLOTS:
        listed = "; ".join(r.describe() for r in regions)
        raise BoardError(
            f"{_path(board)}: the address map needs {len(regions)} MPU regions, the core has {MPU_SLOTS} "
            f"({listed}); merge [memory] peripherals windows"
        )
    return MpuTable(arch, tuple(regions), V8M_MAIR0 if arch == "armv8m" else 0, guard)


def render_linker_symbols(table: MpuTable) -> str:
    """memory.ld lines: ``__emu_guard_regions`` (count), ``__emu_guard_mair0`` and, for each of the
    ``MPU_SLOTS`` slots, ``__emu_guard_rbarN`` / ``__emu_guard_attrN`` (0 = region off)."""
    lines = [
        f"/* Emulation guard: the chip's address map as {table.arch or 'no'} MPU regions "
        "(harness/board/mpu_regions.py, boards/cortex_m/emulation_guard.c). */",
        f"__emu_guard_regions = {len(table.regions)};",
        f"__emu_guard_mair0 = 0x{table.mair0:08x};",
    ]
    for slot in range(MPU_SLOTS):
        if slot < len(table.regions):
            region = table.regions[slot]
            rbar, attr, note = region.rbar, region.attr, f" /* {region.describe()} */"
        else:
            rbar, attr, note = 0, 0, ""
        lines.append(f"__emu_guard_rbar{slot} = 0x{rbar:08x}; __emu_guard_attr{slot} = 0x{attr:08x};{note}")
    if table.stack_guard is not None:
        lines.append(f"__emu_guard_stack_guard = 0x{table.stack_guard.origin:08x};")
        lines.append(f"__emu_guard_stack_guard_size = {table.stack_guard.size};")
    return "\n".join(lines) + "\n"
