"""A labgrid farm on one machine: a coordinator and N exporter "hosts" on 127.0.0.1, each
exporting emulated boards (QEMU behind a loopback GDB stub and a raw TCP UART).

With a ``network`` (``FarmDemo(network=...)``: an object with ``address(where)`` and ``wrap(where)`` for
``"coordinator"`` and each host name, e.g. the tests' network namespaces, ``tests/farm/netns.py``) every host
has an address of its own: the coordinator, each exporter and its boards run inside their host (``wrap``
prefixes their command line) and listen on its address, as on a real farm.

    harness farm demo --board bluepill --hosts 2 --boards-per-host 1 -o farm.toml

starts it and writes a hardware map whose ``[farm]`` table names the coordinator; then
``pytest --board=bluepill --hardware-map farm.toml -n 2`` runs the micro tests across the
hosts. Every process is started through ``harness.core.procs`` (own process group, dies with the
harness) and stopped on Ctrl-C/SIGTERM or when ``FarmDemo`` closes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.board.boards import Board
from harness.core import procs
from harness.farm.places import Farm, FarmError

LOOPBACK = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    if not Path(found).exists():
        raise FarmError(f"{name} not found; install labgrid: pip install labgrid")
    return found


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout_s: float = 20.0,
               host: str = LOOPBACK) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise FarmError(f"{what} exited with status {proc.returncode} before it listened on {host}:{port}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
            return
        time.sleep(0.05)
    raise FarmError(f"{what} did not listen on {host}:{port} within {timeout_s:.0f} s")


class HostNetwork(Protocol):
    """Where the farm's parts live: ``"coordinator"`` and each host name -> its address and the command prefix
    that starts a program inside it."""

    def address(self, where: str) -> str: ...

    def wrap(self, where: str) -> list[str]: ...


class Loopback:
    """Every host on 127.0.0.1, programs started as they are (the default)."""

    def address(self, where: str) -> str:
        return LOOPBACK

    def wrap(self, where: str) -> list[str]:
        return []


COORDINATOR_PORT = 20408  # labgrid's default; a host of its own has it free
GDB_PORT, SERIAL_PORT = 3333, 4001  # per host, plus the board's index - 1


def _start_board_on(network: HostNetwork, host: str, index: int, machine: str, serial_slot: int,
                    log_dir: Path) -> Any:
    """An emulated board inside ``host``, its GDB stub and UART on the host's address (fixed ports: the host is
    its own)."""
    from harness.runners.gdbremote.qemu_board import QEMU, QemuBoard

    address, gdb_port, serial_port = network.address(host), GDB_PORT + index - 1, SERIAL_PORT + index - 1
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"qemu-{host}-{index}.log"
    argv = [*network.wrap(host), QEMU, "-M", machine, "-display", "none", "-monitor", "none", "-nodefaults", "-S",
            "-gdb", f"tcp:{address}:{gdb_port}", *["-serial", "null"] * serial_slot,
            "-serial", f"tcp:{address}:{serial_port},server=on,wait=off"]
    with log_path.open("wb") as out:
        process = procs.spawn(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    _wait_port(gdb_port, process, f"the emulated board {index} of {host}", host=address)
    return QemuBoard(machine, gdb_port, serial_port, process, log_path)


@dataclass
class FarmDemo:
    board: Board
    hosts: int = 2
    boards_per_host: int = 1
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="harness-farm-")))
    coordinator: str = ""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    boards: dict[str, Any] = field(default_factory=dict)  # place name -> QemuBoard
    exporters: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)  # host name -> process
    network: HostNetwork = field(default_factory=Loopback)
    unsupervised: set[str] = field(default_factory=set)  # hosts whose exporter is not restarted (kill_exporter)

    def start(self) -> FarmDemo:
        from harness.runners.gdbremote.qemu_board import start_qemu_board

        address = self.network.address("coordinator")
        port = _free_port() if address == LOOPBACK else COORDINATOR_PORT
        self.coordinator = f"{address}:{port}"
        self.processes.append(self._spawn_coordinator(open_mode="wb"))
        qemu = self.board.section("qemu")
        for host_index in range(1, self.hosts + 1):
            host = f"farmhost{host_index}"
            where = self.network.address(host)
            lines = []
            for board_index in range(1, self.boards_per_host + 1):
                name = f"{host}-{self.board.name}-{board_index}"
                if where == LOOPBACK:
                    emulated = start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)),
                                                log_dir=self.workdir / "qemu")
                else:
                    emulated = _start_board_on(self.network, host, board_index, str(qemu["machine"]),
                                               int(qemu.get("serial", 0)), self.workdir / "qemu")
                self.boards[name] = emulated
                lines += [f"{name}:", "  NetworkSerialPort:", f"    host: {where}",
                          f"    port: {emulated.serial_port}", "    protocol: raw",
                          "  GDBServer:", f"    host: {where}", f"    port: {emulated.gdb_port}"]
            config = self.workdir / f"{host}.yaml"
            config.write_text("\n".join(lines) + "\n")
            out = (self.workdir / f"{host}.log").open("wb")
            exporter = procs.spawn(self._exporter_argv(host), cwd=self.workdir,
                                   stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
            self.processes.append(exporter)
            self.exporters[host] = exporter
        self._create_places()
        self._stopping = threading.Event()
        self._supervisor = threading.Thread(target=self._supervise, name="farm-demo-exporters", daemon=True)
        self._supervisor.start()
        return self

    def _exporter_argv(self, host: str) -> list[str]:
        return [*self.network.wrap(host), _tool("labgrid-exporter"), "-c", self.coordinator, "-n", host,
                "--hostname", self.network.address(host), str(self.workdir / f"{host}.yaml")]

    def _spawn_coordinator(self, open_mode: str, die_with_parent: bool = True) -> subprocess.Popen[bytes]:
        host, port = self.coordinator.rsplit(":", 1)
        log = (self.workdir / "coordinator.log").open(open_mode)
        coordinator = procs.spawn([*self.network.wrap("coordinator"), _tool("labgrid-coordinator"), "--listen",
                                   self.coordinator], die_with_parent=die_with_parent, cwd=self.workdir,
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        _wait_port(int(port), coordinator, "labgrid-coordinator", host=host)
        return coordinator

    def kill_exporter(self, host: str) -> None:
        """SIGKILLs ``host``'s exporter and keeps it dead (not restarted by the supervisor): a host whose exporter
        died and whose service manager does not bring it back. Its boards keep running."""
        self.unsupervised.add(host)
        os.kill(self.exporters[host].pid, signal.SIGKILL)

    def _supervise(self) -> None:
        """Restarts an exporter that exited: labgrid's exporter ends when its coordinator goes away (a restart,
        a crash), and a farm host's service manager would start it again; so does the demo, every second until
        the coordinator takes it back."""
        while not self._stopping.wait(1.0):
            for host, proc in list(self.exporters.items()):
                if proc.poll() is None or host in self.unsupervised:
                    continue
                procs.reap(proc)
                out = (self.workdir / f"{host}.log").open("ab")
                # From this thread, while a labgrid client's gRPC threads may run in the process: no Python code
                # in the child (die_with_parent=False); stop() and the session's leftover check end it.
                restarted = procs.spawn(self._exporter_argv(host), die_with_parent=False, cwd=self.workdir,
                                        stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
                self.processes.append(restarted)
                self.exporters[host] = restarted

    def wait_for_saved_places(self, timeout_s: float = 30.0) -> None:
        """labgrid's coordinator writes its places to ``places.yaml`` in its folder every 15 s when they changed,
        and reads them back when it starts: waits for that file, as a coordinator that has run a while has it."""
        deadline = time.monotonic() + timeout_s
        while not (self.workdir / "places.yaml").is_file():
            if time.monotonic() >= deadline:
                raise FarmError(f"the coordinator did not save its places to {self.workdir}/places.yaml "
                                f"in {timeout_s:.0f} s")
            time.sleep(0.5)

    def coordinator_exited(self) -> int | None:
        """The exit status of the coordinator when it is no longer running, else None."""
        return self.processes[0].poll()

    def restart_coordinator(self) -> None:
        """Stops the coordinator (when it still runs: after it saved its places) and starts it again on the same
        address; the exporters it loses are restarted by the supervisor. A coordinator that died before it saved
        its places comes back without them: they are made again once the exporters have registered."""
        if self.processes[0].poll() is None:
            self.wait_for_saved_places()
        saved = (self.workdir / "places.yaml").is_file()
        old = self.processes[0]
        procs.reap(old, term_first=True)
        self.processes[0] = self._spawn_coordinator(open_mode="ab", die_with_parent=False)
        if not saved:
            self._create_places()

    def _create_places(self) -> None:
        farm = Farm(self.coordinator, owner=f"demo-{os.getpid()}-setup")
        try:
            deadline = time.monotonic() + 30
            wanted = set(self.boards)
            while not wanted <= farm.resource_groups():  # the exporters register their resources
                if time.monotonic() >= deadline:
                    raise FarmError(f"the exporters did not register {sorted(wanted)}; see {self.workdir}/*.log")
                time.sleep(0.1)
            for name in sorted(self.boards):
                host = name.split("-", 1)[0]
                farm.add_place(name, f"{host}/{name}/*", {"board": self.board.name, "emulated": "1", "host": host})
        finally:
            farm.close()

    def write_map(self, path: Path) -> Path:
        path.write_text(
            "# A labgrid device farm: boards are the coordinator's places tagged board=<name>\n"
            f'[farm]\ncoordinator = "{self.coordinator}"\n'
        )
        return path

    def stop(self) -> None:
        stopping = getattr(self, "_stopping", None)
        if stopping is not None:
            stopping.set()
            self._supervisor.join(timeout=5)
        for emulated in self.boards.values():
            with contextlib.suppress(Exception):
                emulated.stop()
        for proc in reversed(self.processes):
            procs.reap(proc, term_first=True)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> FarmDemo:
        try:
            return self.start()
        except BaseException:  # half started: nothing of it may be left running
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()
