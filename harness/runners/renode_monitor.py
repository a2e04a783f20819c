"""The client side of Renode's monitor: a TCP port that speaks telnet, then a line-at-a-time shell.

The monitor protocol follows Renode's source (renode-infrastructure
src/Emulator/Main/Utilities/SocketServerProvider.cs, src/UI/CommandLineInterface.cs; the AntShell
terminal in renode's lib/AntShell): telnet negotiation first, output queued from start-up until a
client connects (so the banner and first prompt are not lost), input buffered and handled one
line at a time after the prompt, every typed character echoed, newlines written as ``\n\r``,
errors as plain lines (``--plain``: no colour). A reply is therefore matched to its command by the
command's echo. Checked against that source, against byte-exact recordings of real Renode 1.14.0 and
1.16.1 monitors (tests/renode_recordings, replayed by harness/testing/renode_recorded.py), and a fake
monitor built to the same rules (harness/testing/renode_fake.py); Renode itself cannot be installed here.

The start-up handshake works on every Renode from 1.14 on (recordings in tests/renode_recordings):
wait for the option bytes, then for the banner and prompt; answer the options only when no prompt
comes within ``BANNER_WAIT_S`` (1.14-1.15 wait for 9 bytes first), and never type before the prompt.
"""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Callable, Sequence

from harness.runners import renode_scripts as cmds

# Renode (.NET) start-up to the answer of its first command; generous for a loaded CI machine.
STARTUP_TIMEOUT_S = 60.0
# One monitor command; LoadPlatformDescription parses the whole platform and can take seconds.
COMMAND_TIMEOUT_S = 60.0
_POLL_S = 0.05

# The client's answer to Renode's telnet options: IAC WILL BINARY, IAC DO ECHO, IAC DO SUPPRESS-GO-AHEAD.
# Renode 1.14-1.15 print their banner only after reading 9 bytes from the client.
TELNET_REPLIES = bytes([0xFF, 0xFB, 0x00, 0xFF, 0xFD, 0x01, 0xFF, 0xFD, 0x03])
# How long the first prompt may take after the option bytes before the client answers them. 1.16 prints it
# 0.5-10 ms after them (recorded); 1.14 never does unanswered. Generous, because replies sent to a 1.16 that
# is merely slow could reach it in one chunk with the first command; it costs a 1.14 session 2 s, once.
BANNER_WAIT_S = 2.0
# The monitor port speaks telnet: drop option negotiation (IAC WILL/WONT/DO/DONT x),
# subnegotiation (IAC SB ... IAC SE) and the other two-byte IAC commands.
_IAC_RE = re.compile(rb"\xff(?:[\xfb-\xfe].|\xfa.*?\xff\xf0|[\xf0-\xf9\xff])", re.DOTALL)
# Colour and cursor-movement codes of Renode's terminal emulator (prompt colour, line redraws).
_ANSI_RE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z@`~]|[()][A-Za-z0-9]|[=>78])")
# The prompt: "(monitor) " or "(<current machine>) ".
_PROMPT_RE = re.compile(r"\(([^()\n]+)\) ?")
# How the monitor reports a command it could not carry out (it keeps running): the WriteError
# texts of renode-infrastructure src/Emulator/Extensions/UserInterface/Monitor.cs, MonitorCommands.cs
# and Commands/MachCommand.cs ("Machine {0} not found." has no other marker).
_ERROR_RE = re.compile(
    r"There was an error executing command|No such command or device|Bad parameters for command|"
    r"Could not tokenize|Could not find|No such variable|^Machine .* not found\.|^No machine selected|"
    r"^Wrong machine number|Cannot load ELF|^Error\b",
    re.IGNORECASE,
)


class RenodeSessionError(Exception):
    """The session is unusable (Renode exited, the monitor is silent or disconnected); restart it."""


class MonitorCommandError(Exception):
    """Renode answered a command with an error; Renode itself is fine."""


def monitor_lines(raw: bytes) -> list[str]:
    """The lines the monitor printed, without telnet negotiation, terminal codes and carriage returns.

    AntShell ends lines with ``\n\r`` (output) or ``\r\n`` (errors), and marks a wrap at the
    terminal's width with `` \r`` (only when the client reported a width; we do not).
    """
    text = _ANSI_RE.sub("", _IAC_RE.sub(b"", raw).decode("utf-8", errors="replace"))
    return [line.replace(" \r", "").replace("\r", "") for line in text.split("\n")]


def prompt_name(lines: Sequence[str]) -> str | None:
    """The prompt's name ("monitor" or the machine) when the output ends with a prompt, else None."""
    match = _PROMPT_RE.fullmatch(lines[-1]) if lines else None
    return match.group(1) if match else None


def echo_index(lines: Sequence[str], command: str) -> int | None:
    """Index of the first complete line that is the echo of ``command`` (after any prompts), or None.

    The monitor echoes what it reads only once it handles that line, after the prompt of
    everything before it; so the echo marks where this command's answer begins, whatever
    earlier output (a banner, extra prompts) came first.
    """
    wanted = command.strip()
    for index, line in enumerate(lines[:-1]):  # the last line is not complete yet
        text = line.strip()
        while (prompt := _PROMPT_RE.match(text)) is not None and text != wanted:
            text = text[prompt.end():].strip()
        if text == wanted:
            return index
    return None


def reply_lines(lines: Sequence[str], command: str) -> list[str] | None:
    """A command's answer, once complete: the lines after its echo up to the final prompt.

    None while the answer is incomplete (no echo yet, or no prompt after it).
    """
    echo = echo_index(lines, command)
    if echo is None or echo == len(lines) - 1 or prompt_name(lines) is None:
        return None
    return [line.strip() for line in lines[echo + 1:-1] if line.strip()]


def monitor_errors(lines: Sequence[str]) -> list[str]:
    return [line for line in lines if _ERROR_RE.search(line)]


class MonitorClient:
    """One TCP connection to Renode's monitor: sends a command line, reads up to the next prompt."""

    def __init__(self, sock: socket.socket, gone: Callable[[], str | None]) -> None:
        self._sock = sock
        self._gone = gone  # why Renode cannot answer any more (exited), or None
        self.prompt: str | None = None
        self.version = ""  # Renode's answer to `version`
        self.negotiated = False  # the handshake had to answer the telnet options (Renode 1.14-1.15)

    @classmethod
    def connect(cls, port: int, deadline: float, gone: Callable[[], str | None]) -> MonitorClient:
        while True:
            why = gone()
            if why is not None:
                raise RenodeSessionError(why)
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
                break
            except OSError as error:
                if time.monotonic() >= deadline:
                    raise RenodeSessionError(f"Renode's monitor port {port} did not open: {error}") from error
                time.sleep(0.2)
        client = cls(sock, gone)
        try:
            client._handshake(deadline)
            client._send(cmds.VERSION)
            client.version = " ".join(client._read_reply(cmds.VERSION, deadline))
        except BaseException:
            client.close()
            raise
        return client

    def _handshake(self, deadline: float) -> None:
        """Waits for the monitor's first prompt, answering the telnet negotiation only where Renode waits for it.

        Every Renode sends its 12 option bytes first (IAC DO BINARY, WILL ECHO, WILL SGA, WONT LINEMODE).
        1.14.0-1.15.x then read and discard the first 9 bytes the client sends before they print the banner
        and prompt (renode-infrastructure SocketServerProvider.cs, until commit 933d56403); 1.16 prints them
        0.5-10 ms later without waiting, and drops a command sent before its first byte. So: never type
        before the option bytes; wait ``BANNER_WAIT_S`` for the prompt; without one, send the 9 reply bytes
        (a 1.16 ignores them) and wait for it. Recorded: tests/renode_recordings/ (1.14.0 and 1.16.1).
        """
        raw = b""
        replied = False
        options_at: float | None = None
        while True:
            now = time.monotonic()
            if raw and options_at is None:
                options_at = now
            if prompt_name(monitor_lines(raw)) is not None:
                self.negotiated = replied
                return
            if options_at is not None and not replied and now >= options_at + BANNER_WAIT_S:
                self._send_raw(TELNET_REPLIES)
                replied = True
            why = self._gone()
            if why is not None:
                raise RenodeSessionError(why)
            if now >= deadline:
                said = " | ".join(line.strip() for line in monitor_lines(raw) if line.strip())[-300:] or "nothing"
                what = "no bytes at all" if not raw else f"its telnet options but no prompt (it printed: {said})"
                raise RenodeSessionError(f"Renode's monitor sent {what}"
                                         f"{' after the telnet replies' if replied else ''}")
            data = self._recv(min(_POLL_S, max(0.001, deadline - now)))
            if data:
                raw += data

    def _send_raw(self, data: bytes) -> None:
        self._sock.settimeout(10.0)
        try:
            self._sock.sendall(data)
        except OSError as error:
            raise RenodeSessionError(f"lost the monitor connection: {self._why(error)}") from error

    def command(self, command: str, timeout_s: float = COMMAND_TIMEOUT_S) -> list[str]:
        """Runs ``command``; its output lines (echo and prompt removed)."""
        self._send(command)
        return self._read_reply(command, time.monotonic() + timeout_s)

    def send_only(self, command: str) -> None:
        """Sends without waiting for a prompt (``quit`` closes the connection instead of answering)."""
        self._send(command)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()

    def _send(self, command: str) -> None:
        if "\n" in command or "\r" in command:
            raise ValueError(f"one monitor command per line: {command!r}")
        self._sock.settimeout(10.0)
        try:
            self._sock.sendall(command.encode() + b"\n")  # the monitor takes \r or \n as Enter: send one
        except OSError as error:
            raise RenodeSessionError(f"lost the monitor connection sending `{command}`: {self._why(error)}") from error

    def _recv(self, wait_s: float) -> bytes | None:
        """Bytes received within ``wait_s`` (None: nothing yet); raises when the connection ended."""
        self._sock.settimeout(max(0.001, wait_s))
        try:
            data = self._sock.recv(65536)
        except TimeoutError:
            return None
        except OSError as error:
            raise RenodeSessionError(f"lost the monitor connection: {self._why(error)}") from error
        if not data:
            raise RenodeSessionError(f"Renode closed the monitor connection: {self._why(None)}")
        return data

    def _read_reply(self, command: str, deadline: float) -> list[str]:
        """Reads until the echo of ``command`` and a prompt after it; the lines in between.

        Anything before the echo (the start-up banner, prompts) is not part of the answer. After
        the final prompt the monitor sends nothing until it reads the next line, so no byte of a
        later answer is consumed here.
        """
        raw = b""
        while True:
            lines = monitor_lines(raw)
            reply = reply_lines(lines, command)
            if reply is not None:
                self.prompt = prompt_name(lines)
                return reply
            now = time.monotonic()
            why = self._gone()
            if why is not None:
                raise RenodeSessionError(why)
            if now >= deadline:
                said = " | ".join(line.strip() for line in lines if line.strip())[-300:] or "nothing"
                raise RenodeSessionError(f"Renode's monitor did not answer `{command}` (it printed: {said})")
            data = self._recv(min(_POLL_S * 4, deadline - now))
            if data:
                raw += data

    def _why(self, error: OSError | None) -> str:
        # A closed connection usually means Renode is exiting: give it a moment to say how.
        until = time.monotonic() + 1.0
        while (gone := self._gone()) is None and time.monotonic() < until:
            time.sleep(_POLL_S)
        return gone or (str(error) if error is not None else "connection closed")


