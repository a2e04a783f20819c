"""Builds the runner tests' self-contained firmware (harness/testdata/fw/mini.c).

The runner and crash tests must not depend on any board port being finished,
so they use this tiny semihosting firmware on QEMU's stm32vldiscovery
(Cortex-M3, STM32F100: same memory map as the bluepill's STM32F103).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from harness.board.boards import Board, MemoryRegion

FW_DIR = Path(__file__).resolve().parent.parent / "testdata" / "fw"
MODES = ("PASS", "FAIL", "CRASH", "HANG", "EXIT_EARLY", "LOCKUP")
GCC = "arm-none-eabi-gcc"


def toolchain_missing() -> str | None:
    if shutil.which(GCC) is None:
        return f"{GCC} not found; install it: apt-get install gcc-arm-none-eabi"
    return None


def build_mini_firmware(mode: str, out_dir: Path, uart: bool = False, halt: bool = False) -> Path:
    """ELF for ``mode`` (one of MODES); ``uart`` logs over USART1 instead of semihosting,
    ``halt`` spins forever where it would exit (a board with no debugger attached)."""
    if mode not in MODES:
        raise ValueError(f"unknown firmware mode {mode!r}; choose one of {', '.join(MODES)}")
    elf = out_dir / f"mini_{mode.lower()}{'_uart' if uart else ''}{'_halt' if halt else ''}.elf"
    cmd = [GCC, "-mcpu=cortex-m3", "-mthumb", "-O1", "-g", "-nostdlib", "-ffreestanding"]
    cmd += ["-Wall", "-Wextra", "-Werror", f"-DMODE_{mode}", "-T", str(FW_DIR / "mini.ld")]
    if uart:
        cmd.append("-DUSE_UART")
    if halt:
        cmd.append("-DNO_EXIT")
    cmd += [str(FW_DIR / "mini.c"), "-o", str(elf)]
    subprocess.run(cmd, check=True, capture_output=True)
    return elf


def mini_board(run: dict[str, object] | None = None, **qemu: object) -> Board:
    """A board description matching the mini firmware; ``qemu`` overrides [qemu] keys, ``run`` is its [run]."""
    table: dict[str, object] = {"machine": "stm32vldiscovery", "serial": 0}
    table.update(qemu)
    return Board(
        name="mini-stm32f100",
        description="runner test firmware on QEMU stm32vldiscovery",
        core="cortex-m3",
        path=FW_DIR,
        toolchain_prefix="arm-none-eabi-",
        cc=GCC,
        cxx="arm-none-eabi-g++",
        arch_flags=("-mcpu=cortex-m3", "-mthumb"),
        opt="-O1",
        ldflags=(),
        libs=(),
        tags=(),
        sources=(),
        linker_script="mini.ld",
        flash=MemoryRegion(0x08000000, 128 * 1024),
        ram=MemoryRegion(0x20000000, 8 * 1024),
        backends=("qemu",),
        raw={
            "qemu": table,
            "run": dict(run or {}),
            "renode": {"platform": "platforms/cpus/stm32f103.repl", "uart": "sysbus.usart1"},
        },
    )
