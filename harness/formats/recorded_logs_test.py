"""The log reader (``harness.formats.reader``) on recorded logs of every outcome, fed in random chunk sizes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from harness.formats.reader import LogReader, clean_line, parse_log
from harness.runners.base import RunResult
from harness.testing.recorded_logs import parse_chunked, run_result

LOGS = Path(__file__).resolve().parent.parent / "testdata" / "logs"


_run = run_result
_parse_chunked = parse_chunked


# name -> (run, outcome, format, [(case, outcome)], words the summary must contain)
CASES: dict[str, tuple[RunResult | None, str, str, list[tuple[str, str]], list[str]]] = {
    "mt_pass.log": (
        _run(0),
        "passed",
        "tflm_v1",
        [("SimpleAdd", "passed"), ("BroadcastAdd", "passed"), ("QuantizedAdd", "passed")],
        ["3/3"],
    ),
    "mt_fail.log": (
        _run(1),
        "failed",
        "tflm_v1",
        [("SimpleAdd", "passed"), ("BroadcastAdd", "failed"), ("QuantizedAdd", "passed")],
        ["1 of 3", "BroadcastAdd"],
    ),
    "mt_zero.log": (_run(0), "no-tests", "tflm_v1", [], ["no tests"]),
    "mt_crash.log": (
        _run(3, end="crash"),
        "crashed",
        "tflm_v1",
        [("AllocatesTensors", "passed"), ("InvokesModel", "crashed")],
        ["InvokesModel", "PRECISERR"],
    ),
    "mt_hang.log": (
        _run(None, timed_out=True, end="timeout"),
        "timeout",
        "tflm_v1",
        [("AllocatesTensors", "passed"), ("InvokesModel", "timeout")],
        ["timed out", "InvokesModel"],
    ),
    "mt_garbage.log": (_run(0), "passed", "tflm_v1", [("First", "passed"), ("Second", "passed")], ["2/2"]),
    "mt_truncated.log": (
        None,
        "crashed",
        "tflm_v1",
        [("First", "passed"), ("Second", "crashed")],
        ["before the end of the run", "Second"],
    ),
    "mt_crlf.log": (_run(1), "failed", "tflm_v1", [("First", "passed"), ("Second", "failed")], ["Second"]),
    "mt_non_utf8.log": (_run(0), "passed", "tflm_v1", [("Ünïcode", "passed"), ("温度", "passed")], ["2/2"]),
    "mt_app_lines.log": (
        _run(0),
        "passed",
        "tflm_v1",
        [("LoadsModel", "passed"), ("RunsInference", "passed")],
        ["2/2"],
    ),
    "mt_inconsistent.log": (
        _run(0),
        "failed",
        "tflm_v1",
        [("First", "passed"), ("Second", "passed")],
        ["inconsistent", "says 3 tests but 2 ran"],
    ),
    "mt_pass_sentinel_with_failure.log": (
        _run(0),
        "failed",
        "tflm_v1",
        [("First", "failed"), ("Second", "passed")],
        ["First"],
    ),
    "mt_tflm_v1.log": (
        _run(1),
        "failed",
        "tflm_v1",
        [("TestInterpreter", "passed"), ("TestKernelMemoryPlanning", "failed"), ("TestVariableTensorReset", "passed")],
        ["TestKernelMemoryPlanning"],
    ),
    "gt_pass.log": (
        _run(0),
        "passed",
        "gtest",
        [("AddTest.Float", "passed"), ("AddTest.Int8", "passed"), ("MulTest.Float", "passed")],
        ["3/3"],
    ),
    "gt_fail.log": (
        _run(1),
        "failed",
        "gtest",
        [("ConvTest.Simple", "passed"), ("ConvTest.PerChannel", "failed"), ("ConvTest.Relu", "passed")],
        ["ConvTest.PerChannel"],
    ),
    "gt_crash.log": (
        _run(3, end="crash"),
        "crashed",
        "gtest",
        [("DepthwiseTest.Simple", "passed"), ("DepthwiseTest.Large", "crashed")],
        ["DepthwiseTest.Large", "UNALIGNED"],
    ),
    "gt_inconsistent.log": (
        _run(0),
        "failed",
        "gtest",
        [("S.A", "passed"), ("S.B", "passed")],
        ["inconsistent", "announced 3"],
    ),
    # gtest's own output when its filter matches nothing.
    "gt_zero.log": (_run(0), "no-tests", "gtest", [], ["no tests ran", "0 tests"]),
    # Stuck in a test until the harness's timeout: no "[  PASSED  ]"/"[  FAILED  ]" end marker.
    "gt_hang.log": (
        _run(None, timed_out=True, end="timeout"),
        "timeout",
        "gtest",
        [("LstmTest.OneStep", "passed"), ("LstmTest.ManySteps", "timeout")],
        ["timed out", "LstmTest.ManySteps", "before the end of the run"],
    ),
    # The log just stops (no run result: cut short, or the device died), mid-test.
    "gt_truncated.log": (
        None,
        "crashed",
        "gtest",
        [("PoolingTest.Average", "passed"), ("PoolingTest.Max", "crashed")],
        ["PoolingTest.Max", "before the end of the run"],
    ),
    # Recorded from real runs of the bluepill port in QEMU (UART, \r\n line ends).
    "rec_bluepill_qemu_crash.log": (
        _run(3, end="crash"),
        "crashed",
        "tflm_v1",
        [("RunsFirst", "passed"), ("CrashesHere", "crashed")],
        ["CrashesHere", "UNDEFINSTR"],
    ),
    "rec_bluepill_qemu_fail.log": (
        _run(1),
        "failed",
        "tflm_v1",
        [("PassesBefore", "passed"), ("WrongProduct", "failed"), ("PassesAfter", "passed")],
        ["1 of 3", "WrongProduct"],
    ),
    "rec_bluepill_qemu_softmax_pass.log": (_run(0), "passed", "tflm_v1", [], ["12/12"]),
}


def test_every_recorded_log_has_an_expectation() -> None:
    assert sorted(p.name for p in LOGS.glob("*.log")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_log(name: str) -> None:
    run, outcome, fmt, cases, words = CASES[name]
    data = (LOGS / name).read_bytes()
    whole = parse_log(data, run)
    assert whole.outcome == outcome, whole.summary
    assert whole.format == fmt
    if cases:
        assert [(c.name, c.outcome) for c in whole.cases] == cases
    for word in words:
        assert word in whole.summary
    assert whole.log_tail, "the tail must show the end of the log"
    # Chunking must never change the result.
    for seed in range(8):
        chunked = _parse_chunked(data, run, seed)
        assert (chunked.outcome, chunked.summary, chunked.log_tail) == (whole.outcome, whole.summary, whole.log_tail)
        assert [(c.name, c.outcome, c.messages) for c in chunked.cases] == [
            (c.name, c.outcome, c.messages) for c in whole.cases
        ]


def test_app_lines_stay_with_their_case() -> None:
    report = parse_log((LOGS / "mt_app_lines.log").read_bytes(), _run(0))
    assert report.cases[0].messages == ["model version 3, 12 tensors", "arena: 2048/4096 bytes"]
    assert report.cases[1].messages == ["inference took 1532 ticks", "output = 0.7431"]


def test_failure_message_kept_with_values() -> None:
    report = parse_log((LOGS / "mt_fail.log").read_bytes(), _run(1))
    assert report.cases[1].messages == [
        "output[2] == expected[2] failed at micro_runtime/kernels/add_test.cc:57 (5 vs 6)"
    ]


def test_gtest_failure_block_and_durations() -> None:
    report = parse_log((LOGS / "gt_fail.log").read_bytes(), _run(1))
    failed = report.cases[1]
    assert failed.messages[0] == "tensorflow/lite/micro/kernels/conv_test.cc:88: Failure"
    assert "    Which is: 13" in failed.messages  # indentation as printed
    assert failed.duration_s == pytest.approx(0.002)


def test_exit_status_contradicting_pass_sentinel_fails() -> None:
    report = parse_log((LOGS / "mt_pass.log").read_bytes(), _run(1))
    assert report.outcome == "failed"
    assert "exit status 1 although the log says all 3 tests passed" in report.summary


def test_exit_without_sentinel_is_a_crash_with_tail() -> None:
    data = b"".join(f"Testing T\nline {i}\n".encode() for i in range(30))
    report = parse_log(data, _run(2))
    assert report.outcome == "crashed"
    assert "exit status 2" in report.summary
    assert len(report.log_tail) == 20 and report.log_tail[-1] == "line 29"
    assert [c.outcome for c in report.cases][-1] == "crashed"


def test_host_signal_is_named() -> None:
    report = parse_log(b"Testing T\n", _run(-11, end="crash", backend="host"))
    assert report.outcome == "crashed" and "SIGSEGV" in report.summary


def test_infra_error_wins() -> None:
    run = RunResult("qemu", b"", None, False, 0.1, "infra-error", infra_error="qemu-system-arm not found")
    report = parse_log(b"", run)
    assert report.outcome == "infra-error" and "qemu-system-arm not found" in report.summary


def test_silent_binary_is_a_crash_not_a_pass() -> None:
    assert parse_log(b"", _run(0)).outcome == "crashed"
    assert parse_log(b"hello\n", _run(0)).format == "unknown"


def test_failure_outside_a_case_fails_the_binary() -> None:
    data = b"Testing A\n1/1 tests passed\nx failed at a.cc:1\n~~~ALL TESTS PASSED~~~\n"
    report = parse_log(data, _run(0))
    assert report.outcome == "failed" and "outside any test" in report.summary


def test_fail_sentinel_alone_fails() -> None:
    report = parse_log(b"Testing A\n1/1 tests passed\n~~~SOME TESTS FAILED~~~\n", _run(1))
    assert report.outcome == "failed"


def test_pass_sentinel_without_counts_does_not_end_the_run() -> None:
    """TFLM v1: a sentinel counts only after the summary line; before it, it is the case's text."""
    report = parse_log(b"Testing A\n~~~ALL TESTS PASSED~~~\n", _run(0))
    assert report.outcome == "crashed" and "before the end of the run" in report.summary
    assert report.cases[0].outcome == "crashed" and report.cases[0].messages == ["~~~ALL TESTS PASSED~~~"]


def test_crash_report_attached() -> None:
    report = parse_log((LOGS / "mt_crash.log").read_bytes(), _run(3, end="crash"))
    assert report.crash is not None
    assert report.crash.pc == 0x08001234 and report.crash.bfar == 0x70000000
    assert "no ELF" in (report.crash.note or "")


def test_message_cap() -> None:
    data = b"Testing Chatty\n" + b"x\n" * 500 + b"1/1 tests passed\n~~~ALL TESTS PASSED~~~\n"
    report = parse_log(data, _run(0))
    assert len(report.cases[0].messages) == 201
    assert report.cases[0].messages[-1].startswith("... 300 more lines")


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"Testing A\r", "Testing A"),
        (b"\rTesting A", "Testing A"),
        (b"\x00\xffTesting A", "Testing A"),
        (b"\x1b[32mok\x1b[0m", "ok"),
        (b"\x00  indented\t ", "  indented"),
        (b"caf\xe9", "caf\ufffd"),
    ],
)
def test_clean_line(raw: bytes, text: str) -> None:
    assert clean_line(raw) == text


def test_endless_line_is_bounded() -> None:
    parser = LogReader()
    parser.feed(b"Testing A\n")
    for _ in range(40):
        parser.feed(b"\xff" * 4096)
    report = parser.finish(_run(None, timed_out=True, end="timeout"))
    assert report.outcome == "timeout"
    assert all(len(m) <= 64 * 1024 for m in report.cases[0].messages)
    data = b"Testing A\n" + b"x" * (40 * 4096)
    whole = [len(m) for m in parse_log(data).cases[0].messages]
    assert whole == [64 * 1024, 64 * 1024, 40 * 4096 - 128 * 1024]
    assert whole == [len(m) for m in _parse_chunked(data, None, 5).cases[0].messages]


def test_cut_short_hardfault_line_is_still_a_crash() -> None:
    report = parse_log(b"Testing A\n*** HardFault: PC=0x0800", _run(None, end="crash"))
    assert report.outcome == "crashed" and "could not be decoded" in report.summary
    assert report.crash is None and report.cases[0].outcome == "crashed"


def test_indented_protocol_lines_still_count() -> None:
    data = b"  Testing A\n\tdetail\n 1/1 tests passed\n  ~~~ALL TESTS PASSED~~~\n"
    report = parse_log(data, _run(0))
    assert report.outcome == "passed" and report.cases[0].messages == ["\tdetail"]


def test_recorded_softmax_log_keeps_kernel_messages() -> None:
    report = parse_log((LOGS / "rec_bluepill_qemu_softmax_pass.log").read_bytes(), _run(0))
    assert len(report.cases) == 12 and all(c.outcome == "passed" for c in report.cases)
    case = next(c for c in report.cases if c.name == "Int8WrongOutputQuantizationFails")
    assert len(case.messages) == 2 and case.messages[0].startswith("SOFTMAX: int8 output must have scale")


def test_random_input_never_breaks_the_parser() -> None:
    """Garbage mixed with protocol fragments: always a verdict from the allowed set, never an exception."""
    rng = random.Random(1234)
    fragments = [
        b"Testing A\n",
        b"Testing \n",
        b"x failed at f.cc:1 (1 vs 2)\n",
        b"1/1 tests passed\n",
        b"0/0 tests passed\n",
        b"~~~ALL TESTS PASSED~~~\n",
        b"~~~SOME TESTS FAILED~~~\n",
        b"[ RUN      ] S.T\n",
        b"[       OK ] S.T (1 ms)\n",
        b"[  FAILED  ] S.T (2 ms)\n",
        b"[  PASSED  ] 1 test.\n",
        b"f.cc:3: Failure\n",
        b"*** HardFault: PC=0x",
        b"\r",
        b"\n",
        b"\x00\xff\xfe",
    ]
    outcomes = {"passed", "failed", "crashed", "timeout", "no-tests", "infra-error"}
    for _ in range(300):
        data = b"".join(
            rng.choice(fragments) if rng.random() < 0.7 else rng.randbytes(rng.randint(1, 20))
            for _ in range(rng.randint(0, 30))
        )
        run = _run(rng.choice([None, 0, 1, 3, -11]), timed_out=rng.random() < 0.2)
        report = _parse_chunked(data, run, rng.randint(0, 1000))
        assert report.outcome in outcomes
        whole = parse_log(data, run)
        assert (whole.outcome, whole.summary, whole.log_tail) == (report.outcome, report.summary, report.log_tail)
        assert all(c.outcome in {"passed", "failed", "crashed", "timeout"} for c in report.cases)
