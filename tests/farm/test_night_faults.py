"""``harness farm night`` (the real CLI) on a two-host labgrid farm whose parts fail mid-night, as on a real farm.

The coordinator and each exporter host live in network namespaces of their own (``conftest.farm_network``:
10.77.<n>.1, .11, .12; the night runs from this machine at .254), else on 127.0.0.1 (said in the output). A night
of six bluepill micro binaries and one that runs for a few seconds (``fixtures/farm_slow.cc``) runs with ``-n 2``;
while the slow binary's core runs on a host's board (its UART has been printing for 0.4 s), one part of that host
fails:

* its exporter is SIGKILLed (and not restarted): the binary in flight finishes (its board does not need the
  exporter), the place is out with the real reason, the rest of the night runs on the other host;
* its link is cut (its veth down: no reset, nothing answers): the binary's attempt there ends as an infrastructure
  error in seconds (not a test timeout after the binary's whole deadline, not a hang), runs again on the other host
  and passes; the place is tagged unhealthy with the reason; brought back and cleared, the place serves again;
* its board (the emulated board's process behind the exporter) is SIGKILLed: as the link cut, with the board's
  reason (the runner-level board kill is ``test_labgrid_places``; this is the night, its history and page).

Each checks the exit status, the JUnit file against the history, the history's results, failed attempts and health
notes, the report's status and what it says of the place, and that nothing of the night is left running (the
fixtures check the farm's processes and namespaces).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from farm_helpers import Night, night_with_a_fault, page_status, put
from harness_helpers import mcu_unavailable

pytest.importorskip("labgrid", reason="the device farm needs labgrid: pip install labgrid")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(mcu_unavailable() is not None, reason=str(mcu_unavailable()))]

MICRO = ["micro_test_test", "common_test", "micro_log_test", "micro_op_resolver_test", "builtin_parser_test",
         "model_structure_test"]
SLOW = "farm_slow_test"
BINARIES = [*MICRO, SLOW]


@pytest.fixture
def paths(tmp_path: Path) -> list[str]:
    work = tmp_path / "work"
    work.mkdir()
    return [str(put(work, "farm_slow")), *(f"micro_runtime/{name}.cc" for name in MICRO)]


@pytest.fixture
def watcher(netns_farm: Any) -> Iterator[Any]:
    """A labgrid client of this process: the places' tags, a place taken back after a fault."""
    from harness.farm.places import Farm

    farm = Farm(netns_farm.coordinator)
    try:
        yield farm
    finally:
        farm.close()


def _uart_output(address: str, port: int) -> dict[str, int]:
    """This machine's open connections to a board's UART (local address -> bytes received so far)."""
    out = subprocess.run(["ss", "-tinH", "state", "established", "dst", f"{address}:{port}"], capture_output=True,
                         text=True, timeout=10, check=False).stdout
    found, local = {}, ""
    for line in out.splitlines():
        if line and not line[0].isspace():
            local = line.split()[2]
            found[local] = 0
        elif local and "bytes_received:" in line:
            found[local] = int(line.split("bytes_received:", 1)[1].split()[0])
    return found


class SlowRun:
    """``ready()`` of the night: true once the slow binary's core runs on a board — a UART connection of this
    machine that has been receiving output for 0.4 s (a micro binary's core runs for milliseconds). Then ``host``
    and ``place`` name where, ``other`` the other place."""

    def __init__(self, demo: Any) -> None:
        self.demo = demo
        self.first_output: dict[tuple[str, str], float] = {}
        self.host = self.place = self.other = ""

    def __call__(self) -> bool:
        now = time.monotonic()
        for place, board in self.demo.boards.items():
            host = place.split("-", 1)[0]
            for local, received in _uart_output(self.demo.network.address(host), board.serial_port).items():
                if received and now - self.first_output.setdefault((place, local), now) >= 0.4:
                    self.host, self.place = host, place
                    self.other = next(p for p in self.demo.boards if p != place)
                    return True
        return False


def _by_device(night: Night) -> dict[str, int]:
    """Binaries per place that ran them (their binary-checks record)."""
    counts: dict[str, int] = {}
    for r in night.results:
        if r.case_id.endswith("::binary-checks"):
            counts[r.device_id or ""] = counts.get(r.device_id or "", 0) + 1
    return counts


def _common(night: Night, slow: SlowRun) -> dict[str, Any]:
    """What every fault here must give: each binary accounted for and passed, no test failure, the night green
    (exit 0), every binary after the fault on the other place, nothing with a traceback."""
    (night.page.parent / "night-output.txt").write_text(night.output)
    print(f"night: exit {night.status}, ended {night.ended_after_s:.1f} s after the fault on {slow.place} "
          f"({night.done_at_fault} binaries done before it); ran on {_by_device(night)}; failed attempts: "
          f"{[(a['binary'], a['device_id'], a['error']) for a in night.attempts]}; health notes: "
          f"{[n for n in night.notes if n[0] == 'health']}")
    checks = night.checks(BINARIES)
    for result in night.results:
        assert result.outcome == "passed" or result.failure_class == "infra", result
    assert night.status == 0, night.output[-4000:]
    assert {name: r.outcome for name, r in checks.items()} == dict.fromkeys(BINARIES, "passed"), night.output[-4000:]
    assert "Traceback" not in night.output and "TimeoutError" not in night.output, night.output[-4000:]
    ran = _by_device(night)
    assert set(ran) <= {slow.place, slow.other}, ran
    # At the fault the slow binary ran on slow.place; whatever started after it ran on the other place.
    assert ran.get(slow.other, 0) >= len(BINARIES) - night.done_at_fault - 1, (ran, night.done_at_fault)
    assert page_status(night.page) == "GREEN"
    assert slow.place in night.page.read_text()
    return checks


def _health_notes(night: Night, place: str) -> list[str]:
    return [text for kind, subject, text in night.notes if kind == "health" and subject == place]


def _tag(watcher: Any, place: str) -> str | None:
    return next(p for p in watcher.places() if p.name == place).unhealthy


def test_an_exporter_killed_mid_night_takes_its_place_out_and_the_night_goes_on(netns_farm: Any, watcher: Any,
                                                                                paths: list[str],
                                                                                tmp_path: Path) -> None:
    """SIGKILL to the exporter of the host whose board runs the slow binary (not restarted): that binary finishes
    there, every later one runs on the other host, the night is green, and the history and the page name the place
    as out with its real reason (its exporter is gone) — waited for, not tagged (an exporter may come back)."""
    slow = SlowRun(netns_farm)
    night = night_with_a_fault(netns_farm.coordinator, tmp_path, paths,
                               lambda: netns_farm.kill_exporter(slow.host), after=0, ready=slow)
    checks = _common(night, slow)
    assert checks[SLOW].device_id == slow.place and checks[SLOW].infra_retries == 0
    assert not night.attempts, [dict(a) for a in night.attempts]
    gone = f"its exporter on host {slow.host} is gone"
    assert any(gone in text for text in _health_notes(night, slow.place)), night.notes
    assert not _health_notes(night, slow.other), night.notes
    assert not _tag(watcher, slow.place)
    assert gone in night.page.read_text()


def test_a_host_whose_link_is_cut_mid_night_fails_as_infra_and_its_work_moves(netns_farm: Any, watcher: Any,
                                                                              paths: list[str],
                                                                              tmp_path: Path) -> None:
    """The link of the host whose board runs the slow binary goes down (its veth, outside its namespace): nothing
    answers, nothing resets the connections. The attempt there ends as an infrastructure error within seconds
    (was: a test *timeout* after the binary's whole deadline, 65 s, the night red), the binary runs again on the
    other host and passes; the place is tagged unhealthy farm-wide with the reason, in the history and on the page.
    The link back and the tag cleared (``harness farm clear``), the place serves again."""
    network = netns_farm.network
    if not hasattr(network, "cut"):
        pytest.skip("no network namespaces here (see the farm network warning): a host's link cannot be cut")
    slow = SlowRun(netns_farm)
    night = night_with_a_fault(netns_farm.coordinator, tmp_path, paths, lambda: network.cut(slow.host), after=0,
                               ready=slow)
    checks = _common(night, slow)
    assert night.ended_after_s < 45, night.ended_after_s
    failed = [(a["binary"], a["device_id"]) for a in night.attempts]
    assert failed == [(SLOW, slow.place)], [dict(a) for a in night.attempts]
    assert checks[SLOW].device_id == slow.other and checks[SLOW].infra_retries == 1
    tag = _tag(watcher, slow.place)
    assert tag, "the place whose link was cut is not tagged unhealthy"
    assert any(f"unhealthy on {netns_farm.coordinator}" in text and tag in text
               for text in _health_notes(night, slow.place)), night.notes
    # The link back, the tag cleared: the place's board answers again and can be taken.
    from harness.farm.places import FarmError

    network.restore(slow.host)
    assert watcher.clear([slow.place]) == [slow.place]
    deadline, taken = time.monotonic() + 30, None
    while taken is None and time.monotonic() < deadline:
        try:
            taken = watcher.acquire("bluepill", exclude={slow.other}, timeout_s=2)
        except FarmError:  # its exporter is still reconnecting to the coordinator
            time.sleep(0.5)
    assert taken is not None and taken.name == slow.place, f"{slow.place} did not come back with its link"
    watcher.release(slow.place)


def test_a_board_killed_mid_night_is_retried_on_the_other_host(netns_farm: Any, watcher: Any, paths: list[str],
                                                               tmp_path: Path) -> None:
    """The emulated board running the slow binary is SIGKILLed (its exporter stays): that attempt is an
    infrastructure error blamed on its place, the binary passes on the other host, the place is tagged unhealthy
    with the board's reason, the night is green and its page names the place."""
    slow = SlowRun(netns_farm)
    night = night_with_a_fault(netns_farm.coordinator, tmp_path, paths,
                               lambda: os.kill(netns_farm.boards[slow.place].process.pid, signal.SIGKILL),
                               after=0, ready=slow)
    checks = _common(night, slow)
    assert night.ended_after_s < 30, night.ended_after_s
    assert [(a["binary"], a["device_id"]) for a in night.attempts] == [(SLOW, slow.place)]
    assert checks[SLOW].device_id == slow.other and checks[SLOW].infra_retries == 1
    tag = _tag(watcher, slow.place)
    assert tag, "the place whose board was killed is not tagged unhealthy"
    assert any(tag in text for text in _health_notes(night, slow.place)), night.notes
