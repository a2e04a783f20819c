"""Shared runner pieces: which transports are captured, and the end-of-run detector."""

from __future__ import annotations

import dataclasses

import pytest

from harness.runners.base import EndDetector, captured_transports
from harness.runners.testfw import mini_board


@pytest.mark.parametrize(
    ("transports", "captured"),
    [
        (None, ("semihosting", "uart")),
        (["uart"], ("uart",)),
        (["semihosting"], ("semihosting",)),
        (["semihosting", "uart"], ("semihosting",)),  # mirrored: capture once
        (["semihosting-if-debugger", "uart"], ("semihosting", "uart")),  # exclusive: both
        (["semihosting-if-debugger"], ("semihosting",)),
        (["rtt"], ("semihosting", "uart")),
        (["uart", "rtt"], ("uart",)),
    ],
)
def test_captured_transports(transports: list[str] | None, captured: tuple[str, ...]) -> None:
    raw = dict(mini_board().raw)
    if transports is not None:
        raw["log"] = {"transports": transports}
    assert captured_transports(dataclasses.replace(mini_board(), raw=raw)) == captured


@pytest.mark.parametrize(
    ("data", "ended", "crash"),
    [
        (b"Testing A\n~~~ALL TESTS PASSED~~~\n", True, False),
        (b"\x00\xff~~~SOME TESTS FAILED~~~\r\n", True, False),
        (b"[  PASSED  ] 3 tests.\n", True, False),
        (b"[  FAILED  ] 1 test, listed below:\n", True, False),
        (b"[  FAILED  ] S.T (0 ms)\n", False, False),
        (b"~~~MODEL RUNNER DONE~~~\n", True, False),
        (b"model_runner: error: arena too small\n", True, False),
        (b"*** HardFault: PC=0x08000000\n", False, True),
        (b"~~~ALL TESTS PASS", False, False),  # incomplete line: not yet
        (b"Testing ~~~ALL TESTS PASSED~~~ soon\n", False, False),
    ],
)
def test_end_detector(data: bytes, ended: bool, crash: bool) -> None:
    lines: list[str] = []
    detector = EndDetector(lines.append)
    for byte in data:
        detector.feed(bytes([byte]))
    assert (detector.ended, detector.crash_seen) == (ended, crash)
    detector.flush()
    assert lines and "\n" not in "".join(lines)
