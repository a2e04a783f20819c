"""``harness devices scan``: what is attached now, as a hardware map.

One device per debug probe pyOCD sees, paired with its USB-serial port (the probe's own virtual COM
port, or the only free adapter when there is one probe); without a probe each USB-serial adapter is
a board reset by DTR. Boards whose firmware logs over a transport the scan found no way to hear get
a warning in the written map.
"""

from __future__ import annotations

from typing import Any

from harness.board.boards import BoardError, load_board
from harness.hil.devices import Device, HardwareMap
from harness.hil.diagnosis import listened_transports, transport_fix

# USB vendor ids of common debug probes and USB-serial adapters, to tell them apart in a scan.
_PROBE_VIDS = {0x0483: "ST-Link", 0x0D28: "CMSIS-DAP (DAPLink)", 0x1366: "J-Link", 0x1FC9: "CMSIS-DAP (LPC-Link)"}


def scan_devices(
    probes: list[Any] | None = None,
    ports: list[Any] | None = None,
    board: str = "bluepill",
) -> HardwareMap:
    """What is attached now: one device per debug probe, paired with a USB-serial port if exactly one is free.

    ``probes``/``ports`` default to what pyOCD and pyserial enumerate; tests pass their own. Without pyOCD
    installed it raises MissingExtra (the install command): a probe's own serial port would otherwise be
    mistaken for a board of its own.
    """
    if probes is None:
        from harness.core.extras import require

        require("hil", "harness devices scan (finding debug probes)")
        from harness.runners.pyocd_runner import list_probes

        try:
            probes = list_probes()
        except Exception:  # no USB access: still list serial ports
            probes = []
    if ports is None:
        from serial.tools import list_ports

        ports = list(list_ports.comports())
    probe_serials = {str(getattr(p, "unique_id", "")) for p in probes}
    # USB-serial adapters; the probe's own virtual COM port (same USB serial number) is kept for its board.
    uarts = [p for p in ports if getattr(p, "vid", None) is not None and getattr(p, "serial_number", None)]
    free_uarts = [p for p in uarts if p.serial_number not in probe_serials]
    devices: list[Device] = []
    for index, probe in enumerate(probes, 1):
        uid = str(probe.unique_id)
        vcp = next((p for p in uarts if p.serial_number == uid), None)
        device = Device(id=f"{board}-{index}", board=board, backend="pyocd", probe=uid, reset="probe")
        uart = vcp or (free_uarts[0] if len(probes) == 1 and len(free_uarts) == 1 else None)
        if uart is not None:
            device.serial_number = uart.serial_number  # log: the board's [log] transports (UART)
        else:
            device.transports = ["semihosting"]  # no UART found: only the debugger can carry the log
        description = getattr(probe, "description", "") or getattr(probe, "product_name", "")
        if description:
            device.labels = [str(description)]
        devices.append(device)
    if not probes:
        # No probe: each USB-serial adapter is a board that resets by DTR.
        for index, port in enumerate(uarts, 1):
            if port.vid in _PROBE_VIDS:
                continue
            devices.append(
                Device(
                    id=f"{board}-uart-{index}",
                    board=board,
                    backend="serial",
                    serial_number=port.serial_number,
                    reset="dtr",
                    labels=[str(port.description or port.device)],
                )
            )
    return HardwareMap(devices, warnings=_scan_warnings(devices, board))


def _scan_warnings(devices: list[Device], board_name: str) -> list[str]:
    """Devices whose board logs over a transport the scan found no way to hear (e.g. UART without a port)."""
    try:
        board = load_board(board_name)
    except BoardError:
        return []
    warnings = []
    for device in devices:
        fix = transport_fix(device, board)
        if fix is not None:
            warnings.append(
                f"{device.id}: {board.name} firmware logs over {', '.join(board.log_transports)} but the run would "
                f"listen on {', '.join(listened_transports(device, board)) or 'nothing'} (no serial port found "
                f"for it), so every run would end in 'no output at all'; fix: {fix}"
            )
    return warnings


