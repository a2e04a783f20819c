"""``harness devices``: scan attached boards into a hardware map, list devices with their leases and
quarantine, lift a quarantine, or start a rack of emulated boards (docs/hardware.md)."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

from harness.board.boards import BoardError, load_board
from harness.hil import board_state
from harness.hil.devices import HardwareMap, HardwareMapError, dump_hardware_map, load_hardware_map, write_hardware_map
from harness.hil.diagnosis import device_down_reason
from harness.hil.emulated import emulated_rack
from harness.hil.lease import holder
from harness.hil.scan import scan_devices


def add_devices_parser(sub: Any) -> None:
    """``harness devices ...``: hooked into harness.cli.main with one call."""
    parser = sub.add_parser(
        "devices", help="hardware map: scan attached boards, list leases/quarantine, emulate a rack"
    )
    dsub = parser.add_subparsers(dest="devices_command", required=True, metavar="ACTION")
    p = dsub.add_parser("scan", help="write a hardware map from the attached probes and serial ports")
    p.add_argument("--board", default="bluepill", help="board type to assume for what is found (default: bluepill)")
    p.add_argument("-o", "--output", type=Path, default=None, help="file to write (default: print)")
    p.set_defaults(func=cmd_devices_scan)
    p = dsub.add_parser("list", help="show the devices of a map, who leases them, and quarantined ones")
    p.add_argument("--hardware-map", type=Path, required=True)
    p.set_defaults(func=cmd_devices_list)
    p = dsub.add_parser("clear", help="lift the quarantine of devices (all if no id given)")
    p.add_argument("--hardware-map", type=Path, required=True)
    p.add_argument("ids", nargs="*", metavar="ID")
    p.set_defaults(func=cmd_devices_clear)
    p = dsub.add_parser("emulate", help="start N emulated boards (QEMU behind loopback GDB/UART ports) and a map")
    p.add_argument("--board", default="bluepill")
    p.add_argument("--count", type=int, default=2)
    p.add_argument("-o", "--output", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(func=cmd_devices_emulate)


def cmd_devices_scan(args: argparse.Namespace) -> int:
    from harness.core.extras import MissingExtra

    try:
        found = scan_devices(board=args.board)
    except MissingExtra as error:
        print(f"harness: error: {error}", file=sys.stderr)
        return 2
    if not found.devices:
        print("no debug probe and no USB-serial port found; plug the board in (see docs/hardware.md)", file=sys.stderr)
    for warning in found.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(dump_hardware_map(found))
    else:
        write_hardware_map(found, args.output)
        print(f"wrote {len(found.devices)} device(s) to {args.output}")
    return 0 if found.devices else 1


def _load(path: Path) -> HardwareMap | None:
    """The map at ``path``, or None after printing why it cannot be used."""
    try:
        return load_hardware_map(path)
    except HardwareMapError as error:
        print(f"error: {error}", file=sys.stderr)
        return None


def cmd_devices_list(args: argparse.Namespace) -> int:
    hardware_map = _load(args.hardware_map)
    if hardware_map is None:
        return 2
    quarantined = board_state.quarantined(hardware_map)
    for device in hardware_map.devices:
        state = holder(device.id, hardware_map.lock_dir)
        status = f"leased ({state})" if state else "free"
        down = None if state else device_down_reason(device)
        if down is not None:
            status = f"DOWN: {down}"
        if device.id in quarantined:
            status = f"QUARANTINED: {quarantined[device.id].get('reason', '')}"
        print(f"{device.describe()}: {status}")
    return 0


def cmd_devices_clear(args: argparse.Namespace) -> int:
    hardware_map = _load(args.hardware_map)
    if hardware_map is None:
        return 2
    known = [device.id for device in hardware_map.devices]
    unknown = [device_id for device_id in args.ids if device_id not in known]
    if unknown:
        print(f"error: no device {', '.join(unknown)} in {args.hardware_map}; its devices: "
              f"{', '.join(known) or 'none'}", file=sys.stderr)
        return 2
    cleared = board_state.clear(hardware_map, args.ids or None)
    print(f"cleared: {', '.join(cleared) if cleared else 'nothing was quarantined'}")
    return 0


def cmd_devices_emulate(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
        hardware_map, boards = emulated_rack(board, args.count)
    except (BoardError, HardwareMapError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_hardware_map(hardware_map, args.output)
    print(f"{args.count} emulated {board.name} board(s) running; map: {args.output} (Ctrl-C stops them)")
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            if not all(b.alive for b in boards):
                print("an emulated board exited; stopping", file=sys.stderr)
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for qemu in boards:
            with contextlib.suppress(Exception):
                qemu.stop()
    return 0
