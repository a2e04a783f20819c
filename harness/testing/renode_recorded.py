"""A Renode monitor that behaves as the recordings of real Renode 1.14.0 and 1.16.1 show (test support).

``RecordedMonitor(version_dir)`` reads ``1b_wait_then_telnet_replies_then_version.events.json`` of a
version (``tests/renode_recordings/<version>/``) and serves one client on a loopback port with the bytes
that real Renode sent, by the rules the recordings show:

* on connect, the 12 telnet option bytes (recorded);
* Renode 1.14 (a client send recorded before the banner): the first 9 bytes the client sends are read
  and discarded — whatever they are, also a command typed too early — and only then the banner and
  first prompt come;
* Renode 1.16 (banner recorded right after the options): bytes the client sent before the options are
  lost, the banner and prompt follow at once, and an input chunk starting with IAC (``0xFF``) is
  ignored (the recorded telnet replies sent later produced no output at all);
* then line by line: ``version`` gets the recorded answer, ``quit`` the recorded farewell (the
  connection closes), anything else ``No such command or device`` as Renode writes it.

``sent_before_options`` tells whether the client typed before Renode's first byte; ``received`` is
everything the client sent.
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

from harness.testing.renode_replay import typed_early

_SESSION = "1b_wait_then_telnet_replies_then_version.events.json"
_PROMPT = b"(monitor) "


class RecordedMonitor:
    def __init__(self, version_dir: Path) -> None:
        events = json.loads((version_dir / _SESSION).read_text())["events"]
        chunks: list[tuple[str, bytes]] = [(e["dir"], bytes.fromhex(e["hex"])) for e in events
                                           if e["dir"] in ("send", "recv")]
        server = b""
        self.waits_for_replies = False
        for direction, data in chunks:  # what came before the first prompt, and whether a send preceded it
            if direction == "send" and _PROMPT not in server:
                self.waits_for_replies = True
            if direction == "recv":
                server += data
                if _PROMPT in server:
                    break
        recv = b"".join(data for direction, data in chunks if direction == "recv")
        self.options = chunks[0][1] if chunks[0][0] == "recv" else b""
        first_prompt = recv.index(_PROMPT) + len(_PROMPT)
        self.banner = recv[len(self.options) : first_prompt]
        after = recv[first_prompt:]
        version_end = after.index(_PROMPT) + len(_PROMPT)
        self.version_reply, self.quit_reply = after[:version_end], after[version_end:]
        self.received = b""
        self.sent_before_options = False
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(1)
        self.port = int(self._server.getsockname()[1])
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        conn, _ = self._server.accept()
        with conn:
            early = typed_early(conn, 0.002)  # Renode's shell comes up a moment after the port accepts
            self.sent_before_options = bool(early)
            self.received += early
            conn.sendall(self.options)
            if self.waits_for_replies:
                pending = early
                while len(pending) < 9:  # 1.14: the first 9 client bytes are taken as telnet replies
                    data = conn.recv(9 - len(pending))
                    if not data:
                        return
                    self.received += data
                    pending += data
                line = pending[9:]
            else:
                line = b""  # 1.16: what came before the options is lost
            conn.sendall(self.banner)
            while True:
                while b"\n" not in line:
                    data = conn.recv(4096)
                    if not data:
                        return
                    self.received += data
                    if not self.waits_for_replies and data.startswith(b"\xff"):
                        continue  # 1.16: an IAC chunk produces nothing
                    line += data
                command, line = line.split(b"\n", 1)
                command = command.strip(b"\r")
                if command == b"version":
                    conn.sendall(self.version_reply)
                elif command == b"quit":
                    conn.sendall(self.quit_reply)
                    return
                else:
                    conn.sendall(command + b"\n\rNo such command or device: " + command + b"\r\n" + _PROMPT)

    def close(self) -> None:
        self._server.close()
