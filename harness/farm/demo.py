"""A labgrid farm on one machine: a coordinator and N exporter "hosts" on 127.0.0.1, each
exporting emulated boards (QEMU behind a loopback GDB stub and a raw TCP UART).

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
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise FarmError(f"{what} exited with status {proc.returncode} before it listened on {port}")
        with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), timeout=0.2):
            return
        time.sleep(0.05)
    raise FarmError(f"{what} did not listen on {LOOPBACK}:{port} within {timeout_s:.0f} s")


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

    def start(self) -> FarmDemo:
        from harness.runners.gdbremote.qemu_board import start_qemu_board

        port = _free_port()
        self.coordinator = f"{LOOPBACK}:{port}"
        log = (self.workdir / "coordinator.log").open("wb")
        coordinator = procs.spawn([_tool("labgrid-coordinator"), "--listen", self.coordinator], cwd=self.workdir,
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(coordinator)
        _wait_port(port, coordinator, "labgrid-coordinator")
        qemu = self.board.section("qemu")
        for host_index in range(1, self.hosts + 1):
            host = f"farmhost{host_index}"
            lines = []
            for board_index in range(1, self.boards_per_host + 1):
                name = f"{host}-{self.board.name}-{board_index}"
                emulated = start_qemu_board(str(qemu["machine"]), int(qemu.get("serial", 0)),
                                            log_dir=self.workdir / "qemu")
                self.boards[name] = emulated
                lines += [f"{name}:", "  NetworkSerialPort:", f"    host: {LOOPBACK}",
                          f"    port: {emulated.serial_port}", "    protocol: raw",
                          "  GDBServer:", f"    host: {LOOPBACK}", f"    port: {emulated.gdb_port}"]
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
        return [_tool("labgrid-exporter"), "-c", self.coordinator, "-n", host, "--hostname", LOOPBACK,
                str(self.workdir / f"{host}.yaml")]

    def _supervise(self) -> None:
        """Restarts an exporter that exited: labgrid's exporter ends when its coordinator goes away (a restart,
        a crash), and a farm host's service manager would start it again; so does the demo, every second until
        the coordinator takes it back."""
        while not self._stopping.wait(1.0):
            for host, proc in list(self.exporters.items()):
                if proc.poll() is None:
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
        port = int(self.coordinator.rsplit(":", 1)[1])
        log = (self.workdir / "coordinator.log").open("ab")
        coordinator = procs.spawn([_tool("labgrid-coordinator"), "--listen", self.coordinator], die_with_parent=False,
                                  cwd=self.workdir, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.processes[0] = coordinator
        _wait_port(port, coordinator, "labgrid-coordinator")
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
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
