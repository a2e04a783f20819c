#!/usr/bin/env python3
"""A stand-in ``renode`` for the session tests (harness/runners/renode_session_test.py).

Renode is not installable here; this fake speaks only the monitor's line protocol as Renode
documents it: ``--port N`` serves a telnet-style monitor (negotiation bytes, coloured
``(monitor) ``/``(<machine>) `` prompts, echo of each command line), a handful of commands
answer the way Renode's do, and ``CreateFileBackend`` files receive the "firmware" output.
It proves nothing about Renode itself, only that the harness's side of the protocol holds.

The "firmware" is the text after the first line of the loaded ELF file: each line is written to
the log UART's file; ``SLEEP s`` waits, ``HANG`` runs until paused, ``DIE`` ends the process.
$FAKE_RENODE lists behaviours (comma-separated): ``no-banner`` (no prompt until a line
arrives), ``bad-platform`` (LoadPlatformDescription fails), ``die-once`` (exits at the first
``start`` of the test: marker in $FAKE_RENODE_RECORD's folder), ``silent-load`` (never answers
LoadELF). Every command is appended to $FAKE_RENODE_RECORD as ``<pid> <command>``.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
from pathlib import Path

IAC_NEGOTIATION = b"\xff\xfd\x00\xff\xfb\x01\xff\xfb\x03\xff\xfc\x22"  # DO BINARY, WILL ECHO, ...
BEHAVIOUR = set(filter(None, os.environ.get("FAKE_RENODE", "").split(",")))
RECORD = Path(os.environ["FAKE_RENODE_RECORD"])


def token_path(token: str) -> Path:
    return Path(token.removeprefix("@").replace("\\ ", " "))


class Fake:
    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.prompt = "monitor"
        self.machines: set[str] = set()
        self.backends: dict[tuple[str, str], Path] = {}  # (machine, peripheral) -> file
        self.elf: Path | None = None
        self.stop = threading.Event()
        self.firmware: threading.Thread | None = None

    def send(self, text: str) -> None:
        self.conn.sendall(text.encode())

    def show_prompt(self) -> None:
        self.send(f"\x1b[33m({self.prompt}) \x1b[0m")

    def halt(self) -> None:
        self.stop.set()
        if self.firmware is not None:
            self.firmware.join()
        self.firmware = None

    def run_firmware(self, lines: list[str], out: Path) -> None:
        for line in lines:
            if self.stop.is_set():
                return
            if line.startswith("SLEEP "):
                time.sleep(float(line.split()[1]))
            elif line == "HANG":
                self.stop.wait()
            elif line == "DIE":
                os._exit(5)
            else:
                with out.open("a") as handle:
                    handle.write(line + "\n")

    def handle(self, cmd: str) -> str:
        words = cmd.split()
        if not words:
            return ""
        if cmd.startswith("mach create "):
            self.prompt = cmd.split('"')[1]
            self.machines.add(self.prompt)
            return ""
        if cmd.startswith("mach set "):
            name = cmd.split('"')[1]
            if name not in self.machines:
                return f"There was an error executing command '{cmd}'\nNo such machine: {name}"
            self.prompt = name
            return ""
        if cmd.startswith("machine LoadPlatformDescription "):
            if "bad-platform" in BEHAVIOUR:
                return f"There was an error executing command '{cmd}'\nCould not find file '{words[-1]}'"
            return ""
        if cmd.startswith("machine LoadPlatformDescriptionFromString ") or "VectorTableOffset" in cmd:
            return ""
        if len(words) == 4 and words[1] == "CreateFileBackend":
            self.backends[self.prompt, words[0]] = token_path(words[2])
            self.backends[self.prompt, words[0]].touch()
            return ""
        if cmd == "machine Reset":
            self.halt()
            return ""
        if words[:2] == ["sysbus", "LoadELF"]:
            if "silent-load" in BEHAVIOUR:
                time.sleep(3600)
            path = token_path(cmd.split(" ", 2)[2])
            if not path.is_file():
                return f"There was an error executing command '{cmd}'\nCould not find file '{path}'"
            self.elf = path
            return ""
        if cmd == "start":
            marker = RECORD.parent / "died-once"
            if "die-once" in BEHAVIOUR and not marker.exists():
                marker.touch()
                print("fake renode: dying at start", flush=True)
                os._exit(3)
            assert self.elf is not None
            lines = self.elf.read_text(errors="replace").split("\n", 1)[1].splitlines()
            out = next(path for (machine, name), path in self.backends.items()
                       if machine == self.prompt and not name.endswith("semihosting"))
            self.stop = threading.Event()
            self.firmware = threading.Thread(target=self.run_firmware, args=(lines, out), daemon=True)
            self.firmware.start()
            return "Starting emulation..."
        if cmd == "pause":
            self.halt()
            return "Pausing emulation..."
        return f"No such command or device: {words[0]}"


def main() -> None:
    port = int(sys.argv[sys.argv.index("--port") + 1])
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    with RECORD.open("a") as handle:
        handle.write(f"{os.getpid()} (started) {' '.join(sys.argv[1:])}\n")
    conn, _ = server.accept()
    fake = Fake(conn)
    conn.sendall(IAC_NEGOTIATION)
    if "no-banner" not in BEHAVIOUR:
        fake.send("Renode, version 0.0 (fake)\r\n")
        fake.show_prompt()
    pending = b""
    while True:
        data = conn.recv(4096)
        if not data:
            return
        pending += data
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            cmd = raw.decode().strip()
            with RECORD.open("a") as handle:
                handle.write(f"{os.getpid()} {cmd}\n")
            fake.send(cmd + "\r\n")  # the terminal echoes what was typed
            if cmd == "quit":
                conn.close()
                return
            reply = fake.handle(cmd)
            if reply:
                fake.send(re.sub(r"\n", "\r\n", reply) + "\r\n")
            fake.show_prompt()


if __name__ == "__main__":
    main()
