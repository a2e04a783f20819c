"""Board health: one sample per binary x board x run (its binary-checks record) and per failed attempt (on the
device that failed it), infra failures, the rate over a window, and when a device is unhealthy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.farm.health import DEFAULT_MIN_RUNS, DEFAULT_RATE, DeviceHealth, device_health
from harness.farm.history import CaseRecord, FailedAttempt, History, RunInfo


@pytest.fixture
def history(tmp_path: Path) -> Iterator[History]:
    with History(tmp_path / "farm.db") as opened:
        yield opened


def checks(device: str | None, outcome: str = "passed", failure_class: str | None = None, retries: int = 0,
           message: str | None = None, board: str = "bluepill", host: str = "rack1",
           binary: str = "conv_test") -> CaseRecord:
    """A binary's binary-checks record (run_id filled in by ``night``)."""
    return CaseRecord("", f"kernels/{binary}.cc::binary-checks", board, outcome, failure_class=failure_class,
                      device_id=device, host=host, infra_retries=retries, message=message)


def night(history: History, date: str, *records: CaseRecord) -> None:
    """Each record in a run of its own on ``date`` (one binary x board per run: several devices of a board are
    several farm hosts' runs)."""
    for record in records:
        count = len(history.runs())
        record.run_id = f"run{count}"
        history.begin_run(RunInfo(record.run_id, date, 1000.0 + count))
        history.add_results([record])


def by_device(found: list[DeviceHealth]) -> dict[str, DeviceHealth]:
    return {d.device_id: d for d in found}


def test_infra_failures_count_against_the_device_that_had_them(history: History) -> None:
    night(history, "2026-02-01", checks("b1"), checks("b2", "error", "infra", message="probe lost"))
    night(history, "2026-02-02", checks("b1"), checks("b2"))
    night(history, "2026-02-03", checks("b1", "failed", "test"), checks("b2", "error", "infra", message="port gone"))
    night(history, "2026-02-04", checks("b1"), checks("b2"))
    found = by_device(device_health(history))
    assert sorted(found) == ["b1", "b2"]
    b1, b2 = found["b1"], found["b2"]
    # b1: a test failure is not the board's
    assert (b1.board, b1.hosts, b1.runs, b1.infra, b1.retries, b1.last_night, b1.last_error) == (
        "bluepill", "rack1", 4, 0, 0, "2026-02-04", None)
    assert (b2.runs, b2.infra, b2.retries, b2.last_error) == (4, 2, 0, "port gone")  # the latest infra message
    assert b2.rate == 0.5
    assert b2.describe() == ("b2 (bluepill): 2 of 4 binary runs failed for infrastructure reasons (50%) up to night "
                             "2026-02-04; last: port gone")


def test_a_retried_run_blames_the_board_that_failed_not_the_one_that_rescued_it(history: History) -> None:
    """b2 lost the binary twice (probe gone, then flashing failed) and b1 ran it: b2 has two infrastructure
    failures; b1 one clean run, although its record says the run needed two retries."""
    night(history, "2026-02-01", checks("b1", retries=2))
    history.add_failed_attempts([
        FailedAttempt("run0", "bluepill", "conv_test", 1, "b2", "rack1", "probe lost", 10.0),
        FailedAttempt("run0", "bluepill", "conv_test", 2, "b2", "rack1", "flashing failed", 20.0)])
    found = by_device(device_health(history))
    assert (found["b1"].runs, found["b1"].infra, found["b1"].retries) == (1, 0, 0)
    b2 = found["b2"]
    assert (b2.runs, b2.infra, b2.retries, b2.last_error, b2.last_night) == (2, 2, 2, "flashing failed", "2026-02-01")
    assert b2.unhealthy(rate=0.5, min_runs=2)


def test_only_binary_checks_records_with_a_device_are_samples(history: History) -> None:
    case = CaseRecord("", "kernels/conv_test.cc::Int8", "bluepill", "error", failure_class="infra", device_id="b1")
    night(history, "2026-02-01", checks("b1"), case, checks(None, "error", "infra", board="host"))
    (b1,) = device_health(history)
    assert (b1.device_id, b1.runs, b1.infra) == ("b1", 1, 0)


def test_one_sample_per_binary_and_the_hosts_that_ran_them(history: History) -> None:
    night(history, "2026-02-01", checks("b1", binary="a_test", host="rack1"),
          checks("b1", "error", "infra", binary="b_test", host="rack2", message="flash failed"))
    (b1,) = device_health(history)
    assert (b1.runs, b1.infra, b1.last_error) == (2, 1, "flash failed")
    assert sorted(b1.hosts.split(",")) == ["rack1", "rack2"]


def test_the_window_starts_at_since_night(history: History) -> None:
    night(history, "2026-02-01", checks("b1", "error", "infra", message="old"))
    night(history, "2026-02-02", checks("b1", "error", "infra", message="probe lost"))
    night(history, "2026-02-03", checks("b1"), checks("b2"))
    found = by_device(device_health(history, since_night="2026-02-02"))
    assert (found["b1"].runs, found["b1"].infra, found["b1"].last_night) == (2, 1, "2026-02-03")
    assert device_health(history, since_night="2026-03-01") == []


def test_a_device_is_unhealthy_at_the_rate_with_enough_samples() -> None:
    assert (DEFAULT_RATE, DEFAULT_MIN_RUNS) == (0.25, 4)
    device = DeviceHealth("b1", "bluepill", "rack1", runs=4, infra=1, retries=0, last_night="2026-02-04",
                          last_error=None)
    assert device.unhealthy()  # 25% of 4: at the threshold
    assert not device.unhealthy(rate=0.3)
    assert not device.unhealthy(min_runs=5)
    few = DeviceHealth("b2", "bluepill", "rack1", runs=3, infra=3, retries=0, last_night="2026-02-04",
                       last_error=None)
    assert not few.unhealthy() and few.unhealthy(min_runs=3)
    none = DeviceHealth("b3", "bluepill", "", runs=0, infra=0, retries=0, last_night="", last_error=None)
    assert none.rate == 0.0 and not none.unhealthy()


def test_the_last_error_is_from_the_window_too(history: History) -> None:
    night(history, "2026-01-01", checks("b1", "error", "infra", message="old probe error"))
    night(history, "2026-02-01", checks("b1"))
    (b1,) = device_health(history, since_night="2026-02-01")
    assert (b1.runs, b1.infra) == (1, 0)
    assert b1.last_error is None
    assert b1.describe() == ("b1 (bluepill): 0 of 1 binary runs failed for infrastructure reasons (0%) up to night "
                             "2026-02-01")
