#!/usr/bin/env python3
"""A stand-in ``renode`` that answers with the bytes a real Renode sent (test support).

Where ``harness/testing/renode_fake.py`` follows rules, this one *replays*: every answer is taken from the
byte-exact recordings of real Renode 1.14.0 and 1.16.1 in ``tests/renode_recordings/<version>/`` (how each was
made: that folder's README), chunk by chunk, with the recorded delays between the chunks. It is started as
``$RENODE`` (``renode --disable-xwt --plain --port N``, as the harness starts Renode) so the harness's real
session code (``harness.runners.renode``) runs against it end to end.

* Start-up: the recorded 12 option bytes; then, as recording ``1a_connect_wait_10s`` shows for the version,
  either the banner at once (1.16: the bytes a client typed before the options are lost, recording 1c; an
  IAC chunk later produces nothing, 1b) or nothing until the client sent 9 bytes, which are discarded
  whatever they are (1.14, recordings 1b and 1c), then the banner after the recorded delay.
* A command line gets the answer Renode gave to the same command in one of the version's sessions (1b,
  1d, 1e, 2a-2d, 3_timing): the same text, else the same command with another path (``@/…``, not a bundled
  ``@platforms/…``) or other numbers. The echo is the command as typed; the closing prompt names the
  current machine (``mach create/set``), as Renode's does. Where one command has several recorded answers,
  the first one that is no error is replayed.
* ``sysbus Tag`` answers as recorded whatever the tag's name (2d_pausing_tag).
* Not recorded, from Renode's source: ``mach rem "<name>"`` prints nothing and clears the current machine
  when it was that one (renode-infrastructure src/Emulator/Extensions/UserInterface/Commands/MachCommand.cs,
  commit 6a0ba28d = Renode 1.14.0 lines 91-103, commit add012af = 1.16.1 lines 97-108).
* Any other command was never seen answered by a real Renode: it is answered ``No such command or device``
  and listed in ``$RENODE_REPLAY_RECORD`` as ``unrecorded``, so a test can insist there is none.
* ``start``: the loaded "ELF" is a test stand-in (``harness/runners/renode_session_test.py``'s): a first line,
  then what the firmware prints, one line each, into the UART's file backend; a line ``RENODE_LOG <text>``
  goes to Renode's log (stdout) instead, ``RENODE_EXIT <address> <status>`` sets the board code's exit word
  (``g_micro_exit``) for ``sysbus ReadDoubleWord``, whose answer is formatted as Renode's monitor formats a
  ``UInt32`` result (``0x`` + 8 upper-case hex digits + ``\\r\\n``, written through the terminal as ``\\r\\r\\n``:
  MonitorCommands.cs PrintActionResult/GetNumberFormat, commit 6a0ba28d lines 276-296, add012af lines
  1136-1164; the signature ``UInt32 ReadDoubleWord (UInt64 address, ICPU context = null)`` is recorded in 1e).
* ``quit``: the recorded farewell, then the connection closes and the process exits 0 (1d).

``$RENODE_REPLAY`` is the version folder; ``$RENODE_REPLAY_RECORD`` gets one line per command:
``<how> <command>`` (``recorded``, ``source`` or ``unrecorded``), and ``<t> <seconds>`` lines with the
replayed delay of each answer (the time a real Renode took), so a test can tell the harness's own time.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

PROMPT = b"(monitor) "
TELNET_REPLY_BYTES = 9  # what 1.14 reads and discards before its banner (recordings 1b, 1c)
_PROMPT_RE = re.compile(rb"\(([^()\r\n]+)\) $")
_PATH_RE = re.compile(r"@(?!platforms/)(?:\\ |\S)+")
_NUMBER_RE = re.compile(r"\b(?:0x[0-9A-Fa-f]+|\d+)\b")
_ERRORS = (b"There was an error", b"No such command or device", b"not found.", b"Bad parameters")
_ESCAPE_RE = re.compile(r"\\(n|r|x[0-9A-Fa-f]{2})")
_TXT_LINE = re.compile(r"^\s*(?P<t>[0-9.]+) (?P<dir><<<|>>>|---) ?(?P<data>.*)$")
# Sessions whose answers are replayed; 1c is left out (there 1.14 took `version` for the telnet replies).
SESSIONS = ("1b_wait_then_telnet_replies_then_version", "1d_full_session", "1e_help_and_sysbus_members",
            "2a_hello_world_bluepill", "2b_nullcall_netduinoplus2", "2d_unmapped_minimal_bluepill",
            "2d_pausing_tag_minimal_bluepill",
            "3_timing_session")


@dataclass
class Event:
    direction: str  # "recv" (Renode sent), "send" (the client sent), "connect", "close", ...
    t: float
    data: bytes


def _unescape(text: str) -> bytes:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        return {"n": "\n", "r": "\r"}.get(code) or chr(int(code[1:], 16))

    return _ESCAPE_RE.sub(one, text).encode("latin-1")


def read_events(path: Path) -> list[Event]:
    """The events of one recording: ``*.events.json`` or the readable ``*.txt`` / ``*.monitor.txt``."""
    if path.name.endswith(".events.json"):
        return [Event(e["dir"], float(e["t"]), bytes.fromhex(e.get("hex", "")))
                for e in json.loads(path.read_text())["events"]]
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _TXT_LINE.match(line)
        if match is None:
            continue
        direction = {"<<<": "recv", ">>>": "send"}.get(match["dir"]) or match["data"].strip()
        data = _unescape(match["data"]) if match["dir"] != "---" else b""
        events.append(Event(direction, float(match["t"]), data))
    return events


def session_file(version_dir: Path, name: str) -> Path | None:
    for suffix in (".events.json", ".txt", ".monitor.txt"):
        path = version_dir / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


@dataclass
class Answer:
    command: str  # as recorded
    chunks: list[tuple[float, bytes]]  # (delay after the previous chunk, or after the command was sent; bytes)
    source: str

    @property
    def data(self) -> bytes:
        return b"".join(chunk for _, chunk in self.chunks)

    @property
    def is_error(self) -> bool:
        return any(marker in self.data for marker in _ERRORS)


@dataclass
class StartUp:
    options: bytes  # the telnet option bytes
    options_delay: float  # connect -> options
    banner: bytes  # up to and with the first prompt
    banner_delay: float  # options (1.16) or the 9th client byte (1.14) -> banner
    waits_for_replies: bool


def answers(events: list[Event], source: str) -> list[Answer]:
    """Each command line the client sent after the first prompt, with what Renode sent until the next one."""
    found: list[Answer] = []
    received = b""
    current: Answer | None = None
    last_t = 0.0
    for event in events:
        if event.direction == "recv":
            received += event.data
            if current is not None:
                current.chunks.append((max(0.0, event.t - last_t), event.data))
            last_t = event.t
        elif event.direction == "send":
            last_t = event.t
            if PROMPT not in received or event.data.startswith(b"\xff") or not event.data.endswith(b"\n"):
                current = None
                continue
            current = Answer(event.data[:-1].decode("utf-8", errors="replace"), [], source)
            found.append(current)
    return [answer for answer in found if answer.chunks]


def start_up(version_dir: Path) -> StartUp:
    """How this version comes up, from recording 1a (nothing sent: does the banner come?) and 1b."""
    quiet = read_events(session_file(version_dir, "1a_connect_wait_10s") or version_dir / "missing")
    events = read_events(session_file(version_dir, "1b_wait_then_telnet_replies_then_version") or version_dir)
    connect = next(e.t for e in events if e.direction == "connect")
    received = [e for e in events if e.direction == "recv"]
    options = received[0]
    waits = not any(PROMPT in e.data or b"Renode" in e.data for e in quiet if e.direction == "recv")
    banner = b""
    for event in received[1:]:
        banner += event.data
        if PROMPT in banner:
            break
    # 1.16: from the option bytes; 1.14: from the 9 reply bytes the client sent (1b)
    after = next(e.t for e in events if e.direction == "send") if waits else options.t
    return StartUp(options.data, max(0.0, options.t - connect), banner, max(0.0, received[1].t - after), waits)


def key(command: str) -> str:
    """A command with its paths (not the bundled ``@platforms/…``), numbers and tag names made general."""
    if command.startswith("sysbus Tag "):
        command = re.sub(r'"[^"]*"', '"<name>"', command)
    return _NUMBER_RE.sub("<n>", _PATH_RE.sub("@<path>", command))


@dataclass
class Replay:
    version_dir: Path
    table: dict[str, list[Answer]] = field(default_factory=dict)
    exact: dict[str, Answer] = field(default_factory=dict)

    @classmethod
    def load(cls, version_dir: Path) -> Replay:
        replay = cls(version_dir)
        for name in SESSIONS:
            path = session_file(version_dir, name)
            if path is None:
                continue
            for answer in answers(read_events(path), path.name):
                replay.table.setdefault(key(answer.command), []).append(answer)
                replay.exact.setdefault(answer.command, answer)
        return replay

    def answer(self, command: str) -> Answer | None:
        if command in self.exact:
            return self.exact[command]
        candidates = self.table.get(key(command), [])
        return next((a for a in candidates if not a.is_error), candidates[0] if candidates else None)


def retarget(answer: Answer, command: str, prompt: bytes) -> list[tuple[float, bytes]]:
    """The recorded answer with the echo of ``command`` as typed and ``prompt`` at its end, chunked as
    recorded (the recorded echo may name another path)."""
    data = answer.data
    end = data.find(b"\n\r")
    rest = data[end:] if end >= 0 else data
    rest = rest.replace(answer.command.encode(), command.encode())
    match = _PROMPT_RE.search(rest)
    if match is not None:
        rest = rest[:match.start()] + prompt
    payload = command.encode() + rest
    chunks: list[tuple[float, bytes]] = []
    position = 0
    for index, (delay, chunk) in enumerate(answer.chunks):
        size = len(payload) - position if index == len(answer.chunks) - 1 else len(chunk)
        chunks.append((delay, payload[position:position + size]))
        position += size
    return chunks


class Server:
    def __init__(self, conn: socket.socket, replay: Replay, record: Path | None) -> None:
        self.conn = conn
        self.replay = replay
        self.record_path = record
        self.machines: list[str] = []
        self.current: str | None = None
        self.backends: dict[str, Path] = {}
        self.elf: Path | None = None
        self.memory: dict[int, int] = {}
        self.speed = float(os.environ.get("RENODE_REPLAY_SPEED", "1") or 1)

    def record(self, line: str) -> None:
        if self.record_path is not None:
            with self.record_path.open("a") as handle:
                handle.write(line + "\n")

    def prompt(self) -> bytes:
        return f"({self.current or 'monitor'}) ".encode()

    def send_chunks(self, chunks: list[tuple[float, bytes]]) -> None:
        total = 0.0
        for delay, chunk in chunks:
            if delay > 0:
                time.sleep(delay / self.speed)
                total += delay
            self.conn.sendall(chunk)
        self.record(f"<t> {total:.4f}")

    def handle(self, command: str) -> bool:
        """Answers one line; False once the connection is to close."""
        words = command.split()
        mach = re.fullmatch(r'mach (create|set|rem) "([^"]+)"', command)
        if mach is not None and mach[1] == "rem":  # MachCommand.cs (see the module doc)
            self.record(f"source {command}")
            if mach[2] not in self.machines:
                self.conn.sendall(f'{command}\n\rMachine {mach[2]} not found.\r\n'.encode() + self.prompt())
                return True
            self.machines.remove(mach[2])
            if self.current == mach[2]:
                self.current = None
            self.conn.sendall(command.encode() + b"\n\r" + self.prompt())
            return True
        if words[:2] == ["sysbus", "ReadDoubleWord"] and len(words) == 3:  # MonitorCommands.cs (module doc)
            self.record(f"source {command}")
            value = self.memory.get(int(words[2], 0), 0)
            self.conn.sendall(f"{command}\n\r0x{value:08X}\r\r\n".encode() + self.prompt())
            return True
        answer = self.replay.answer(command)
        if answer is None:
            self.record(f"unrecorded {command}")
            name = words[0] if words else command
            self.conn.sendall(f"{command}\n\rNo such command or device: {name}\r\n".encode() + self.prompt())
            return True
        self.record(f"recorded {command}")
        if mach is not None and not answer.is_error:
            if mach[1] == "create":
                self.machines.append(mach[2])
            self.current = mach[2]
        if not answer.is_error:
            self.track(command, words)
        if command == "start":
            self.run_firmware()
        self.send_chunks(retarget(answer, command, self.prompt()))
        return command != "quit"

    def track(self, command: str, words: list[str]) -> None:
        if len(words) >= 3 and words[1] == "CreateFileBackend":
            self.backends[words[0]] = Path(words[2].removeprefix("@").replace("\\ ", " "))
        elif words[:2] == ["sysbus", "LoadELF"]:
            self.elf = Path(command.split(" ", 2)[2].removeprefix("@").replace("\\ ", " "))
            self.memory.clear()
        elif words[:2] == ["sysbus", "WriteDoubleWord"] and len(words) == 4:
            self.memory[int(words[2], 0)] = int(words[3], 0) & 0xFFFFFFFF

    def run_firmware(self) -> None:
        if self.elf is None or not self.elf.is_file():
            return
        uart = next((path for name, path in self.backends.items() if re.fullmatch(r"sysbus\.u\w*art\d", name)), None)
        lines = self.elf.read_bytes().split(b"\n", 1)[1].splitlines()
        for line in lines:
            if line.startswith(b"RENODE_LOG "):
                sys.stdout.write(line[len(b"RENODE_LOG "):].decode() + "\n")
                sys.stdout.flush()
            elif line.startswith(b"RENODE_EXIT "):
                address, status = (int(word, 0) for word in line.split()[1:3])
                self.memory[address + 4] = status & 0xFFFFFFFF
                self.memory[address] = 0x45584954  # boards/cortex_m/semihosting.c: EXIT_MAGIC, then the status
            elif uart is not None:
                with uart.open("ab") as handle:
                    handle.write(line + b"\n")


def typed_early(conn: socket.socket, after_s: float) -> bytes:
    """What a client typed in the moment before Renode's first byte (``after_s`` after connecting)."""
    time.sleep(after_s)
    conn.setblocking(False)
    try:
        return conn.recv(65536)
    except BlockingIOError:
        return b""
    finally:
        conn.setblocking(True)


def serve(conn: socket.socket, replay: Replay, record: Path | None) -> None:
    up = start_up(replay.version_dir)
    server = Server(conn, replay, record)
    early = typed_early(conn, up.options_delay)
    if early:
        server.record(f"typed-before-options {early!r}")
    conn.sendall(up.options)
    pending = b""
    if up.waits_for_replies:  # 1.14: the first 9 client bytes are the telnet replies, whatever they are
        pending = early
        while len(pending) < TELNET_REPLY_BYTES:
            data = conn.recv(TELNET_REPLY_BYTES - len(pending))
            if not data:
                return
            pending += data
        if pending[:TELNET_REPLY_BYTES] != bytes.fromhex("fffb00fffd01fffd03"):
            server.record(f"swallowed-as-telnet-replies {pending[:TELNET_REPLY_BYTES]!r}")
        pending = pending[TELNET_REPLY_BYTES:]
    time.sleep(up.banner_delay)
    conn.sendall(up.banner)
    line = pending
    while True:
        while b"\n" not in line and b"\r" not in line:
            data = conn.recv(4096)
            if not data:
                return
            if data.startswith(b"\xff"):
                continue  # an IAC chunk produces nothing (1.16, recording 1b)
            line += data
        command, line = re.split(rb"\r\n|\n|\r", line, maxsplit=1)
        if not server.handle(command.decode("utf-8", errors="replace")):
            return


def main() -> None:
    args = sys.argv[1:]
    if "--port" not in args or "--disable-xwt" not in args or "--plain" not in args:
        print(f"renode replay: needs --disable-xwt --plain --port N, got {args}", flush=True)
        sys.exit(2)
    replay = Replay.load(Path(os.environ["RENODE_REPLAY"]))
    record = Path(os.environ["RENODE_REPLAY_RECORD"]) if os.environ.get("RENODE_REPLAY_RECORD") else None
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(args[args.index("--port") + 1])))
    listener.listen(1)
    print("[INFO] Monitor available in telnet mode on port " + args[args.index("--port") + 1], flush=True)
    conn, _ = listener.accept()
    with conn:
        serve(conn, replay, record)


if __name__ == "__main__":
    main()
