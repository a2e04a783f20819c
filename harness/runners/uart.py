"""The UART side of every hardware backend: opening a pyserial port, reset pulses, the start
handshake's pokes, and a reader thread that feeds the one log stream.

Start handshake (firmware linked with boards/cortex_m/handshake.cc and
handshake_at_start.cc: ``make HANDSHAKE=1``, or ``handshake = true`` on a
hardware-map device, which makes the harness build that variant; see docs/hardware.md):
the firmware waits up to 2 s for any byte on its UART, then prints ``~~~MICRO START~~~``
and runs the tests. The reader pokes one byte (``\\n``, or ``MTK<token>`` to hand over the
run token) every 100 ms until it sees the marker, so the first lines are not lost while a
USB serial port re-enumerates after reset. Firmware without the handshake simply starts
talking; the pokes are harmless.

Used by the serial, pyOCD and GDB-remote backends alike (``harness.runners.serial_runner``
is the backend whose *only* channel is the UART).
"""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
import time
from pathlib import Path
from typing import Any

from harness.core.run_token import RunToken
from harness.runners.control import active_control
from harness.runners.stream import LogSink

_INSTALL = "install it: pip install pyserial"

START_MARKER = "~~~MICRO START~~~"
# The start marker of firmware that took the run token from the pokes (boards/cortex_m/handshake.cc).
TOKEN_MARKER = START_MARKER + " token"
HANDSHAKE_BYTE = b"\n"
HANDSHAKE_INTERVAL_S = 0.1
# How long the runner pokes before giving up on the handshake (firmware waits 2 s).
HANDSHAKE_WINDOW_S = 3.0
RESET_PULSE_S = 0.1
# How long a network UART's server (QEMU's socket chardev, ser2net) gets to accept the connection before the
# device may talk (what it sends before the accept is dropped). Both accept within milliseconds of the TCP
# handshake; a debugger-driven run overlaps this with the flash load and reset.
NETWORK_SETTLE_S = 0.05
_READ_TIMEOUT_S = 0.01  # a read returns after this when fewer than its size arrived


class SerialPortError(Exception):
    """The port cannot be opened or read, with the fix in the message."""


def read_available(port: Any) -> bytes:
    """What the port delivers within its read timeout (``_READ_TIMEOUT_S``, short: a line is held back by at
    most that long). Not ``read(1)`` plus ``in_waiting``: pyserial's socket:// handler reports 0 or 1 there,
    not the bytes waiting, and a long log would trickle in two bytes at a time."""
    return bytes(port.read(4096))


def settle_port(port: Any) -> None:
    """Waits what is left of a network port's settle time (``open_port``)."""
    remaining = getattr(port, "harness_ready_at", 0.0) - time.monotonic()
    if remaining > 0:
        time.sleep(remaining)


def close_port(port: Any) -> None:
    """Closes ``port`` without waiting: pyserial's socket:// handler sleeps 0.3 s after closing "for quick
    reconnects", which every binary of a farm night would pay; that pause runs in the background instead
    (the connection itself is closed before this returns)."""
    sock = getattr(port, "_socket", None)
    if sock is None:  # a local serial port (or another handler): its close does not sleep
        with contextlib.suppress(Exception):
            port.close()
        return
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)

    def finish() -> None:
        with contextlib.suppress(Exception):
            port.close()  # closes the socket, then pyserial's pause

    threading.Thread(target=finish, daemon=True, name="serial-close").start()


def open_port(url: str, baudrate: int = 115200, settle: bool = True) -> Any:
    """Opens ``url`` with a short read timeout; raises SerialPortError with the fix.

    ``settle=False``: a network port is returned at once, and the caller calls ``settle(port)`` before the
    device can send (a core halted under a debugger: the flash load and reset overlap the wait)."""
    try:
        import serial
    except ImportError as error:  # pragma: no cover - pyserial is a dependency
        raise SerialPortError(f"pyserial is not installed; {_INSTALL}") from error
    try:
        # pyserial's rfc2217 handler refuses a write timeout (NotImplementedError) although this
        # module documents rfc2217:// URLs: give it none there.
        write_timeout = None if url.startswith("rfc2217://") else 1.0
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=_READ_TIMEOUT_S, write_timeout=write_timeout)
        # The TCP connection exists before the server (QEMU, ser2net) has accepted it, and what the device
        # sends until then is dropped: the server gets a moment before the device may talk.
        port.harness_ready_at = time.monotonic() + (NETWORK_SETTLE_S if "://" in url else 0.0)
        if settle:
            settle_port(port)
        return port
    except (serial.SerialException, ValueError, OSError, NotImplementedError) as error:
        hint = (
            "is the emulator/ser2net running and the port right?"
            if "://" in url
            else "is the cable plugged in, the name right (harness devices scan), and are you in the 'dialout' group?"
        )
        raise SerialPortError(f"cannot open serial port {url}: {error}; {hint}") from error


def pulse_reset(port: Any, line: str, url: str = "the serial port") -> None:
    """Resets the board through DTR or RTS (wired to NRST through a USB-serial adapter).

    Raises SerialPortError with the fix when the port has no such modem line (a pty, some
    CDC-ACM bridges): the ioctl fails with ENOTTY there.
    """
    if line not in ("dtr", "rts"):
        raise ValueError(f"unknown serial reset line {line!r}; use 'dtr' or 'rts'")
    try:
        setattr(port, line, True)
        time.sleep(RESET_PULSE_S)
        setattr(port, line, False)
    except Exception as error:  # OSError (ENOTTY, EIO), serial.SerialException
        no_lines = isinstance(error, OSError) and error.errno == errno.ENOTTY
        why = "this port has no modem lines" if no_lines else "the port did not take the modem line change"
        raise SerialPortError(
            f"cannot pulse {line.upper()} on {url} to reset the board ({error}); {why}: set reset = 'probe' or "
            f"'none' in the hardware map (or wire {line.upper()} to NRST through a USB-serial adapter that has it)"
        ) from error


def handshake_poke(token: RunToken | None) -> bytes:
    """What the host sends until the start marker: the run token as a line ``MTK<16 hex digits>`` (the
    firmware takes it: harness/core/run_token.py), or a bare newline without a token."""
    return b"MTK" + token.hex.encode() + b"\n" if token is not None else HANDSHAKE_BYTE


def firmware_has_handshake(elf: Path) -> bool:
    """False only when the ELF is readable and lacks the start marker: then nobody would read the pokes.

    (Unread bytes stay queued in the device's UART; QEMU then does not even notice the next connection.)
    """
    try:
        from harness.runners.gdbremote.elf import FirmwareError, load_firmware

        return load_firmware(elf).contains(START_MARKER.encode())
    except (FirmwareError, ImportError):
        return True  # cannot tell (no ELF at hand): poking is harmless on real UARTs


class SerialReader:
    """Background reader: everything from the port goes into a LogSink until stopped.

    Used by the probe backends to merge a board's UART with semihosting/RTT.
    With ``handshake`` it also pokes the start handshake until the marker shows up.
    """

    def __init__(self, port: Any, sink: LogSink, handshake: bool = False) -> None:
        self.port = port
        self.sink = sink
        self.handshake = handshake
        control = active_control()
        self.poke = handshake_poke(control.token if control is not None else None)
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="serial-reader", daemon=True)

    def start(self) -> SerialReader:
        self._thread.start()
        return self

    def _loop(self) -> None:
        poke_until = time.monotonic() + HANDSHAKE_WINDOW_S if self.handshake else 0.0
        next_poke = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            try:
                if poke_until and now < poke_until and now >= next_poke:
                    self.port.write(self.poke)
                    next_poke = now + HANDSHAKE_INTERVAL_S
                data = read_available(self.port)
            except Exception as error:  # serial.SerialException, OSError: report, do not crash the run
                self.error = f"serial port failed: {error}"
                return
            if data:
                self.sink.feed(data)
                # The firmware answered (or talks without a handshake): no more pokes; they would
                # only pile up unread in its UART.
                poke_until = 0.0

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1.0)

    def drain(self, deadline: float, quiet_s: float = 0.03, wait_end_s: float = 1.0) -> None:
        """After the core exited: waits for the UART bytes still in flight (bounded by ``deadline``).

        Until the end marker shows up it waits up to ``wait_end_s`` (a loaded machine delays the
        emulator's or adapter's output), and while bytes keep coming (a long log behind the exit, up to
        ``5 * wait_end_s``); after it, only until the line goes quiet for ``quiet_s``: the
        core has stopped, and the bytes of one stream arrive in order, so nothing it printed before its
        end record is still to come once that record is here.
        """
        start = time.monotonic()
        last_size, last_change = len(self.sink.data), start
        while self._thread.is_alive():
            now = time.monotonic()
            size = len(self.sink.data)
            if size != last_size:
                last_size, last_change = size, now
            reader = self.sink.stream.reader  # the run loop is over: this thread may look
            self.sink.stream.late()
            ended = reader.complete or reader.crash_seen
            if now >= deadline or now - start >= 5 * wait_end_s:  # a line that never goes quiet: bounded
                return
            if now - last_change >= quiet_s and (ended or now - start >= wait_end_s):
                return
            time.sleep(0.01)
