"""Builds the HIL tests' firmware (tests/hil/fw) in its variants.

The firmware links the real firmware-side HIL code (boards/cortex_m/
handshake.cc, debug_log_auto.cc, rtt*.cc) and micro_runtime's MicroPrintf
and micro_test, with a minimal STM32F1 platform, so the HIL tests do not
depend on the state of a full board port. Runs on QEMU's stm32vldiscovery.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.runners.gdbremote.qemu_board import QemuBoard, start_qemu_board

FW_DIR = REPO_ROOT / "tests" / "hil" / "fw"
MACHINE = "stm32vldiscovery"
SERIAL_SLOT = 1  # USART2
GXX = "arm-none-eabi-g++"

_CORTEX_M = REPO_ROOT / "boards" / "cortex_m"
VARIANTS: dict[str, tuple[list[str], list[Path]]] = {
    "semihost": (["-DHIL_LOG_SEMIHOST"], []),
    "semihost_fail": (["-DHIL_LOG_SEMIHOST", "-DHIL_FAIL"], []),
    "semihost_crash": (["-DHIL_LOG_SEMIHOST", "-DHIL_CRASH"], []),
    "uart": (["-DHIL_LOG_UART"], []),
    "uart_handshake": (["-DHIL_LOG_UART", "-DMICRO_START_HANDSHAKE=1"], []),
    "auto_handshake": (["-DMICRO_START_HANDSHAKE=1"], [_CORTEX_M / "debug_log_auto.cc"]),
    # QEMU does not report a debugger in DHCSR, so RTT must wait for the host regardless.
    "rtt": (
        ["-DHIL_EXIT_SEMIHOST", "-DMICRO_RTT_BLOCK=1", "-DMICRO_RTT_WAIT_SPINS=50000000"],
        [_CORTEX_M / "rtt.cc", _CORTEX_M / "rtt_debug_log.cc"],
    ),
}


def toolchain_missing() -> str | None:
    if shutil.which(GXX) is None:
        return f"{GXX} not found; install it: apt-get install gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib"
    if shutil.which("qemu-system-arm") is None:
        return "qemu-system-arm not found; install it: apt-get install qemu-system-arm"
    return None


def build_test_firmware(variant: str, out_dir: Path) -> Path:
    if variant not in VARIANTS:
        raise ValueError(f"unknown HIL firmware variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    flags, extra_sources = VARIANTS[variant]
    out_dir.mkdir(parents=True, exist_ok=True)
    elf = out_dir / f"hil_{variant}.elf"
    cmd = [GXX, "-mcpu=cortex-m3", "-mthumb", "-Os", "-g", "-std=c++17", "-fno-exceptions", "-fno-rtti"]
    cmd += ["-fno-threadsafe-statics", "-Wall", "-Wextra", "-Werror", "-ffunction-sections", "-fdata-sections"]
    cmd += [f"-I{REPO_ROOT}", "-nostartfiles", "-specs=nano.specs", "-specs=nosys.specs", "-Wl,--gc-sections"]
    cmd += ["-T", str(FW_DIR / "hil.ld"), *flags]
    cmd += [str(FW_DIR / "hil_platform.cc"), str(FW_DIR / "hil_cases.cc")]
    cmd += [str(REPO_ROOT / "micro_runtime" / "micro_log.cc"), str(_CORTEX_M / "handshake.cc")]
    cmd += [str(s) for s in extra_sources]
    cmd += ["-o", str(elf)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"building HIL firmware {variant} failed:\n{result.stderr[-2000:]}")
    return elf


# ------------------------------------------------------------ pytest fixtures --
# Imported by the HIL test modules (``from harness.testing.hil_fw import hil_firmware, qemu_board``).
_BUILT: dict[tuple[str, str], Path] = {}
# What the hil_firmware fixture gives the tests: variant name -> ELF path.
HilFirmware = Callable[[str], Path]


@pytest.fixture(scope="session")
def hil_firmware(tmp_path_factory: pytest.TempPathFactory) -> HilFirmware:
    """``hil_firmware("semihost")`` -> ELF path; built once per session per variant."""
    missing = toolchain_missing()
    if missing is not None:
        pytest.skip(missing)
    out_dir = tmp_path_factory.getbasetemp() / "hil_fw"

    def get(variant: str) -> Path:
        key = (str(out_dir), variant)
        if key not in _BUILT:
            _BUILT[key] = build_test_firmware(variant, out_dir)
        return _BUILT[key]

    return get


@pytest.fixture
def qemu_board(tmp_path: Path) -> Iterator[QemuBoard]:
    """One emulated STM32F1 board (QEMU halted behind loopback GDB and UART ports)."""
    missing = toolchain_missing()
    if missing is not None:
        pytest.skip(missing)
    board = start_qemu_board(MACHINE, SERIAL_SLOT, log_dir=tmp_path / "qemu")
    try:
        yield board
    finally:
        board.stop()
