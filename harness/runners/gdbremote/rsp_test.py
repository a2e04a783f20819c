"""GDB RSP client: framing and parsing, then the real protocol against QEMU's GDB stub."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from harness.runners.gdbremote.elf import load_firmware
from harness.runners.gdbremote.qemu_board import QemuBoard
from harness.runners.gdbremote.rsp import (
    SIGINT,
    SIGTRAP,
    RspClient,
    RspError,
    checksum,
    decode_payload,
    escape_binary,
    frame,
    parse_stop_reply,
)
from harness.runners.gdbremote.target import GdbTarget
from harness.testing.hil_fw import HilFirmware, hil_firmware, qemu_board  # noqa: F401  (fixtures)

RAM = 0x20000000


def test_frame_has_modulo_256_checksum() -> None:
    assert frame(b"g") == b"$g#67"
    assert checksum(b"") == 0
    assert frame(b"m20000000,4") == b"$m20000000,4#" + f"{sum(b'm20000000,4') % 256:02x}".encode()


def test_binary_escaping_round_trips_every_byte() -> None:
    data = bytes(range(256))
    escaped = escape_binary(data)
    # Outside of escape pairs ("}" + byte) no framing byte may appear.
    i, bare = 0, bytearray()
    while i < len(escaped):
        if escaped[i] == 0x7D:
            i += 2
        else:
            bare.append(escaped[i])
            i += 1
    assert not set(bare) & set(b"#$}*")
    assert len(escaped) == 256 + 4
    assert decode_payload(escaped) == data


def test_run_length_encoding_is_expanded() -> None:
    # "0* " = '0' then 32 - 29 = 3 more copies.
    assert decode_payload(b"0* ") == b"0000"
    assert decode_payload(b'ab*"c') == b"abbbbbbc"


def test_stop_replies() -> None:
    stop = parse_stop_reply(b"T05thread:01;0f:00010008;swbreak:;")
    assert (stop.kind, stop.signal) == ("signal", SIGTRAP)
    assert stop.registers[15] == 0x08000100
    assert stop.info["thread"] == "01"
    assert parse_stop_reply(b"S02").signal == SIGINT
    assert parse_stop_reply(b"W03").exit_status == 3
    assert parse_stop_reply(b"X09").kind == "terminated"
    with pytest.raises(RspError, match="not a stop reply"):
        parse_stop_reply(b"OK")


def test_connection_refused_names_the_fix() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: refused
        with pytest.raises(RspError, match="start the server"):
            RspClient("127.0.0.1", port, connect_timeout_s=1.0)


def test_silent_server_times_out_instead_of_hanging() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    accepted: list[socket.socket] = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True)
    thread.start()
    start = time.monotonic()
    try:
        with pytest.raises(RspError, match="did not acknowledge|did not answer"):
            RspClient("127.0.0.1", server.getsockname()[1], timeout_s=0.5)
        assert time.monotonic() - start < 5
    finally:
        for conn in accepted:
            conn.close()
        server.close()


@pytest.mark.emulator
def test_registers_memory_breakpoints_and_interrupt(
    qemu_board: QemuBoard, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    host, port = qemu_board.gdb_address.split(":")
    with RspClient(host, int(port)) as client:
        assert client.registers["pc"] == 15 and client.registers["xpsr"] == 25  # from the target description
        assert client.halt_reason().kind == "signal"
        # Memory: write and read back a pattern bigger than one packet.
        pattern = bytes((i * 7) & 0xFF for i in range(3000))
        client.write_memory(RAM + 0x400, pattern)
        assert client.read_memory(RAM + 0x400, len(pattern)) == pattern
        # Registers: P then p.
        client.write_register(client.registers["r4"], 0x12345678)
        assert client.read_register(client.registers["r4"]) == 0x12345678
        block = client.read_registers()  # "g": r0..r15 first, 4 bytes each, little-endian
        assert int.from_bytes(block[16:20], "little") == 0x12345678
        # A tight loop in RAM ("b ." = 0xe7fe): run, interrupt, find PC still on it.
        client.write_memory(RAM + 0x100, bytes.fromhex("fee7"))
        client.write_register(15, RAM + 0x100)
        client.write_register(25, 1 << 24)
        client.cont()
        assert client.wait_stop(0.3) is None  # still running
        client.interrupt()
        stop = client.wait_stop(5.0)
        assert stop is not None and stop.signal == SIGINT
        assert client.read_register(15) == RAM + 0x100
        # Breakpoint + single step on firmware code.
        firmware = load_firmware(hil_firmware("semihost"))
        target = GdbTarget(client)
        target.load_segments(firmware.segments)
        target.reset_from_vector_table(firmware.vector_table)
        first_site = min(firmware.semihost_sites)
        client.insert_breakpoint(first_site)
        client.cont()
        stop = client.wait_stop(5.0)
        assert stop is not None and stop.signal == SIGTRAP
        assert client.read_register(15) == first_site
        client.remove_breakpoint(first_site)
        assert "R00=" in client.monitor("info registers")


def test_flash_memory_map_and_block_aligned_erase() -> None:
    from harness.runners.gdbremote.target import erase_ranges, parse_memory_map

    xml = (
        '<?xml version="1.0"?><memory-map>'
        '<memory type="ram" start="0x20000000" length="0x5000"/>'
        '<memory type="flash" start="0x8000000" length="0x10000"><property name="blocksize">0x400</property></memory>'
        "</memory-map>"
    )
    (flash,) = parse_memory_map(xml)
    assert (flash.start, flash.length, flash.blocksize) == (0x08000000, 0x10000, 0x400)
    # Two segments (text, then .data's load image right after it): one erase of whole 1 KiB blocks.
    assert erase_ranges([(0x08000000, 0x1234), (0x08001234, 0x10)], [flash]) == [(0x08000000, 0x08001400)]
    # Never past the end of the region.
    assert erase_ranges([(0x0800FF00, 0x80)], [flash]) == [(0x0800FC00, 0x08010000)]
