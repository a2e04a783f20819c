"""A small GDB Remote Serial Protocol client (all-stop mode, TCP).

Speaks to any GDB server: QEMU's ``-gdb`` stub, OpenOCD, J-Link GDB server,
``pyocd gdbserver``. Only what a test runner needs: halt reason, registers,
memory, continue/step, software breakpoints, interrupt, monitor commands and
flash programming packets. Every wait has a deadline; nothing blocks forever.

Framing: ``$<data>#<2 hex checksum>``; the peer acks with ``+`` (or ``-`` to
ask for a resend) until no-ack mode is negotiated. Binary data in replies is
escaped with ``}`` (0x7d) followed by the byte XOR 0x20 and may be
run-length encoded (``*``); both are decoded here.

Size: over 400 lines because the whole wire protocol (framing, acks, escapes, run-length decoding,
stop replies) sits in one module, which is how it is tested.
"""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

SIGINT = 2
SIGTRAP = 5

_STOP_RE = re.compile(rb"^[ST][0-9a-fA-F]{2}(?:$|[0-9a-zA-Z_]+:)")

# Bytes that must be escaped inside binary packet data (X, vFlashWrite).
_ESCAPED = {ord("#"), ord("$"), ord("}"), ord("*")}


class RspError(Exception):
    """Protocol failure (timeout, bad checksum, error reply, closed socket), with the fix in the message."""


@dataclass
class StopReply:
    """A parsed stop reply: ``S``/``T`` (stopped on a signal), ``W`` (exited), ``X`` (killed)."""

    kind: str  # "signal" | "exited" | "terminated"
    signal: int = 0  # signal number (S/T/X) or exit status (W)
    registers: dict[int, int] = field(default_factory=dict)  # T packet "nn:value" pairs, little-endian decoded
    info: dict[str, str] = field(default_factory=dict)  # other T packet pairs (thread, swbreak...)

    @property
    def exit_status(self) -> int | None:
        return self.signal if self.kind == "exited" else None


def checksum(data: bytes) -> int:
    return sum(data) & 0xFF


def frame(data: bytes) -> bytes:
    """``data`` as a complete packet ``$data#cs``."""
    return b"$" + data + b"#" + f"{checksum(data):02x}".encode()


def escape_binary(data: bytes) -> bytes:
    out = bytearray()
    for byte in data:
        if byte in _ESCAPED:
            out += bytes((0x7D, byte ^ 0x20))
        else:
            out.append(byte)
    return bytes(out)


def decode_payload(data: bytes) -> bytes:
    """Undoes binary escaping and run-length encoding of a received packet body."""
    out = bytearray()
    i = 0
    while i < len(data):
        byte = data[i]
        if byte == 0x7D and i + 1 < len(data):
            out.append(data[i + 1] ^ 0x20)
            i += 2
        elif byte == ord("*") and out and i + 1 < len(data):
            # "x*<n>" repeats the previous byte (n - 29) more times.
            out += bytes((out[-1],)) * (data[i + 1] - 29)
            i += 2
        else:
            out.append(byte)
            i += 1
    return bytes(out)


def parse_stop_reply(body: bytes) -> StopReply:
    text = body.decode("ascii", errors="replace")
    if not text:
        raise RspError("empty stop reply")
    kind = text[0]
    if kind in "ST" and len(text) >= 3:
        reply = StopReply("signal", int(text[1:3], 16))
        if kind == "T":
            for pair in text[3:].split(";"):
                if ":" not in pair:
                    continue
                key, value = pair.split(":", 1)
                try:
                    regno = int(key, 16)
                except ValueError:
                    reply.info[key] = value
                    continue
                reply.registers[regno] = int.from_bytes(bytes.fromhex(value), "little")
        return reply
    if kind == "W" and len(text) >= 3:
        return StopReply("exited", int(text[1:3], 16))
    if kind == "X" and len(text) >= 3:
        return StopReply("terminated", int(text[1:3], 16))
    raise RspError(f"not a stop reply: {text[:40]!r}")


def _fail_when_the_host_vanishes(sock: socket.socket) -> None:
    """A server whose host vanished (its link cut, powered off) answers nothing and resets nothing: while the core
    runs, a stop reply would be awaited until the run's deadline and the run read as a test timeout. Keepalive
    probes (answered by the server host's kernel however long the core runs) and a bound on unacknowledged data end
    such a connection within seconds, an error of the connection (tests/farm/test_night_faults.py, link cut)."""
    options = [(socket.SOL_SOCKET, "SO_KEEPALIVE", 1), (socket.IPPROTO_TCP, "TCP_KEEPIDLE", 2),
               (socket.IPPROTO_TCP, "TCP_KEEPINTVL", 1), (socket.IPPROTO_TCP, "TCP_KEEPCNT", 3),
               (socket.IPPROTO_TCP, "TCP_USER_TIMEOUT", 6000)]
    for level, name, value in options:
        if hasattr(socket, name):  # Linux has them all; elsewhere what the platform has
            with contextlib.suppress(OSError):
                sock.setsockopt(level, getattr(socket, name), value)


class RspClient:
    """One connection to a GDB server. Use as a context manager or call ``close()``.

    ``timeout_s`` bounds each request/reply exchange; ``wait_stop`` takes its
    own deadline because a running target may take arbitrarily long.
    """

    def __init__(self, host: str, port: int, timeout_s: float = 5.0, connect_timeout_s: float = 5.0) -> None:
        self.host = host
        self.port = port
        self.timeout_s = timeout_s
        self._buf = bytearray()
        self._ack = True
        self.packet_size = 400  # conservative until qSupported says otherwise
        self.features: dict[str, str] = {}
        self.on_console: Callable[[bytes], None] | None = None  # "O" packets: server console output
        self.pending_stops: list[StopReply] = []  # stop replies that arrived while waiting for another answer
        try:
            self._sock = socket.create_connection((host, port), timeout=connect_timeout_s)
        except OSError as error:
            raise RspError(
                f"cannot connect to GDB server at {host}:{port}: {error}; start the server "
                "(e.g. qemu-system-arm ... -gdb tcp:127.0.0.1:PORT -S, openocd, pyocd gdbserver) and check the port"
            ) from error
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _fail_when_the_host_vanishes(self._sock)
        self._negotiate()

    # ---------------------------------------------------------------- framing
    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()

    def __enter__(self) -> RspClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _recv_some(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        self._sock.settimeout(remaining)
        try:
            data = self._sock.recv(65536)
        except TimeoutError as error:
            if error.errno is None:  # this socket's own timeout: nothing arrived yet
                raise
            # ETIMEDOUT: keepalive or unacknowledged data got no answer (_fail_when_the_host_vanishes)
            raise RspError(f"GDB server {self.host}:{self.port} stopped answering: its host or the network to it "
                           f"is down ({error})") from error
        except OSError as error:
            raise RspError(f"GDB server {self.host}:{self.port} connection failed: {error}") from error
        if not data:
            raise RspError(f"GDB server {self.host}:{self.port} closed the connection (did the server/emulator exit?)")
        self._buf += data

    def _send_raw(self, data: bytes) -> None:
        try:
            self._sock.sendall(data)
        except OSError as error:
            raise RspError(f"GDB server {self.host}:{self.port} connection failed: {error}") from error

    def _read_packet(self, deadline: float) -> bytes | None:
        """Next packet body, or None on timeout. Skips stray acks; answers acks when in ack mode."""
        while True:
            start = self._buf.find(b"$")
            if start > 0:
                del self._buf[:start]  # stray '+' / '-' acks before the packet
            if start >= 0:
                end = self._buf.find(b"#", 1)
                if end >= 0 and len(self._buf) >= end + 3:
                    body = bytes(self._buf[1:end])
                    cs_text = bytes(self._buf[end + 1 : end + 3])
                    del self._buf[: end + 3]
                    try:
                        good = int(cs_text, 16) == checksum(body)
                    except ValueError:
                        good = False
                    if self._ack:
                        self._send_raw(b"+" if good else b"-")
                    if not good:
                        continue  # the server resends after our '-'
                    return decode_payload(body)
            elif self._buf:
                self._buf.clear()
            try:
                self._recv_some(deadline)
            except TimeoutError:
                return None

    def _wait_ack(self, deadline: float) -> bool:
        """True on '+', False on '-'. Raises on timeout."""
        while True:
            while self._buf and self._buf[0] not in (ord("+"), ord("-"), ord("$")):
                del self._buf[0]
            if self._buf and self._buf[0] in (ord("+"), ord("-")):
                ok = self._buf[0] == ord("+")
                del self._buf[0]
                return ok
            if self._buf:  # a packet arrived without an ack: accept it as acked
                return True
            try:
                self._recv_some(deadline)
            except TimeoutError:
                raise RspError(f"GDB server {self.host}:{self.port} did not acknowledge a packet") from None

    def send(self, body: bytes | str) -> None:
        data = body.encode("ascii") if isinstance(body, str) else body
        packet = frame(data)
        deadline = time.monotonic() + self.timeout_s
        for _ in range(3):
            self._send_raw(packet)
            if not self._ack or self._wait_ack(deadline):
                return
        raise RspError(f"GDB server {self.host}:{self.port} rejected a packet three times (noisy link?)")

    def request(self, body: bytes | str, timeout_s: float | None = None) -> bytes:
        """Sends one packet and returns the reply body, skipping console output packets."""
        self.send(body)
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        while True:
            reply = self._read_packet(deadline)
            if reply is None:
                shown = body if isinstance(body, str) else body[:20].decode("latin-1")
                raise RspError(f"GDB server {self.host}:{self.port} did not answer {shown!r} in time")
            if reply.startswith(b"O") and reply != b"OK" and _is_hex(reply[1:]):
                self._console(reply[1:])
                continue
            if body not in ("?", b"?") and _STOP_RE.match(reply):
                # An unsolicited stop reply (QEMU sends one when a new client pauses a running
                # machine); keep it for wait_stop instead of taking it as this request's answer.
                self.pending_stops.append(parse_stop_reply(reply))
                continue
            return reply

    def _console(self, hex_text: bytes) -> None:
        if self.on_console is not None:
            self.on_console(bytes.fromhex(hex_text.decode()))

    def _negotiate(self) -> None:
        reply = self.request("qSupported:swbreak+;hwbreak+").decode("ascii", errors="replace")
        for item in reply.split(";"):
            if "=" in item:
                key, value = item.split("=", 1)
                self.features[key] = value
            elif item.endswith(("+", "-")):
                self.features[item[:-1]] = item[-1]
        if "PacketSize" in self.features:
            self.packet_size = max(64, int(self.features["PacketSize"], 16))
        if self.features.get("QStartNoAckMode") == "+" and self.request("QStartNoAckMode") == b"OK":
            self._ack = False
        # Some servers (QEMU) only accept register writes once the client has read the
        # target description; it also gives the register numbers.
        self.registers: dict[str, int] = {}
        if self.features.get("qXfer:features:read") == "+":
            self.registers = self._read_register_map()

    def read_xfer(self, obj: str, annex: str, limit: int = 1 << 20) -> bytes:
        """A whole ``qXfer:<obj>:read:<annex>`` object, read in packet-sized pieces."""
        out = bytearray()
        chunk = max(64, self.packet_size - 16)
        while len(out) < limit:
            reply = self.request(f"qXfer:{obj}:read:{annex}:{len(out):x},{chunk:x}")
            if not reply or reply[:1] not in (b"m", b"l"):
                raise RspError(f"qXfer:{obj}:read:{annex} failed: server replied {reply[:40]!r}")
            out += reply[1:]
            if reply[:1] == b"l":
                break
        return bytes(out)

    def _read_register_map(self) -> dict[str, int]:
        """Register name -> number from the target description (and the files it includes)."""
        registers: dict[str, int] = {}
        pending = ["target.xml"]
        seen: set[str] = set()
        next_regno = 0
        while pending and len(seen) < 16:
            annex = pending.pop(0)
            if annex in seen:
                continue
            seen.add(annex)
            try:
                text = self.read_xfer("features", annex).decode("utf-8", errors="replace")
            except RspError:
                continue
            # In document order: includes are expanded where they appear, so keep a simple order.
            for match in re.finditer(r'<xi:include\s+href="([^"]+)"|<reg\s([^>]*)>', text):
                if match.group(1):
                    pending.append(match.group(1))
                    continue
                attrs = dict(re.findall(r'(\w+)="([^"]*)"', match.group(2)))
                if "regnum" in attrs:
                    next_regno = int(attrs["regnum"])
                if "name" in attrs:
                    registers[attrs["name"].lower()] = next_regno
                next_regno += 1
        return registers

    # ------------------------------------------------------------- commands
    @staticmethod
    def _check_ok(reply: bytes, what: str) -> None:
        if reply != b"OK":
            raise RspError(f"{what} failed: server replied {reply[:40]!r}")

    def halt_reason(self) -> StopReply:
        reply = parse_stop_reply(self.request("?"))
        self.pending_stops.clear()  # the answer to "?" is the current state
        return reply

    def read_register(self, regno: int) -> int:
        reply = self.request(f"p{regno:x}")
        if reply.startswith(b"E") or not reply or not _is_hex(reply):
            raise RspError(f"reading register {regno} failed: server replied {reply[:40]!r}")
        return int.from_bytes(bytes.fromhex(reply.decode()), "little")

    def write_register(self, regno: int, value: int, size: int = 4) -> None:
        data = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little").hex()
        self._check_ok(self.request(f"P{regno:x}={data}"), f"writing register {regno}")

    def read_registers(self) -> bytes:
        """The raw ``g`` block (target byte order)."""
        reply = self.request("g")
        if reply.startswith(b"E") or not _is_hex(reply):
            raise RspError(f"reading registers failed: server replied {reply[:40]!r}")
        return bytes.fromhex(reply.decode())

    def read_memory(self, address: int, length: int) -> bytes:
        out = bytearray()
        chunk = max(16, (self.packet_size - 8) // 2)
        while len(out) < length:
            n = min(chunk, length - len(out))
            reply = self.request(f"m{address + len(out):x},{n:x}")
            if reply.startswith(b"E") or not reply or not _is_hex(reply):
                raise RspError(f"reading {n} bytes at 0x{address + len(out):08x} failed: server replied {reply[:40]!r}")
            out += bytes.fromhex(reply.decode())
        return bytes(out)

    def write_memory(self, address: int, data: bytes) -> None:
        chunk = max(16, (self.packet_size - 32) // 2)
        for offset in range(0, len(data), chunk):
            part = data[offset : offset + chunk]
            reply = self.request(f"M{address + offset:x},{len(part):x}:{part.hex()}")
            self._check_ok(reply, f"writing {len(part)} bytes at 0x{address + offset:08x}")

    def insert_breakpoint(self, address: int, kind: int = 2) -> None:
        """Software breakpoint (``Z0``); kind 2 = 16-bit Thumb instruction."""
        self._check_ok(self.request(f"Z0,{address:x},{kind:x}"), f"setting a breakpoint at 0x{address:08x}")

    def remove_breakpoint(self, address: int, kind: int = 2) -> None:
        self._check_ok(self.request(f"z0,{address:x},{kind:x}"), f"removing the breakpoint at 0x{address:08x}")

    def cont(self) -> None:
        """Resumes the target; the stop reply comes later through ``wait_stop``."""
        self.pending_stops.clear()  # stops from before this resume are history
        self.send("c")

    def step(self, timeout_s: float | None = None) -> StopReply:
        self.pending_stops.clear()
        self.send("s")
        stop = self.wait_stop(self.timeout_s if timeout_s is None else timeout_s)
        if stop is None:
            raise RspError("single step did not finish in time")
        return stop

    def interrupt(self) -> None:
        """Asks a running target to stop (raw 0x03 byte, no framing); the stop reply follows."""
        self._send_raw(b"\x03")

    def wait_stop(self, timeout_s: float) -> StopReply | None:
        """The next stop reply, or None if the target is still running at the deadline."""
        if self.pending_stops:
            return self.pending_stops.pop(0)
        deadline = time.monotonic() + max(0.0, timeout_s)
        while True:
            body = self._read_packet(deadline)
            if body is None:
                return None
            if body.startswith(b"O") and body != b"OK" and _is_hex(body[1:]):
                self._console(body[1:])
                continue
            if body[:1] in (b"S", b"T", b"W", b"X"):
                return parse_stop_reply(body)
            # anything else while running is unexpected but harmless: ignore

    def monitor(self, command: str, timeout_s: float | None = None) -> str:
        """``monitor <command>`` (qRcmd); returns the console text the server printed."""
        text = bytearray()
        previous = self.on_console
        self.on_console = text.extend
        try:
            reply = self.request("qRcmd," + command.encode().hex(), timeout_s)
        finally:
            self.on_console = previous
        if reply.startswith(b"E") or (reply != b"OK" and reply and not _is_hex(reply)):
            raise RspError(f"monitor {command!r} failed: server replied {reply[:40]!r}")
        if reply not in (b"OK", b""):
            text += bytes.fromhex(reply.decode())
        if reply == b"":
            raise RspError(f"the GDB server does not support 'monitor {command}'")
        return text.decode("utf-8", errors="replace")

    def flash_erase(self, address: int, length: int, timeout_s: float = 60.0) -> None:
        self._check_ok(self.request(f"vFlashErase:{address:x},{length:x}", timeout_s), "vFlashErase")

    def flash_write(self, address: int, data: bytes, timeout_s: float = 30.0) -> None:
        chunk = max(64, self.packet_size - 64) // 2  # escaping may double the size
        for offset in range(0, len(data), chunk):
            part = data[offset : offset + chunk]
            body = f"vFlashWrite:{address + offset:x}:".encode() + escape_binary(part)
            self._check_ok(self.request(body, timeout_s), f"vFlashWrite at 0x{address + offset:08x}")

    def flash_done(self, timeout_s: float = 60.0) -> None:
        self._check_ok(self.request("vFlashDone", timeout_s), "vFlashDone")


def _is_hex(data: bytes) -> bool:
    return bool(data) and all(c in b"0123456789abcdefABCDEF" for c in data)
