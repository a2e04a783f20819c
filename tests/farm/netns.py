"""A farm's network on one machine: one Linux network namespace per exporter host and one for the coordinator.

Each namespace has its own address on a private bridge (``10.77.<n>.1`` the coordinator, ``10.77.<n>.11`` and up
the exporter hosts, ``10.77.<n>.254`` this machine: the CI runner that runs the night), joined by a veth pair whose
outer end is on the bridge. A host's link is cut the way a cable or a switch port fails: its outer veth down
(``cut``), and brought back with ``restore``. Processes of a namespace are started through ``wrap(where)``
(``ip netns exec NS ...``, which execs the program: the pid is the program's).

``FarmNetwork.create()`` needs root and ``ip``; where namespaces are not permitted (or ``HARNESS_FARM_NETNS=0``) it
returns None with the reason (``why_not``), and the tests fall back to 127.0.0.1 and say so. Everything is torn
down by ``close`` (processes of the namespaces, veths, bridge, namespaces), which also reports what was still
running; namespaces left by a run that was killed before its teardown (named after its pid) are removed by the
next ``create``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field

from harness.farm.places import pid_alive

PREFIX = "hf"  # hf<pid>c, hf<pid>h1, hf<pid>br: short enough for interface names (15 characters)
_OURS = re.compile(rf"^{PREFIX}(\d+)(?:c|h\d+|br|v\w+)$")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=False)
    if check and proc.returncode != 0:
        raise OSError(f"ip {' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
    return proc


def why_not() -> str | None:
    """Why network namespaces cannot be made here, or None. ``HARNESS_FARM_NETNS=0`` asks for 127.0.0.1 anyway."""
    if os.environ.get("HARNESS_FARM_NETNS") == "0":
        return "HARNESS_FARM_NETNS=0"
    if os.geteuid() != 0:
        return "not root (ip netns needs CAP_SYS_ADMIN)"
    if shutil.which("ip") is None:
        return "no ip command (apt-get install iproute2)"
    return None


def namespace_pids(namespace: str) -> list[int]:
    proc = _ip("netns", "pids", namespace, check=False)
    return [int(x) for x in proc.stdout.split() if x.isdigit()] if proc.returncode == 0 else []


def _our_names() -> tuple[list[str], list[str]]:
    namespaces = [line.split()[0] for line in _ip("netns", "list", check=False).stdout.splitlines() if line.strip()]
    links = [m.group(1) for m in re.finditer(r"^\d+: ([^:@\s]+)", _ip("-o", "link", check=False).stdout, re.M)]
    return [n for n in namespaces if _OURS.match(n)], [n for n in links if _OURS.match(n)]


def remove_stale() -> list[str]:
    """Namespaces and links of farm networks whose test process is gone (killed before its teardown)."""
    namespaces, links = _our_names()
    removed = []
    for name in namespaces + links:
        match = _OURS.match(name)
        if match is None or pid_alive(int(match.group(1))):
            continue
        if name in namespaces:
            for pid in namespace_pids(name):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            _ip("netns", "del", name, check=False)
        else:
            _ip("link", "del", name, check=False)
        removed.append(name)
    return removed


def _free_subnet() -> int:
    routes = _ip("-4", "route", "show", check=False).stdout + _ip("-4", "addr", check=False).stdout
    for n in range(0, 250):
        if f"10.77.{n}." not in routes:
            return n
    raise OSError("no free 10.77.<n>.0/24 subnet for the farm network")


@dataclass
class FarmNetwork:
    """See module doc. ``hosts`` exporter hosts named ``farmhost1``... as ``harness.farm.demo`` names them."""

    hosts: int = 2
    tag: str = field(default_factory=lambda: f"{PREFIX}{os.getpid()}")
    subnet: int = 0
    namespaces: dict[str, str] = field(default_factory=dict)  # "coordinator" / host name -> namespace
    links: dict[str, str] = field(default_factory=dict)  # same keys -> outer veth on the bridge
    addresses: dict[str, str] = field(default_factory=dict)  # same keys -> address

    @classmethod
    def create(cls, hosts: int = 2) -> FarmNetwork | None:
        if why_not() is not None:
            return None
        remove_stale()
        network = cls(hosts)
        atexit.register(network.close)  # a test process that ends without its teardown (the fixture's, normally)
        try:
            network._setup()
        except (OSError, subprocess.SubprocessError):
            network.close()
            raise
        return network

    @property
    def bridge(self) -> str:
        return f"{self.tag}br"

    @property
    def runner_address(self) -> str:
        return f"10.77.{self.subnet}.254"

    def _setup(self) -> None:
        self.subnet = _free_subnet()
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("link", "set", self.bridge, "up")
        _ip("addr", "add", f"{self.runner_address}/24", "dev", self.bridge)
        places = [("coordinator", "c", 1)] + [(f"farmhost{i}", f"h{i}", 10 + i) for i in range(1, self.hosts + 1)]
        for key, short, last in places:
            namespace, outer, inner = f"{self.tag}{short}", f"{self.tag}v{short}", f"{self.tag}i{short}"
            _ip("netns", "add", namespace)
            self.namespaces[key] = namespace
            _ip("link", "add", outer, "type", "veth", "peer", "name", inner, "netns", namespace)
            self.links[key] = outer
            _ip("link", "set", outer, "master", self.bridge, "up")
            _ip("-n", namespace, "link", "set", inner, "name", "eth0")
            _ip("-n", namespace, "link", "set", "lo", "up")
            _ip("-n", namespace, "addr", "add", f"10.77.{self.subnet}.{last}/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            self.addresses[key] = f"10.77.{self.subnet}.{last}"

    # -- what the farm demo asks ------------------------------------------------------------
    def address(self, where: str) -> str:
        return self.addresses[where]

    def wrap(self, where: str) -> list[str]:
        return ["ip", "netns", "exec", self.namespaces[where]]

    # -- faults -----------------------------------------------------------------------------
    def cut(self, where: str) -> None:
        """The host's link goes down (its cable pulled): nothing reaches it, nothing it sends arrives, no reset."""
        _ip("link", "set", self.links[where], "down")

    def restore(self, where: str) -> None:
        _ip("link", "set", self.links[where], "up")

    def describe(self) -> str:
        return ", ".join(f"{key} {self.addresses[key]} (netns {ns})" for key, ns in self.namespaces.items())

    # -- teardown ---------------------------------------------------------------------------
    def running(self) -> dict[str, list[int]]:
        """Processes still running in the namespaces."""
        return {ns: pids for ns in self.namespaces.values() if (pids := namespace_pids(ns))}

    def close(self) -> dict[str, list[int]]:
        """Kills what still runs in the namespaces, removes veths, bridge and namespaces; returns what was still
        running (a test's teardown reports it as a leak)."""
        atexit.unregister(self.close)
        left = self.running()
        for pids in left.values():
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        for outer in self.links.values():  # deleting a namespace frees its veth only later (asynchronously)
            _ip("link", "del", outer, check=False)
        for namespace in self.namespaces.values():
            _ip("netns", "del", namespace, check=False)
        _ip("link", "del", self.bridge, check=False)
        return left

    def leftovers(self) -> list[str]:
        """Namespaces and links of this network that still exist (after ``close``: none)."""
        namespaces, links = _our_names()
        return [n for n in namespaces + links if (m := _OURS.match(n)) and f"{PREFIX}{m.group(1)}" == self.tag]
