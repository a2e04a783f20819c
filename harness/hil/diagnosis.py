"""Why a hardware map device heard nothing, or cannot be reached, and what fixes it.

``listened_transports`` is what a run of a device captures per backend, ``transport_fix`` and
``no_output_reason`` turn a mismatch with the board's ``[log] transports`` into the fix, and
``device_down_reason`` checks a free device's GDB server or UART endpoint without disturbing it.
"""

from __future__ import annotations

import json
from pathlib import Path

from harness.board.boards import Board
from harness.hil.devices import Device


def listened_transports(device: Device, board: Board) -> list[str]:
    """The log transports a run of ``device`` captures (what it could hear), per backend."""
    transports = list(device.transports or board.log_transports)
    has_uart = bool(device.serial or device.serial_number)
    if device.backend == "serial":
        return ["uart"] if has_uart else []
    heard = [t for t in transports if t != "uart"]
    if device.backend == "gdbremote" and not any(t.startswith("semihosting") for t in heard):
        heard.insert(0, "semihosting")  # serviced over the GDB server whatever the map says
    if has_uart and (device.backend == "gdbremote" or "uart" in transports):
        heard.append("uart")
    return heard


def _kind(transport: str) -> str:
    return "semihosting" if transport.startswith("semihosting") else transport


def transport_fix(device: Device, board: Board) -> str | None:
    """The fix when ``device`` cannot hear any transport its board's firmware logs over; None if it can."""
    logs = list(board.log_transports)
    if {_kind(t) for t in logs} & {_kind(t) for t in listened_transports(device, board)}:
        return None
    if "uart" in logs:
        return (
            f'give {device.id} its UART in the hardware map (serial = "/dev/ttyUSB0" or serial_number = "..." '
            "of the USB-serial adapter on the board's log pins; harness devices scan pairs them), or log "
            "through the probe: add \"semihosting\" to the board's [log] transports"
        )
    return f"set transports = {json.dumps(logs)} for {device.id} in the hardware map"


def no_output_reason(device: Device, board: Board) -> str:
    """Why a run may have heard nothing: the transports it listened on against the board's, with the fix."""
    heard = listened_transports(device, board)
    text = (
        f"no output at all from {device.id}: the run listened on {', '.join(heard) or 'nothing'}; "
        f"{board.name} firmware logs over {', '.join(board.log_transports) or 'nothing'} ([log] transports in "
        f"{board.path / 'board.toml'})"
    )
    fix = transport_fix(device, board)
    if fix is not None:
        return f"{text}; fix: {fix}"
    return text + "; check the wiring (board TX -> adapter RX), the baud rate, power and that the firmware starts"


_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0", "")


def _local_listening_ports() -> set[int] | None:
    """TCP ports something listens on on this machine (from /proc; None where that is not readable)."""
    ports: set[int] = set()
    found = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        found = True
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "0A":  # TCP_LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports if found else None


def _tcp_down(host: str, port: int) -> bool:
    """True when nothing accepts connections at host:port. Local ports are looked up, not connected to
    (a GDB stub such as QEMU's stops the target when a debugger connects)."""
    import socket

    if host in _LOCAL_HOSTS:
        listening = _local_listening_ports()
        if listening is not None:
            return port not in listening
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=1.0):
            return False
    except OSError:
        return True


def device_down_reason(device: Device) -> str | None:
    """Why an unleased device cannot be reached right now (its GDB server or UART endpoint is gone), or
    None when it looks alive or cannot be checked cheaply (e.g. a pyOCD probe)."""
    endpoints = []
    if device.gdb:
        endpoints.append(("gdb", device.gdb))
    if device.serial:
        endpoints.append(("uart", device.serial))
    for what, address in endpoints:
        if address.startswith("/"):
            if not Path(address).exists():
                return f"{what} {address} does not exist (unplugged?)"
            continue
        target = address.split("://", 1)[1] if "://" in address else address
        if "://" in address and not address.startswith(("socket://", "rfc2217://")):
            continue  # loop://, spy://, hwgrep://: nothing to probe
        host, _, port = target.split("/", 1)[0].rpartition(":")
        if port.isdigit() and _tcp_down(host.strip("[]"), int(port)):
            return f"nothing listens on {what} {address} (board or its server not running)"
    return None


def tool_problem(board: Board, candidates: list[Device]) -> str | None:
    """pyOCD or the target's CMSIS pack missing on this machine: a host problem, not a board's."""
    if not any(d.backend == "pyocd" or (d.backend == "serial" and d.probe) for d in candidates):
        return None
    from harness.runners.pyocd_runner import board_target_problem

    return board_target_problem(board)


