"""The monitor handshake against real Renode 1.14.0 and 1.16.1, replayed from their recordings.

Renode 1.14 prints its banner only after 9 bytes of telnet replies; 1.16 prints it at once and loses a
command typed before its first byte. The harness's client must reach the prompt and read ``version`` on
both without ever typing before Renode's option bytes (tests/renode_recordings/, served by
harness/testing/renode_recorded.py).
"""

from __future__ import annotations

import socket
import time

import pytest

from harness import REPO_ROOT
from harness.runners.renode_monitor import BANNER_WAIT_S, TELNET_REPLIES, MonitorClient, RenodeSessionError
from harness.runners.renode_scripts import uses_semihosting_handler
from harness.testing.renode_recorded import RecordedMonitor

RECORDINGS = REPO_ROOT / "tests" / "renode_recordings"
VERSIONS = {"1.14": "Renode, version 1.14.0.6419 (81da46c1-202611270333)",
            "1.16": "Renode, version 1.16.1 (d66b0c2a-202611270458)"}


def _alive() -> None:
    return None


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_the_client_reaches_the_prompt_and_reads_the_version(version: str) -> None:
    monitor = RecordedMonitor(RECORDINGS / version)
    try:
        started = time.monotonic()
        client = MonitorClient.connect(monitor.port, time.monotonic() + 10, _alive)
        took = time.monotonic() - started
        assert client.version == VERSIONS[version]
        client.send_only("quit")
        client.close()
    finally:
        monitor.close()
    assert not monitor.sent_before_options  # never typed before Renode's first byte
    if version == "1.14":
        assert client.negotiated and monitor.received.startswith(TELNET_REPLIES)
    else:
        assert not client.negotiated and TELNET_REPLIES not in monitor.received
        assert took < BANNER_WAIT_S  # 1.16's prompt comes at once: no wait for a reply it does not need


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_typing_version_at_once_as_before_gets_no_answer(version: str) -> None:
    """What the harness did before: `version` typed on connect. 1.14 swallows it as the telnet replies
    (and waits for one more byte), 1.16 loses it: neither answers, as recorded."""
    monitor = RecordedMonitor(RECORDINGS / version)
    try:
        with socket.create_connection(("127.0.0.1", monitor.port), timeout=5) as sock:
            sock.sendall(b"version\n")
            sock.settimeout(0.5)
            received = b""
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                try:
                    data = sock.recv(4096)
                except TimeoutError:
                    continue
                if not data:
                    break
                received += data
    finally:
        monitor.close()
    assert b"version\n\r" not in received  # no echo, no answer


def test_a_monitor_that_never_prompts_is_an_error_that_says_so() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        with pytest.raises(RenodeSessionError, match="telnet options but no prompt"):
            import threading

            def options_only() -> None:
                conn, _ = server.accept()
                conn.sendall(bytes([255, 253, 0, 255, 251, 1, 255, 251, 3, 255, 252, 34]))
                time.sleep(3)
                conn.close()

            threading.Thread(target=options_only, daemon=True).start()
            MonitorClient.connect(port, time.monotonic() + 1.5, _alive)
    finally:
        server.close()


def test_the_semihosting_syntax_is_decided_by_the_version_number() -> None:
    assert uses_semihosting_handler(VERSIONS["1.14"]) is False
    assert uses_semihosting_handler("Renode, version 1.15.3.0 (1b2c3d4e-202509011200)") is False
    # A 1.16.1 build is the release or master: its date is when it was compiled, so Renode is asked.
    assert uses_semihosting_handler(VERSIONS["1.16"]) is None
    assert uses_semihosting_handler("Renode, version 1.16.1 (9c4e1d0a-202602161200)") is None
    assert uses_semihosting_handler("Renode, version 1.17.0 (0a1b2c3d-202701011200)") is True
    assert uses_semihosting_handler("something else") is None
