"""RunControl: a stop before the stream exists, input queued until a writer is attached, input after the run,
the run token handed over in memory, and which control is active where."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from harness.core.run_token import TOKEN_MAGIC, TOKEN_SYMBOL, RunToken
from harness.formats.reader import LogReader
from harness.runners.control import InputClosed, RunControl, active_control, token_writes
from harness.runners.stream import DeviceStream
from harness.testing.mini_fw import FW_DIR, GCC, toolchain_missing


class FakeStream:
    """What a control needs of a stream: a reader, and ``stop`` (recorded)."""

    def __init__(self) -> None:
        self.reader = LogReader(None)
        self.stops: list[tuple[str, str | None, str | None]] = []

    def stop(self, reason: str, note: str | None = None, infra_error: str | None = None) -> None:
        self.stops.append((reason, note, infra_error))


# ----------------------------------------------------------------------------------------------- stop --
def test_stop_before_any_stream_stops_the_stream_as_soon_as_it_binds() -> None:
    control = RunControl()
    control.stop("the test has seen enough")
    assert not control.bound
    stream = FakeStream()
    control.bind(stream)
    assert control.bound and control.reader is stream.reader
    assert stream.stops == [("stopped", "the test has seen enough", None)]
    again = FakeStream()  # a retry binds again: it is stopped too
    control.bind(again)
    assert again.stops == [("stopped", "the test has seen enough", None)]


def test_stop_after_the_stream_bound_reaches_it_at_once() -> None:
    control = RunControl()
    stream = FakeStream()
    control.bind(stream)
    assert stream.stops == []
    control.stop()
    assert stream.stops == [("stopped", "stopped by the test", None)]


def test_a_real_stream_created_after_a_stop_ends_stopped_with_the_note_apart_from_the_log() -> None:
    control = RunControl()
    control.stop("enough")
    with control.active():
        stream = DeviceStream()
    assert stream.control is control and control.reader is stream.reader
    stream.put(b"hello\n")
    start = time.monotonic()
    end = stream.finish(stream.follow(start + 10))
    assert time.monotonic() - start < 2
    assert end.end_reason == "stopped"
    assert b"enough" not in end.log
    assert [note.text for note in end.notes] == ["enough"]


def test_a_stop_from_another_thread_ends_a_running_stream() -> None:
    control = RunControl()
    with control.active():
        stream = DeviceStream()
    timer = threading.Timer(0.2, control.stop)
    timer.start()
    start = time.monotonic()
    end = stream.finish(stream.follow(start + 10))
    timer.join()
    assert 0.15 < time.monotonic() - start < 3
    assert end.end_reason == "stopped" and [n.text for n in end.notes] == ["stopped by the test"]


def test_bind_forgets_the_case_timeout_of_the_stream_before() -> None:
    from harness.runners.control import CaseTimeout

    control = RunControl()
    control.case_timeout = CaseTimeout("Slow", 1.0, "board")
    control.bind(FakeStream())
    assert control.case_timeout is None


# ---------------------------------------------------------------------------------------------- input --
def test_input_sent_before_a_writer_is_delivered_in_order_when_attached() -> None:
    control = RunControl(wants_input=True)
    control.send(b"first")
    control.send(b"second")
    written: list[bytes] = []
    control.attach_input(written.append)
    assert written == [b"first", b"second"]
    control.send(b"third")  # from now on straight to the writer
    assert written == [b"first", b"second", b"third"]


def test_input_after_close_raises_with_the_first_reason_and_nothing_reaches_a_writer() -> None:
    control = RunControl(wants_input=True)
    control.send(b"never delivered")
    control.close_input("the board went away")
    control.close_input("the device's run ended")  # the first reason is kept
    with pytest.raises(InputClosed, match="^the board went away$"):
        control.send(b"late")
    written: list[bytes] = []
    control.attach_input(written.append)  # a backend attaching late gets nothing, and no writer is kept
    with pytest.raises(InputClosed):
        control.send(b"later")
    assert written == []


def test_leaving_the_active_block_closes_the_input() -> None:
    control = RunControl(wants_input=True)
    written: list[bytes] = []
    with control.active():
        control.attach_input(written.append)
        control.send(b"during")
    with pytest.raises(InputClosed, match="the device's run ended"):
        control.send(b"after")
    assert written == [b"during"]


# ------------------------------------------------------------------------------------ active_control --
def test_active_control_is_the_control_of_the_with_block_only() -> None:
    outer, inner = RunControl(), RunControl()
    assert active_control() is None
    with outer.active() as entered:
        assert entered is outer and active_control() is outer
        with inner.active():
            assert active_control() is inner
        assert active_control() is outer
        seen: list[RunControl | None] = []
        thread = threading.Thread(target=lambda: seen.append(active_control()))
        thread.start()
        thread.join()
        assert seen == [None]  # another thread's streams are not this run's
    assert active_control() is None


def test_active_control_is_restored_when_the_block_raises() -> None:
    control = RunControl()
    with pytest.raises(RuntimeError), control.active():
        raise RuntimeError("runner failed")
    assert active_control() is None


# -------------------------------------------------------------------------------------- token_writes --
@pytest.fixture(scope="module")
def token_elf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A tiny Cortex-M ELF with the firmware's token block, and the block's address (from nm)."""
    missing = toolchain_missing()
    if missing is not None:
        pytest.skip(missing)
    folder = tmp_path_factory.mktemp("token")
    (folder / "fw.c").write_text(f"volatile unsigned int {TOKEN_SYMBOL}[4];\n"
                                 f"void reset_handler(void) {{ for (;;) {{ {TOKEN_SYMBOL}[0]++; }} }}\n")
    elf = folder / "fw.elf"
    subprocess.run([GCC, "-mcpu=cortex-m3", "-mthumb", "-nostdlib", "-T", str(FW_DIR / "mini.ld"),
                    str(folder / "fw.c"), "-o", str(elf)], check=True, capture_output=True)
    nm = shutil.which("arm-none-eabi-nm")
    assert nm is not None
    symbols = subprocess.run([nm, str(elf)], check=True, capture_output=True, text=True).stdout.split("\n")
    address = next(int(line.split()[0], 16) for line in symbols if line.endswith(" " + TOKEN_SYMBOL))
    return elf, address


def test_token_writes_hand_the_token_to_the_elfs_token_block_and_mark_it_delivered(
        token_elf: tuple[Path, int]) -> None:
    elf, address = token_elf
    token = RunToken((0x11223344, 0x55667788))
    control = RunControl(token=token)
    with control.active():
        writes = token_writes(elf, "memory")
    check = ~(TOKEN_MAGIC ^ 0x11223344 ^ 0x55667788) & 0xFFFFFFFF
    assert writes == [(address, TOKEN_MAGIC), (address + 4, 0x11223344), (address + 8, 0x55667788),
                      (address + 12, check)]
    assert control.delivery == "memory"


def test_no_token_writes_without_a_control_a_token_or_a_token_block(token_elf: tuple[Path, int],
                                                                    tmp_path: Path) -> None:
    elf, _ = token_elf
    assert token_writes(elf, "memory") == []  # no control active
    without_token = RunControl()
    with without_token.active():
        assert token_writes(elf, "memory") == []
    assert without_token.delivery is None
    plain = tmp_path / "plain.elf"  # an ELF without the block
    (tmp_path / "plain.c").write_text("void reset_handler(void) { for (;;) {} }\n")
    subprocess.run([GCC, "-mcpu=cortex-m3", "-mthumb", "-nostdlib", "-T", str(FW_DIR / "mini.ld"),
                    str(tmp_path / "plain.c"), "-o", str(plain)], check=True, capture_output=True)
    control = RunControl(token=RunToken((1, 2)))
    with control.active():
        assert token_writes(plain, "memory") == []
    assert control.delivery is None  # the run is then unauthenticated
