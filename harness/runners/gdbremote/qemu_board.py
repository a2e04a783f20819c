"""An emulated board that behaves like one on the bench: QEMU halted behind its GDB stub.

QEMU starts with no firmware (``-S``, no ``-kernel``), its GDB stub and the
log UART on loopback TCP ports. A runner then flashes it over GDB, resets it
and runs it, exactly as it would a probe-attached board; the UART is a
``socket://`` serial port. Several of these make an emulated rack for the
hardware map (``harness devices emulate``, tests/hil).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.core import procs

QEMU = "qemu-system-arm"
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    """A TCP port on loopback that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def _wait_listening(port: int, process: subprocess.Popen[bytes], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.2)
            if sock.connect_ex((LOOPBACK, port)) == 0:
                return True
        time.sleep(0.05)
    return False


@dataclass
class QemuBoard:
    machine: str
    gdb_port: int
    serial_port: int
    process: subprocess.Popen[bytes] = field(repr=False)
    log_path: Path | None = None

    @property
    def gdb_address(self) -> str:
        return f"{LOOPBACK}:{self.gdb_port}"

    @property
    def serial_url(self) -> str:
        return f"socket://{LOOPBACK}:{self.serial_port}"

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """Ends QEMU (also what a test does to simulate a board dying)."""
        procs.reap(self.process)

    def __enter__(self) -> QemuBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class QemuBoardError(Exception):
    pass


def start_qemu_board(
    machine: str = "stm32vldiscovery",
    serial_slot: int = 1,
    log_dir: Path | None = None,
    attempts: int = 3,
) -> QemuBoard:
    """Starts one emulated board; ``serial_slot`` picks the UART (1 = USART2 on STM32F1)."""
    if shutil.which(QEMU) is None:
        raise QemuBoardError(f"{QEMU} not found; install it: apt-get install qemu-system-arm")
    last = ""
    for _ in range(attempts):  # a port picked free may be taken by the time QEMU binds it
        gdb_port, serial_port = free_port(), free_port()
        argv = [QEMU, "-M", machine, "-display", "none", "-monitor", "none", "-nodefaults", "-S"]
        argv += ["-gdb", f"tcp:{LOOPBACK}:{gdb_port}"]
        argv += ["-serial", "null"] * serial_slot
        argv += ["-serial", f"tcp:{LOOPBACK}:{serial_port},server=on,wait=off"]
        log_path = None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
            log_path = log_dir / f"qemu-{gdb_port}.log"
        out = log_path.open("wb") if log_path is not None else subprocess.DEVNULL
        try:
            process = procs.spawn(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        finally:
            if log_path is not None:
                out.close()  # type: ignore[union-attr]
        if _wait_listening(gdb_port, process, 5.0):
            return QemuBoard(machine, gdb_port, serial_port, process, log_path)
        procs.reap(process)
        last = log_path.read_text(errors="replace") if log_path is not None else f"{QEMU} did not start"
    raise QemuBoardError(f"could not start an emulated {machine} board: {last.strip()[:300]}")
