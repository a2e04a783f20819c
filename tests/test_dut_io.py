"""The Dut object against real firmware: write, expect, expect_exact, not_matching, per-call timeouts, stop.

The echo firmware (tests/fixtures/micro/echo_fixture.cc) reads what the test sends with
``DebugRead`` and answers each line with its byte count and byte sum, so a lost, doubled or
changed byte shows. It runs natively (stdin) and on emulated bluepill (QEMU, the log UART's
receiver); nothing is mocked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_helpers import FIXTURES, mcu_unavailable

from harness.board.boards import Board, load_board
from harness.core import procs
from harness.pytest.dut import Dut, DutError
from harness.runners import get_runner

BOARDS = ["host", "bluepill"]


@pytest.fixture(scope="module", params=BOARDS)
def echo(request: pytest.FixtureRequest) -> tuple[Board, Path]:
    """(board, echo firmware built for it through the Makefile's ``program`` goal)."""
    if request.param != "host" and mcu_unavailable() is not None:
        pytest.skip(str(mcu_unavailable()))
    from harness.build.driver import build_program

    board = load_board(request.param)
    built = build_program(board, FIXTURES / "echo_fixture.cc", "harness_fx_echo", progress=None)
    assert built.error is None and built.elf is not None, built.error
    return board, built.elf


def _dut(board: Board, tmp_path: Path, name: str = "dut") -> Dut:
    backend = "host" if board.is_host else "qemu"
    return Dut(board, backend, 60.0, runner=get_runner(backend), name=name, log_path=tmp_path / f"{name}.log")


@pytest.fixture
def dut(echo: tuple[Board, Path], tmp_path: Path) -> Iterator[Dut]:
    board, elf = echo
    device = _dut(board, tmp_path)
    device.start(elf)
    device.expect_exact("echo ready", timeout=20)
    yield device
    device.close()


def test_write_a_line_and_expect_the_echo(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)  # a prompt without a newline: matched as it arrives
    dut.write("hello\n")
    match = dut.expect(r"echo: (\w+) \[(\d+) bytes, sum (\d+)\]", timeout=10)
    assert match.groups() == ("hello", "5", str(sum(b"hello")))
    dut.write(b"quit\n")
    dut.expect_exact("echo: bye", timeout=10)
    result = dut.wait(timeout=20)
    assert result.exit_code == 0 and result.end_reason == "exit"


def test_every_byte_arrives_unchanged(dut: Dut) -> None:
    """Control bytes (Ctrl-A is QEMU's mux escape: doubled on the way) and a line longer than any buffer."""
    dut.expect_exact("echo> ", timeout=10)
    tricky = b"a\x01b\x02\x7fc"
    dut.write(tricky + b"\r\n")  # the firmware drops the \r
    dut.expect_exact(f"echo: a?b??c [{len(tricky)} bytes, sum {sum(tricky)}]", timeout=10)
    long_line = bytes(range(0x21, 0x7f)) * 3  # 282 bytes; the emulated UART holds one at a time
    dut.write(long_line[:100])
    dut.write(long_line[100:] + b"\n")
    dut.expect_exact(f"[{len(long_line)} bytes, sum {sum(long_line)}]", timeout=20)


def test_not_matching_fails_as_soon_as_it_appears(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    dut.write("ERROR 42\n")
    start = time.monotonic()
    with pytest.raises(DutError, match=r"\(not_matching\) appeared while waiting for 'never printed': .*ERROR 4"):
        dut.expect("never printed", timeout=30, not_matching=[r"ERROR \d+"])
    assert time.monotonic() - start < 5  # not at the 30 s timeout


def test_not_matching_before_the_match_in_the_same_output(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    dut.write("bad\nok\n")
    dut.expect_exact("echo: ok", timeout=10)  # both lines are there now
    dut.write("bad\nok\n")
    with pytest.raises(DutError, match="not_matching"):
        dut.expect_exact("echo: ok", timeout=10, not_matching="echo: bad")
    dut.expect_exact("echo: ok", timeout=10)  # a failed expect consumed nothing
    # What comes after the match is not checked: "bad" follows "first" here.
    dut.write("first\nbad\n")
    assert dut.expect_exact("echo: first", timeout=10, not_matching=["echo: bad"]) is not None


def test_each_call_has_its_own_timeout(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    start = time.monotonic()
    with pytest.raises(DutError, match=r"'never printed' not seen within 0.5 s"):
        dut.expect("never printed", timeout=0.5)
    assert 0.5 <= time.monotonic() - start < 3
    assert dut.running  # the device is untouched by an expect giving up
    dut.write("still here\n")
    assert dut.expect(r"echo: still here", timeout=10)


def test_expect_exact_is_literal(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    dut.write("a.c(d)\n")
    assert dut.expect_exact("echo: a.c(d)", timeout=10).group(0) == "echo: a.c(d)"
    dut.write("abcd\n")
    with pytest.raises(DutError):
        dut.expect_exact("a.c", timeout=1)  # "abc" is not "a.c"


def test_pattern_lists_expect_all_and_the_text_before(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    dut.write("one\ntwo\n")
    first = dut.expect([r"echo: two", r"echo: one"], timeout=10)
    assert first.group(0) == "echo: one"  # the earliest match of any pattern
    dut.write("three\nfour\n")
    both = dut.expect([r"echo: four", r"echo: three"], timeout=10, expect_all=True)
    assert [m.group(0) for m in both] == ["echo: four", "echo: three"]  # in the order asked
    dut.write("five\n")
    before = dut.expect_exact("echo: five", timeout=10, return_what_before_match=True)
    assert "echo> " in before and "echo: five" not in before


def test_stop_kills_the_device_and_never_passes(dut: Dut) -> None:
    live_before = set(procs.live_pids())
    assert live_before
    start = time.monotonic()
    result = dut.stop()
    assert time.monotonic() - start < 5
    assert result is not None and result.end_reason == "stopped" and not result.timed_out
    assert "[harness] stopped by the test (dut.stop())" in dut.log
    assert not dut.running and not set(procs.live_pids()) & live_before  # reaped
    assert dut.report().outcome != "passed"
    with pytest.raises(DutError, match="can no longer take input"):
        dut.write("late\n")


def test_the_log_file_grows_while_the_device_runs(dut: Dut) -> None:
    dut.expect_exact("echo> ", timeout=10)
    dut.write("logged\n")
    dut.expect_exact("echo: logged", timeout=10)
    assert dut.running
    assert dut.log_path is not None
    text = dut.log_path.read_text()
    assert "echo ready" in text and "echo: logged" in text


def test_two_duts_run_at_once_each_with_its_own_input(echo: tuple[Board, Path], tmp_path: Path) -> None:
    board, elf = echo
    left, right = _dut(board, tmp_path, "dut-0"), _dut(board, tmp_path, "dut-1")
    try:
        left.start(elf)
        right.start(elf)
        for device in (left, right):
            device.expect_exact("echo> ", timeout=20)
        assert left.running and right.running
        left.write("left\n")
        right.write("right\n")
        assert left.expect(r"echo: (\w+) \[", timeout=10).group(1) == "left"
        assert right.expect(r"echo: (\w+) \[", timeout=10).group(1) == "right"
        with pytest.raises(DutError):
            left.expect_exact("echo: right", timeout=0.5)
    finally:
        left.close()
        right.close()
    assert "echo: left" in (tmp_path / "dut-0.log").read_text()
    assert "echo: right" in (tmp_path / "dut-1.log").read_text()
    assert not left.running and not right.running


def test_write_after_the_run_ended(host_programs: dict[str, Path], tmp_path: Path) -> None:
    device = _dut(load_board("host"), tmp_path)
    device.run(host_programs["pass"])
    with pytest.raises(DutError, match="can no longer take input: the device's run ended"):
        device.write("too late\n")


def test_write_before_start_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DutError, match="nothing is running"):
        _dut(load_board("host"), tmp_path).write("x")


class _NoInputRunner:
    name = "renode"

    def unavailable_reason(self, board: Board) -> None:
        return None

    def run(self, *args: object, **kwargs: object) -> None:  # pragma: no cover - never started
        raise AssertionError("not started")


def test_write_on_a_backend_without_input_names_it_and_what_works(tmp_path: Path) -> None:
    device = Dut(load_board("bluepill"), "renode", 10.0, runner=_NoInputRunner())  # type: ignore[arg-type]
    with pytest.raises(DutError) as error:
        device.write("x\n")
    text = str(error.value)
    assert "the renode backend cannot send input to bluepill" in text
    assert "no input channel" in text and "host board" in text and "QEMU" in text


def test_write_on_a_board_without_a_uart_log_says_why(tmp_path: Path) -> None:
    device = Dut(load_board("mps2_an505"), "qemu", 10.0, runner=get_runner("qemu"))
    with pytest.raises(DutError, match=r"the qemu backend cannot send input to mps2_an505: .*(not a UART|not found)"):
        device.write("x\n")


def test_a_run_that_cannot_start_names_the_cause(tmp_path: Path) -> None:
    """Not only "device run ended (infra-error)": the reason the run failed, as `harness run` gives it."""
    script = tmp_path / "not_a_program"
    script.write_text("this is text, not a program for this machine\n")
    script.chmod(0o755)
    device = _dut(load_board("host"), tmp_path)
    device.start(script)
    with pytest.raises(DutError) as expected:
        device.expect("never printed", timeout=20)
    text = str(expected.value)
    assert "the device run ended (infra-error: cannot start" in text and "Exec format error" in text, text
    assert "(no output)" in text
    with pytest.raises(DutError) as written:
        device.write("x\n")
    text = str(written.value)
    assert "can no longer take input" in text and "infra-error: cannot start" in text, text
    assert "Exec format error" in text
    report = device.wait()
    assert report.outcome == "infra-error" and report.infra_error is not None
