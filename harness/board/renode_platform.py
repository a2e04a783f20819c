"""A Renode platform description generated from the board file: only what the chip has.

Renode's bundled platforms model a bigger chip than the board's: ``stm32f103.repl`` maps flash as a
512 MB region at 0, SRAM as 256 MB and the FSMC at 0x60000000, so a store anywhere there succeeds
(recorded from Renode 1.14.0, tests/renode_recordings). With ``[renode] platform = "generated"`` the
harness writes its own ``.repl`` instead: the board file's flash and RAM at their real sizes, the
NVIC (SysTick at the board's clock), the core, and the log UART — nothing else. An access anywhere
else then makes Renode log ``sysbus: [cpu: 0x…] WriteDoubleWord to non existing peripheral at 0x…``
(recorded, 2d_unmapped_minimal_bluepill), which the Renode runner turns into a crash of the running
case when the address is outside the board's memory map (``harness.board.mpu_regions.declared_windows``
and the system control space); accesses to the chip's own peripheral windows that Renode does not
model (RCC, GPIO) stay warnings, as they are on the real chip's buses.

The format follows Renode's own platform files and the minimal platform recorded working on real
Renode 1.14.0 (``stm32f103c8-minimal.repl`` in the recordings): ``name: Type @ sysbus <address>``,
four-space indented constructor arguments, ``-> target@line`` for interrupts.

    [renode]
    platform = "generated"
    uart = "sysbus.usart2"            # its name in the platform
    uart_model = "UART.STM32_UART"    # the Renode model of the log UART; at [log] uart_base
    uart_irq = 38                     # its NVIC line
    cpu_type = "cortex-m4f"           # optional: else from [board] core (+ "f" with a hard-float ABI)
    priority_mask = 0xF0              # optional: implemented NVIC priority bits (default 4 bits: 0xF0)
"""

from __future__ import annotations

from harness.board.boards import Board, BoardError

GENERATED = "generated"
SCS = (0xE0000000, 0x00100000)  # the system control space: NVIC, SysTick, SCB, DWT, ITM, MPU; always there


def is_generated(board: Board) -> bool:
    return board.section("renode").get("platform") == GENERATED


def _int(board: Board, key: str, default: int | None = None) -> int:
    value = board.section("renode").get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(f"{board.path / 'board.toml'}: [renode] {key} must be an integer (needed by "
                         f'platform = "{GENERATED}")')
    return value


def cpu_type(board: Board) -> str:
    """Renode's ``cpuType`` for the board's core: ``cortex-m4f`` for a Cortex-M4 built for its FPU."""
    configured = board.section("renode").get("cpu_type")
    if isinstance(configured, str) and configured:
        return configured
    flags = " ".join(str(flag) for flag in board.section("build").get("arch_flags", []))
    hard_float = "-mfloat-abi=hard" in flags or "-mfloat-abi=softfp" in flags
    return board.core + ("f" if hard_float and board.core in ("cortex-m4", "cortex-m7") else "")


def platform_description(board: Board) -> str:
    """The ``.repl`` text of ``board`` (``[renode] platform = "generated"``); BoardError naming a missing key."""
    where = board.path / "board.toml"
    if board.flash is None or board.ram is None:
        raise BoardError(f'{where}: [renode] platform = "{GENERATED}" needs [memory] flash and ram')
    table = board.section("renode")
    uart = str(table.get("uart", ""))
    model = table.get("uart_model")
    base = board.section("log").get("uart_base")
    if not uart.startswith("sysbus.") or not isinstance(model, str) or not isinstance(base, int):
        raise BoardError(f'{where}: [renode] platform = "{GENERATED}" needs uart = "sysbus.<name>", uart_model '
                         '(e.g. "UART.STM32_UART") and [log] uart_base (the UART\'s address)')
    irq = _int(board, "uart_irq")
    mask = _int(board, "priority_mask", 0xF0)
    clock = int(board.clock_hz or 0) or 72_000_000
    return "\n".join([
        f"// Generated from {where.name} of board {board.name} by harness.board.renode_platform: only the",
        "// chip's flash and RAM at their real sizes, the NVIC, the core and the log UART. Anything else is",
        "// unmapped, so Renode logs every access there (and the harness fails the run outside the board's map).",
        # Also at 0 (the boot alias of flash, as on the chip booting from flash), registered as in the
        # minimal platform recorded working on Renode 1.14.0.
        "flash: Memory.MappedMemory @ {",
        f"        sysbus 0x{board.flash.origin:08X};",
        "        sysbus 0x0",
        "    }",
        f"    size: 0x{board.flash.size:X}",
        "",
        f"sram: Memory.MappedMemory @ sysbus 0x{board.ram.origin:08X}",
        f"    size: 0x{board.ram.size:X}",
        "",
        f"nvic: IRQControllers.NVIC @ sysbus 0x{SCS[0] + 0xE000:08X}",
        f"    priorityMask: 0x{mask:X}",
        f"    systickFrequency: {clock}",
        "    IRQ -> cpu@0",
        "",
        "cpu: CPU.CortexM @ sysbus",
        f'    cpuType: "{cpu_type(board)}"',
        "    nvic: nvic",
        "",
        f"{uart.removeprefix('sysbus.')}: {model} @ sysbus <0x{base:08X}, +0x100>",
        f"    -> nvic@{irq}",
        "",
    ])


def allowed_windows(board: Board) -> list[tuple[int, int, str]]:
    """(origin, size, name) of every address range the chip has: flash (and its boot alias at 0), RAM,
    declared peripheral windows and the system control space. An access outside all of them would
    fault on silicon."""
    from harness.board.mpu_regions import declared_windows

    windows = [(w.origin, w.size, w.name) for w in declared_windows(board)]
    if board.flash is not None:
        windows.append((0, board.flash.size, "flash boot alias"))
    return [*windows, (SCS[0], SCS[1], "system control space")]


def outside(windows: list[tuple[int, int, str]], address: int) -> bool:
    return not any(origin <= address < origin + size for origin, size, _ in windows)


def unmapped_ranges(board: Board) -> list[tuple[int, int]]:
    """(start, size) of every hole of the 32-bit address space outside the chip's windows (``allowed_windows``):
    where the harness's Renode session puts pausing tags, so an access there stops the machine at once."""
    holes: list[tuple[int, int]] = []
    at = 0
    for origin, size, _ in sorted(allowed_windows(board)):
        if origin > at:
            holes.append((at, origin - at))
        at = max(at, origin + size)
    if at < 1 << 32:
        holes.append((at, (1 << 32) - at))
    return holes


def outside_the_chip(board: Board, address: int) -> bool:
    return outside(allowed_windows(board), address)
