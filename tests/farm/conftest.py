"""Fixtures of the farm tests: the farm's network (namespaces, else 127.0.0.1, said out loud) and a farm on it."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from netns import FarmNetwork, why_not


@pytest.fixture
def farm_network() -> Iterator[FarmNetwork | None]:
    """A coordinator namespace and two exporter-host namespaces on a bridge (``tests/farm/netns.py``), torn down
    after the test whatever happened (failure, Ctrl-C); the test errors if a process or namespace of it was left.
    None where namespaces are not permitted: the farm then runs on 127.0.0.1, and the run says so."""
    reason = why_not()
    if reason is not None:
        message = f"farm network: no network namespaces ({reason}); the farm's hosts share 127.0.0.1"
        print(message, file=sys.stderr)
        warnings.warn(pytest.PytestWarning(message), stacklevel=1)
        yield None
        return
    network = FarmNetwork.create(2)
    assert network is not None
    print(f"farm network: {network.describe()}; this machine {network.runner_address}", file=sys.stderr)
    try:
        yield network
    finally:
        left = network.close()
        leftovers = network.leftovers()
    assert not left, f"processes still running in the farm's namespaces after the farm stopped: {left}"
    assert not leftovers, f"namespaces or links of the farm network left: {leftovers}"


@pytest.fixture
def netns_farm(farm_network: FarmNetwork | None) -> Iterator[Any]:
    """``harness.farm.demo.FarmDemo`` (a labgrid coordinator, two exporter hosts of one emulated bluepill each) on
    the farm network: every host at its own address when namespaces are permitted. Its processes are checked gone
    after it stopped."""
    from harness.board.boards import load_board
    from harness.farm.demo import FarmDemo, Loopback

    demo = FarmDemo(load_board("bluepill"), hosts=2, network=farm_network or Loopback())
    try:
        with demo:
            yield demo
    finally:
        alive = [p.pid for p in demo.processes if p.poll() is None]
        alive += [b.process.pid for b in demo.boards.values() if b.process.poll() is None]
    assert not alive, f"processes of the farm demo still running after it stopped: {alive}"
