"""What the format readers' tests share: recorded logs (``harness/testdata/logs/formats``), judged whole and chunked."""

from __future__ import annotations

import random
from pathlib import Path

from harness.formats.reader import BinaryReport, LogReader, parse_log
from harness.runners.base import RunResult

LOGS = Path(__file__).resolve().parent.parent / "testdata" / "logs" / "formats"

# (run, binary outcome, [(case, case outcome)], words the summary contains)
Expectation = tuple[RunResult | None, str, list[tuple[str, str]], list[str]]


def run_result(
    exit_code: int | None = 0, *, timed_out: bool = False, end: str = "exit", backend: str = "qemu"
) -> RunResult:
    return RunResult(backend, b"", exit_code, timed_out, 1.5, end)


def parse_chunked(data: bytes, run: RunResult | None, seed: int) -> BinaryReport:
    """The verdict on ``data`` fed in random chunk sizes (a line may arrive in many pieces)."""
    rng = random.Random(seed)
    reader = LogReader()
    pos = 0
    while pos < len(data):
        size = rng.choice([1, 2, 3, 7, 16, 64, 1000])
        reader.feed(data[pos : pos + size])
        pos += size
    return reader.finish(run)


def check_recorded(name: str, fmt: str, expectation: Expectation) -> None:
    """Asserts the format, binary outcome, cases and summary words of a recorded log, whole and chunked."""
    run, outcome, cases, words = expectation
    data = (LOGS / name).read_bytes()
    for report in (parse_log(data, run), parse_chunked(data, run, seed=len(name))):
        assert report.format == fmt
        assert report.outcome == outcome, report.summary
        assert [(c.name, c.outcome) for c in report.cases] == cases
        for word in words:
            assert word in report.summary, report.summary
