"""Shared runner pieces: which transports are captured, and the end rule the run loop follows."""

from __future__ import annotations

import dataclasses

import pytest

from harness.formats.micro_test import sign_log
from harness.formats.reader import LogReader
from harness.runners.base import captured_transports
from harness.testing.mini_fw import mini_board

MT_PASS = sign_log("~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n")


@pytest.mark.parametrize(
    ("transports", "captured"),
    [
        (None, ("semihosting", "uart")),
        (["uart"], ("semihosting", "uart")),  # a foreign firmware may print over semihosting: never dropped
        (["semihosting"], ("semihosting", "uart")),
        (["semihosting", "uart"], ("semihosting",)),  # mirrored: capture once
        (["semihosting-if-debugger", "uart"], ("semihosting", "uart")),  # exclusive: both
        (["semihosting-if-debugger"], ("semihosting", "uart")),
        (["rtt"], ("semihosting", "uart")),
        (["uart", "rtt"], ("semihosting", "uart")),
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
        (b"Testing A\n1/1 tests passed\n~~~ALL TESTS PASSED~~~\n", True, False),
        (b"Testing A\n\x00\xff0/1 tests passed\r\n~~~SOME TESTS FAILED~~~\r\n", True, False),
        (b"Testing A\n~~~ALL TESTS PASSED~~~\n", False, False),  # a sentinel inside a case is text
        (b"Testing A\nx 1/1 tests passed\n~~~ALL TESTS PASSED~~~ soon\n", False, False),
        (b"[ RUN      ] S.T\n[  FAILED  ] S.T (0 ms)\n", False, False),
        (b"[ RUN      ] S.T\n[       OK ] S.T (0 ms)\n[==========] 1 test from 1 test suite ran. (0 ms total)\n",
         True, False),
        (b"[  PASSED  ] 3 tests.\n", False, False),  # a summary without its run
        (b"~~~MODEL RUNNER DONE~~~\n", True, False),
        (b"model_runner: error: arena too small\n", True, False),
        (b"*** HardFault: PC=0x08000000\n", False, True),
        # micro_test's signed records: a whole run; DONE not yet a whole line; DONE inside the open case; lookalikes
        # of the end that a case printed
        (MT_PASS, True, False),
        (MT_PASS[:-3], False, False),
        (sign_log("~~~MT BEGIN A\n~~~MT DONE PASSED\n"), False, False),
        (sign_log("~~~MT BEGIN A\n") + b"~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n",
         False, False),
    ],
)
def test_end_rule(data: bytes, ended: bool, crash: bool) -> None:
    """The end rule the run loop follows, fed one byte at a time."""
    lines: list[str] = []
    reader = LogReader(on_line=lines.append)
    for byte in data:
        reader.feed(bytes([byte]))
    assert (reader.complete, reader.crash_seen) == (ended, crash)
    reader.flush()
    assert lines and "\n" not in "".join(lines)
