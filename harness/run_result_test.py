"""The harness's notes beside the device's bytes: where they show in the log a person reads."""

from __future__ import annotations

from harness.run_result import Note, RunResult, annotated_log


def test_notes_sit_on_lines_of_their_own_at_their_offsets() -> None:
    log = b"one\ntwo half"
    notes = [Note(len(log), "the end"), Note(0, "leased bluepill-1"), Note(6, "mid-line")]
    assert annotated_log(log, notes) == (b"[harness] leased bluepill-1\none\ntw\n[harness] mid-line\no half\n"
                                         b"[harness] the end\n")
    assert annotated_log(log, []) == log
    assert annotated_log(b"", [Note(5, "past the end")]) == b"[harness] past the end\n"


def test_a_result_keeps_the_device_bytes_apart() -> None:
    run = RunResult("qemu", b"Testing A\n", None, False, 0.1, "crash", notes=[Note(10, "qemu: Lockup")])
    assert run.log == b"Testing A\n" and run.annotated_log == b"Testing A\n[harness] qemu: Lockup\n"
