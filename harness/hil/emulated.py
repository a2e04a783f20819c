"""``harness devices emulate``: a rack of emulated boards behind loopback GDB and UART ports.

Each board is a QEMU started as a GDB server (``harness.runners.gdbremote.qemu_board``) and appears
in the hardware map as a ``gdbremote`` device labelled ``emulated`` (its runs set the emulation
guard), so the whole hardware-in-the-loop path (map, leases, retries, UART) runs without a board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.board.boards import Board
from harness.hil.devices import Device, HardwareMap, HardwareMapError
from harness.runners.base import EMULATED_LABEL

QEMU_RESET = ("monitor system_reset", "vector-table")


def emulated_rack(board: Board, count: int, log_dir: Path | None = None) -> tuple[HardwareMap, list[Any]]:
    """``count`` emulated boards of ``board``'s type and the hardware map describing them (loopback only)."""
    from harness.runners.gdbremote.qemu_board import start_qemu_board

    table = board.section("qemu")
    if not table.get("machine"):
        raise HardwareMapError(f"board {board.name} has no [qemu] machine to emulate it with")
    boards = []
    devices = []
    try:
        for index in range(1, count + 1):
            qemu = start_qemu_board(str(table["machine"]), int(table.get("serial", 0)), log_dir)
            boards.append(qemu)
            devices.append(
                Device(
                    id=f"{board.name}-emu-{index}",
                    board=board.name,
                    backend="gdbremote",
                    gdb=qemu.gdb_address,
                    serial=qemu.serial_url,
                    # A full machine reset also clears the UART, so no byte of an earlier run stays queued.
                    reset=list(QEMU_RESET),
                    labels=[EMULATED_LABEL],
                )
            )
    except Exception:
        for qemu in boards:
            qemu.stop()
        raise
    return HardwareMap(devices), boards
