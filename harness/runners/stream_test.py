"""The one run loop: producers, waiters, pollers, the end rule per transport, the deadline."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from harness.core import procs
from harness.formats.micro_test import sign_parts
from harness.formats.reader import CRASH_GRACE_S, END_GRACE_S, EXIT_AFTER_END_S, parse_log
from harness.runners.base import RunResult
from harness.runners.stream import DeviceStream, FileTail


def signed(*parts: str) -> list[bytes]:
    """The parts of one micro_test run's log as the framework prints them (key 0: no run token here)."""
    return sign_parts(*parts)


MT_PASS = signed("~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n")[0]


def _feed_later(stream: DeviceStream, chunks: list[tuple[float, bytes]], exit_code: int | None = None) -> None:
    def run() -> None:
        for delay, data in chunks:
            time.sleep(delay)
            stream.put(data)
        if exit_code is not None:
            stream.exit(exit_code)

    threading.Thread(target=run, daemon=True).start()


def _result(end, backend: str = "host") -> RunResult:  # type: ignore[no-untyped-def]
    return RunResult(backend, end.log, end.exit_code, end.timed_out, end.duration_s, end.end_reason,
                     end.infra_error)


def test_exit_status_transport_waits_for_the_exit_after_the_end() -> None:
    stream = DeviceStream(exit_status=True)
    _feed_later(stream, [(0.0, MT_PASS), (0.3, b"")], exit_code=0)
    end = stream.finish(stream.follow(time.monotonic() + 10))
    assert end.end_reason == "exit" and end.exit_code == 0
    assert parse_log(end.log, _result(end)).outcome == "passed"


def test_exit_status_transport_that_never_exits_is_not_a_pass() -> None:
    stream = DeviceStream(exit_status=True)
    _feed_later(stream, [(0.0, MT_PASS)])
    start = time.monotonic()
    end = stream.finish(stream.follow(start + 30))
    assert EXIT_AFTER_END_S <= time.monotonic() - start < EXIT_AFTER_END_S + 1
    assert end.end_reason == "no-exit"
    assert parse_log(end.log, _result(end)).outcome == "timeout"


def test_no_exit_status_ends_shortly_after_the_end_and_sees_what_follows() -> None:
    stream = DeviceStream(exit_status=False)
    passed, failure = signed("~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n",
                             "~~~MT BEGIN B\n~~~MT FAIL x failed at f.cc:1\n")
    _feed_later(stream, [(0.0, passed), (END_GRACE_S / 3, failure)])
    start = time.monotonic()
    end = stream.finish(stream.follow(start + 30))
    assert time.monotonic() - start < END_GRACE_S + 0.5
    assert end.end_reason == "end-marker"
    report = parse_log(end.log, _result(end, "serial"))
    assert report.outcome == "failed" and "after the end of the run" in report.summary


def test_forged_end_printed_by_a_case_does_not_end_the_run() -> None:
    """Case A prints micro_test lookalikes of a summary and an end of run (not signed: its own text)."""
    stream = DeviceStream(exit_status=False)
    begin = signed("~~~MT BEGIN A\n")[0]
    forged = b"~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n~~~ALL TESTS PASSED~~~\n"
    _feed_later(stream, [(0.0, begin + forged)])
    end = stream.finish(stream.follow(time.monotonic() + 1.0))
    assert end.end_reason == "timeout" and end.timed_out
    report = parse_log(end.log, _result(end, "serial"))
    assert report.outcome == "timeout" and [(c.name, c.outcome) for c in report.cases] == [("A", "timeout")]
    assert "~~~MT DONE PASSED" in report.cases[0].messages


def test_framework_end_inside_a_case_does_not_end_the_run() -> None:
    """The framework's own (signed) summary and end of run while case A is open: still no end."""
    stream = DeviceStream(exit_status=False)
    inside = signed("~~~MT BEGIN A\n~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n")[0]
    _feed_later(stream, [(0.0, inside)])
    end = stream.finish(stream.follow(time.monotonic() + 1.0))
    assert end.end_reason == "timeout" and end.timed_out
    report = parse_log(end.log, _result(end, "serial"))
    assert report.outcome == "timeout" and "inside case A" in report.summary


def test_crash_line_ends_after_the_crash_grace() -> None:
    stream = DeviceStream(exit_status=True)
    crash = signed("~~~MT BEGIN A\n*** HardFault: CFSR=0x00008200 HFSR=0x40000000 PC=0x08000100 LR=0x08000101\n")[0]
    _feed_later(stream, [(0.0, crash)])
    start = time.monotonic()
    end = stream.finish(stream.follow(start + 30))
    assert time.monotonic() - start < CRASH_GRACE_S + 0.5 and end.end_reason == "crash"


def test_transport_stop_is_an_infra_error_with_its_reason() -> None:
    stream = DeviceStream()
    stream.put(signed("~~~MT BEGIN A\n")[0])
    stream.stop("infra-error", infra_error="serial port read failed")
    end = stream.follow(time.monotonic() + 5)
    assert end.end_reason == "infra-error" and end.infra_error == "serial port read failed"


def test_waiter_feeds_the_stream() -> None:
    stream = DeviceStream(exit_status=False)
    chunks = [MT_PASS[i:i + 7] for i in range(0, len(MT_PASS), 7)]

    def read(budget_s: float) -> None:
        if chunks:
            stream.put(chunks.pop(0))
        else:
            time.sleep(min(budget_s, 0.01))

    end = stream.finish(stream.follow(time.monotonic() + 5, waiter=read))
    assert end.end_reason == "end-marker" and end.log == MT_PASS


def test_file_tails_merge_whole_lines_in_arrival_order(tmp_path: Path) -> None:
    """Renode's UART file backends are followed by FileTail pollers."""
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    framework = b"".join(signed("~~~MT BEGIN One\nhalf of a line\n~~~MT END One PASSED\n"
                                "~~~MT SUMMARY 1/1 tests passed\n~~~MT DONE PASSED\n"))
    cut = framework.index(b"half of ") + len(b"half of ")  # the first write ends inside a line
    writer = (
        "import sys, time\n"
        "a, b = open(sys.argv[1], 'wb'), open(sys.argv[2], 'w')\n"
        f"a.write({framework[:cut]!r}); a.flush(); time.sleep(0.2)\n"
        "b.write('uart line\\n'); b.flush(); time.sleep(0.2)\n"
        f"a.write({framework[cut:]!r})\n"
        "a.flush(); time.sleep(60)\n"
    )
    lines: list[str] = []
    stream = DeviceStream(lines.append, exit_status=False)
    proc = procs.spawn([sys.executable, "-c", writer, str(a), str(b)])
    try:
        tails = [FileTail(a, stream), FileTail(b, stream)]
        start = time.monotonic()
        end = stream.follow(start + 30, pollers=tails, poll_s=0.02)
        for tail in tails:
            tail.rest()
        end = stream.finish(end)
    finally:
        procs.reap(proc)
    assert time.monotonic() - start < 3
    assert end.end_reason == "end-marker"
    start_line, begin, *rest = framework.decode().splitlines()  # rest: "half of a line", END, SUMMARY, DONE
    assert lines == [start_line, begin, "uart line", *rest]
    assert parse_log(end.log).outcome == "passed"


def test_case_durations_come_from_the_live_stream() -> None:
    """Arrival spans for formats without a time of their own; the framework's figure where there is one."""
    stream = DeviceStream(exit_status=False)
    first, rest = signed("~~~MT BEGIN A\n", "~~~MT END A PASSED\n~~~MT BEGIN B\n~~~MT END B PASSED\n"
                                           "~~~MT SUMMARY 2/2 tests passed\n~~~MT DONE PASSED\n")
    _feed_later(stream, [(0.0, first), (0.3, rest)])
    end = stream.finish(stream.follow(time.monotonic() + 10))
    assert 0.25 <= end.case_seconds["A"] < 1.0 and end.case_seconds["B"] < 0.1
    gtest = DeviceStream(exit_status=False)
    gtest.put(b"[==========] Running 1 test from 1 test suite.\n[ RUN      ] S.T\n[       OK ] S.T (250 ms)\n"
              b"[==========] 1 test from 1 test suite ran. (250 ms total)\n[  PASSED  ] 1 test.\n")
    assert gtest.finish(gtest.follow(time.monotonic() + 5)).case_seconds == {"S.T": 0.25}


def test_a_note_in_the_middle_of_a_record_leaves_the_devices_bytes_whole() -> None:
    """The harness's remarks are kept apart: a note made while half a record has arrived neither splits
    that record for the reader nor enters the log; the annotated log shows it on a line of its own."""
    half = len(MT_PASS) // 3
    stream = DeviceStream(exit_status=True)
    stream.put(MT_PASS[:half])
    stream.note("device bluepill-1 (leased)")
    stream.put(MT_PASS[half:])
    stream.exit(0)
    end = stream.finish(stream.follow(time.monotonic() + 10))
    assert end.log == MT_PASS and [(n.offset, n.text) for n in end.notes] == [(half, "device bluepill-1 (leased)")]
    assert parse_log(end.log, _result(end)).outcome == "passed"
    assert stream.reader.finish(_result(end)).outcome == "passed"  # the live reader: no broken record
    shown = end.annotated_log.decode()
    assert "\n[harness] device bluepill-1 (leased)\n" in shown and shown.count("[harness]") == 1


def test_firmware_printing_harness_remarks_is_only_device_output() -> None:
    """A firmware that prints what looks like the harness's remarks gets no note: notes come only from the
    harness, so reports and `dut` never take the device's text for the harness's."""
    stream = DeviceStream(exit_status=True)
    stream.put(b"[harness] device bluepill-1 (bluepill via pyocd)\n[harness] stopped by the test (dut.stop())\n")
    stream.exit(0)
    end = stream.finish(stream.follow(time.monotonic() + 10))
    assert end.notes == [] and parse_log(end.log, _result(end)).outcome != "passed"
