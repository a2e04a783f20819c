"""farm_session: a lost coordinator is reconnected with backoff for a bounded time, then given up, after which
every call fails at once with one line (a quick look at its port aside); a first connection is one attempt."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from harness.farm import farm_runner
from harness.farm.places import FarmError


class FakeFarm:
    """Stands in for a labgrid client session: ``up`` says whether the coordinator answers."""

    up = True
    made = 0

    def __init__(self, coordinator: str, connect_timeout_s: float = 10.0) -> None:
        type(self).made += 1
        if not type(self).up:
            raise FarmError(f"cannot reach the labgrid coordinator at {coordinator}") from OSError("refused")
        self.lost = False

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakeFarm]]:
    monkeypatch.setattr(farm_runner, "Farm", FakeFarm)
    monkeypatch.setattr(farm_runner, "_FARMS", {})
    monkeypatch.setattr(farm_runner, "_REACHED", set())
    monkeypatch.setattr(farm_runner, "_GONE", {})
    monkeypatch.setattr(farm_runner, "_port_open", lambda coordinator: FakeFarm.up)
    FakeFarm.up, FakeFarm.made = True, 0
    yield FakeFarm


def test_a_first_connection_is_one_attempt(fake: type[FakeFarm]) -> None:
    fake.up = False
    with pytest.raises(FarmError, match="cannot reach"):
        farm_runner.farm_session("c:1", reconnect_timeout_s=30)
    assert fake.made == 1


def test_a_lost_coordinator_that_comes_back_is_reconnected(fake: type[FakeFarm]) -> None:
    farm_runner.farm_session("c:1").lost = True
    fake.up = False
    start = time.monotonic()
    threading.Timer(0.6, lambda: setattr(fake, "up", True)).start()
    farm = farm_runner.farm_session("c:1", reconnect_timeout_s=10)
    assert not farm.lost and fake.made >= 3 and time.monotonic() - start < 3


def test_a_coordinator_not_back_in_time_is_given_up_and_later_calls_fail_at_once(fake: type[FakeFarm]) -> None:
    farm_runner.farm_session("c:1").lost = True
    fake.up = False
    start = time.monotonic()
    with pytest.raises(FarmError) as first:
        farm_runner.farm_session("c:1", reconnect_timeout_s=1.0)
    assert 1.0 <= time.monotonic() - start < 3
    assert str(first.value).startswith("the labgrid coordinator at c:1 is gone: not back after 1 s of reconnecting")
    made, start = fake.made, time.monotonic()
    with pytest.raises(FarmError) as again:
        farm_runner.farm_session("c:1", reconnect_timeout_s=1.0)
    assert str(again.value) == str(first.value) and time.monotonic() - start < 0.1 and fake.made == made
    fake.up = True  # back after all: the look at its port finds it, and it is taken again
    assert not farm_runner.farm_session("c:1", reconnect_timeout_s=1.0).lost
    assert "c:1" not in farm_runner._GONE
