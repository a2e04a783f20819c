"""The shutdown registry: each registered close runs once, in order, all of them even when one fails."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from harness.board.boards import load_board
from harness.core import shutdown


@pytest.fixture(autouse=True)
def _empty_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(shutdown, "_callbacks", [])  # this process's real registrations stay as they are
    yield


def test_callbacks_run_once_in_registration_order() -> None:
    ran: list[str] = []

    def renode() -> None:
        ran.append("renode")

    def farm() -> None:
        ran.append("farm")

    shutdown.on_session_end(renode)
    shutdown.on_session_end(farm)
    shutdown.on_session_end(renode)  # a second Renode start before the end: still one close
    shutdown.run_shutdown()
    assert ran == ["renode", "farm"]
    shutdown.run_shutdown()  # nothing opened since: nothing to close
    assert ran == ["renode", "farm"]
    shutdown.on_session_end(farm)  # opened again: closed again at the next end
    shutdown.run_shutdown()
    assert ran == ["renode", "farm", "farm"]


def test_every_callback_runs_and_the_first_error_is_raised() -> None:
    ran: list[str] = []

    def broken() -> None:
        ran.append("broken")
        raise RuntimeError("monitor gone")

    def also_broken() -> None:
        ran.append("also broken")
        raise OSError("socket closed")

    def fine() -> None:
        ran.append("fine")

    for callback in (broken, also_broken, fine):
        shutdown.on_session_end(callback)
    with pytest.raises(RuntimeError, match="monitor gone"):
        shutdown.run_shutdown()
    assert ran == ["broken", "also broken", "fine"]
    shutdown.run_shutdown()
    assert ran == ["broken", "also broken", "fine"]


def test_acquiring_a_farm_place_registers_the_release(monkeypatch: pytest.MonkeyPatch) -> None:
    """The farm runner registers ``close_sessions`` (release every held place) when it acquires a place."""
    from harness.farm import farm_runner

    class Farm:
        def acquire(self, board: str, exclude: set[str], timeout_s: float) -> SimpleNamespace:
            return SimpleNamespace(name=f"{board}-1", tags={})

    monkeypatch.setattr(farm_runner, "farm_session", lambda coordinator, *reconnect: Farm())
    pool = farm_runner.PlacePool(farm_runner.FarmRunner(SimpleNamespace(farm={"coordinator": "farm:20408"})))
    assert shutdown._callbacks == []
    lease = pool.acquire(load_board("bluepill"), set())
    assert lease.name == "bluepill-1"
    assert shutdown._callbacks == [farm_runner.close_sessions]
