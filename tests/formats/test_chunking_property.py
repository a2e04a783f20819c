"""One reader, any chunking: every log of the corpus gives the same verdict however its bytes arrive.

Hypothesis cuts each log (micro_test, TFLM v1/v2, GoogleTest, Unity, ztest, recorded device logs, the
adversarial logs below) into random chunks — single bytes, pieces that split the CR of a CRLF, a record
prefix, a UTF-8 sequence or the 64 KiB line cut — and feeds them to a fresh ``LogReader``. The verdict,
the per-case results with their messages, the problems and the record stream's state must equal those of
the whole log fed at once. Arrival times (case durations) are the only thing allowed to differ.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import REPO_ROOT
from harness.core.run_token import UNKEYED
from harness.formats.micro_test import PREFIX_BYTES, find_record, sign_log
from harness.formats.reader import MAX_LINE_BYTES, LogReader
from harness.runners.base import RunResult

CORPUS = REPO_ROOT / "harness" / "testdata" / "logs"


def _as_signed(data: bytes) -> bytes:
    """A recorded micro_test log from before records were signed gets signed as the framework would now."""
    has_plain = any(line.lstrip().startswith(PREFIX_BYTES) for line in data.splitlines())
    has_authentic = any(find_record(line.rstrip(b"\r"), UNKEYED) for line in data.splitlines())
    return sign_log(data) if has_plain and not has_authentic else data


def _adversarial() -> dict[str, bytes]:
    long = b"x" * (MAX_LINE_BYTES + 300)
    return {
        "long_line_then_record": sign_log(b"~~~MT BEGIN A\n" + long + b"~~~MT FAIL f failed at a.cc:1\n"
                                          b"~~~MT END A FAILED\n~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n"),
        "record_near_the_cut": sign_log(b"~~~MT BEGIN A\n" + b"y" * (MAX_LINE_BYTES - 40)
                                        + b"~~~MT FAIL g failed at a.cc:2\n~~~MT END A FAILED\n"
                                        b"~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n"),
        "prefix_fragments": sign_log(b"~~~MT BEGIN A\nprogress ~~~MT ~~~MT FAIL h failed at a.cc:3\n~~~M"
                                     b"~~~MT END A FAILED\n~~~MT SUMMARY 0/1 tests passed\n~~~MT DONE FAILED\n"),
        "forged_plain_records": sign_log(b"~~~MT BEGIN A\n") + b"~~~MT 2 00000000 END A PASSED\r\n"
        b"~~~MT END A PASSED\n~~~MT DONE PASSED\n",
        "crlf_nul_ansi": sign_log(b"~~~MT BEGIN A\r\n\x00\x1b[31m~~~MT FAIL i failed at a.cc:4\r\n"
                                  b"~~~MT END A FAILED\r\n~~~MT SUMMARY 0/1 tests passed\r\n~~~MT DONE FAILED\r\n"),
        "utf8_split": sign_log("~~~MT BEGIN A\nµ€𝄞 text\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n"
                               "~~~MT DONE PASSED\n".encode()),
        "no_newline_at_end": sign_log(b"~~~MT BEGIN A\n~~~MT END A PASSED\n~~~MT SUMMARY 1/1 tests passed\n"
                                      b"~~~MT DONE PASSED"),
        # TFLM's micro_test_v2.h (GoogleTest-like) and the model runner, written as they print.
        "tflm_v2_pass": b"[==========] Running tests.\n[ RUN      ] Kernels.Conv\n[       OK ] Kernels.Conv (0 ms)\n"
        b"[ RUN      ] Kernels.Add\n[       OK ] Kernels.Add (0 ms)\n[==========] 2 tests ran.\n"
        b"[  PASSED  ] 2 tests.\n",
        "tflm_v2_fail": b"[==========] Running tests.\n[ RUN      ] Kernels.Conv\nconv_test.cc:12: Failure\n"
        b"[  FAILED  ] Kernels.Conv (0 ms)\n[==========] 1 tests ran.\n[  PASSED  ] 0 tests.\n"
        b"[  FAILED  ] 1 tests, listed below:\n[  FAILED  ] Kernels.Conv\n",
        "model_runner": b"model_runner: model_bytes=2488 arena_bytes=8192 cases=2\ncase 0 output 0 type=int8 shape=1,1 "
        b"data=7f\ncase 1 output 0 type=int8 shape=1,1 data=80\narena_used_bytes=520\n~~~MODEL RUNNER DONE~~~\n",
    }


def _corpus() -> dict[str, bytes]:
    logs = {str(p.relative_to(CORPUS)): _as_signed(p.read_bytes()) for p in sorted(CORPUS.rglob("*.log"))}
    gtest = REPO_ROOT / "tests" / "formats" / "gtest_programs"
    logs.update({f"gtest_programs/{p.name}": p.read_bytes() for p in sorted(gtest.glob("*.log"))})
    logs.update(_adversarial())
    return logs


LOGS = _corpus()


def _result(reader: LogReader) -> tuple[object, ...]:
    run = RunResult("qemu", b"", 0, False, 1.0, "exit")
    report = reader.finish(run)
    cases = [(c.name, str(c.outcome), list(c.messages), c.dropped) for c in report.cases]
    return (str(report.outcome), report.summary, report.format, cases, report.problems, report.records,
            report.log_tail, reader.records, reader.next_sequence, reader.lines)


def _whole(data: bytes) -> tuple[object, ...]:
    reader = LogReader()
    reader.feed(data)
    return _result(reader)


def _chunked(data: bytes, cuts: list[int]) -> tuple[object, ...]:
    reader = LogReader()
    at = 0
    for cut in sorted(set(cuts)):
        reader.feed(data[at:cut])
        at = cut
    reader.feed(data[at:])
    return _result(reader)


def test_the_corpus_covers_every_format() -> None:
    formats = {_whole(data)[2] for data in LOGS.values()}
    assert {"micro_test", "tflm_v1", "gtest", "unity", "ztest", "model_runner"} <= formats, formats
    assert len(LOGS) >= 40


@pytest.mark.parametrize("name", sorted(LOGS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_chunking_gives_the_same_verdict(name: str, data: st.DataObject) -> None:
    log = LOGS[name]
    whole = _whole(log)
    if not log:
        return
    cuts = data.draw(st.lists(st.integers(min_value=1, max_value=len(log)), max_size=64), label="cuts")
    assert _chunked(log, cuts) == whole


@pytest.mark.parametrize("name", sorted(LOGS))
def test_byte_by_byte_gives_the_same_verdict(name: str) -> None:
    log = LOGS[name]
    if len(log) > 200_000:
        pytest.skip("byte-by-byte feeding of a large log is covered by the random chunkings")
    assert _chunked(log, list(range(1, len(log)))) == _whole(log)


def test_the_adversarial_logs_judge_right() -> None:
    verdicts = {name: _whole(data) for name, data in _adversarial().items()}
    for name in ("long_line_then_record", "record_near_the_cut", "prefix_fragments", "crlf_nul_ansi"):
        outcome, _summary, fmt, cases, *_ = verdicts[name]
        assert (outcome, fmt) == ("failed", "micro_test"), (name, verdicts[name])
        assert cases[0][1] == "failed", (name, cases)
    assert verdicts["forged_plain_records"][0] != "passed"
    assert verdicts["utf8_split"][0] == "passed"
    assert verdicts["tflm_v2_pass"][:3] == ("passed", "2/2 tests passed", "gtest")
    assert verdicts["tflm_v2_fail"][0] == "failed"
