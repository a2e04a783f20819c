"""Serial backend for real: QEMU's UART on a loopback TCP socket, and a Linux pty."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness import REPO_ROOT
from harness.board.boards import load_board
from harness.formats.reader import parse_log
from harness.runners import get_runner
from harness.runners.failure_classes import INFRA, classify_run
from harness.runners.gdbremote.qemu_board import QemuBoard, free_port
from harness.runners.serial_runner import SerialConfig, SerialRunner
from harness.runners.uart import START_MARKER
from harness.testing.hil_fw import MACHINE, HilFirmware, hil_firmware, qemu_board  # noqa: F401  (fixtures)

BLUEPILL = load_board("bluepill")



def test_the_serial_backend_imports_without_pyocd() -> None:
    """Only the probe backends need pyOCD: the serial runner imports where pyOCD cannot be imported."""
    code = "import sys; sys.modules['pyocd']=None; import harness.runners.serial_runner"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, env=env,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr


def _qemu_waiting_on_uart(elf: Path) -> tuple[subprocess.Popen[bytes], str]:
    """QEMU with ``elf``, USART2 on a TCP server that holds the CPU until the runner connects."""
    port = free_port()
    argv = ["qemu-system-arm", "-M", MACHINE, "-display", "none", "-monitor", "none", "-nodefaults"]
    argv += ["-serial", "null", "-serial", f"tcp:127.0.0.1:{port},server=on,wait=on", "-kernel", str(elf)]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # wait until QEMU listens (without connecting: that starts it)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                break
        time.sleep(0.05)
    return proc, f"socket://127.0.0.1:{port}"


@pytest.fixture
def qemu_uart(hil_firmware: HilFirmware) -> Iterator[Callable[[str], str]]:  # noqa: F811
    procs: list[subprocess.Popen[bytes]] = []

    def start(variant: str) -> str:
        proc, url = _qemu_waiting_on_uart(hil_firmware(variant))
        procs.append(proc)
        return url

    yield start
    for proc in procs:
        proc.kill()
        proc.wait(timeout=5)


@pytest.mark.emulator
def test_handshake_firmware_over_qemu_uart_socket(qemu_uart: Callable[[str], str]) -> None:
    url = qemu_uart("uart_handshake")
    run = SerialRunner(SerialConfig(url)).run(Path("unused.elf"), BLUEPILL, 20.0)
    assert run.end_reason == "end-marker", run
    text = run.log.decode()
    assert text.startswith(START_MARKER)  # nothing before the marker was lost or garbled
    assert "line 39 of filler" in text
    assert parse_log(run.log, run).outcome == "passed"
    assert run.exit_code is None  # a UART cannot carry the exit status; the sentinel decides


@pytest.mark.emulator
def test_debug_log_auto_uses_uart_without_a_debugger(qemu_uart: Callable[[str], str]) -> None:
    url = qemu_uart("auto_handshake")  # DHCSR.C_DEBUGEN is 0 under QEMU: no semihosting BKPTs
    run = SerialRunner(SerialConfig(url)).run(Path("unused.elf"), BLUEPILL, 20.0)
    assert parse_log(run.log, run).outcome == "passed", run


@pytest.mark.emulator
def test_firmware_gives_up_waiting_for_the_handshake(qemu_uart: Callable[[str], str]) -> None:
    url = qemu_uart("uart_handshake")
    run = SerialRunner(SerialConfig(url, handshake=False)).run(Path("unused.elf"), BLUEPILL, 30.0)
    # The wait is bounded: the firmware starts on its own and the tests still run.
    assert parse_log(run.log, run).outcome == "passed", run


def test_unopenable_port_is_an_infra_error_with_the_fix() -> None:
    start = time.monotonic()
    run = SerialRunner(SerialConfig("/dev/ttyDOES_NOT_EXIST9")).run(Path("x.elf"), BLUEPILL, 5.0)
    assert run.end_reason == "infra-error"
    assert "dialout" in (run.infra_error or "")
    assert time.monotonic() - start < 2
    url = f"socket://127.0.0.1:{free_port()}"
    run = SerialRunner(SerialConfig(url)).run(Path("x.elf"), BLUEPILL, 5.0)
    assert run.end_reason == "infra-error" and "running" in (run.infra_error or "")


def test_no_serial_url_explains_how_to_configure() -> None:
    reason = get_runner("serial").unavailable_reason(BLUEPILL)
    assert reason is not None and "--hardware-map" in reason


def _pty() -> tuple[int, str]:
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)  # the runner opens it by name, like /dev/ttyACM0
    return master, name


def test_pty_device_one_deadline_for_a_chatty_device() -> None:
    """A device that never stops talking must still end at the overall deadline."""
    master, name = _pty()
    stop = threading.Event()

    def chatter() -> None:
        n = 0
        while not stop.is_set():
            try:
                os.write(master, f"tick {n}\r\n".encode())
            except OSError:  # EIO while the runner has not opened its end yet
                time.sleep(0.01)
                continue
            n += 1
            time.sleep(0.01)

    thread = threading.Thread(target=chatter, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        run = SerialRunner(SerialConfig(name, handshake=False)).run(Path("x.elf"), BLUEPILL, 1.0)
        elapsed = time.monotonic() - start
    finally:
        stop.set()
        thread.join(timeout=2)
        os.close(master)
    assert run.timed_out and run.end_reason == "timeout"
    assert 0.9 <= elapsed < 3.0  # the deadline, plus little
    assert b"tick 1\r\n" in run.log
    assert classify_run(run) == "timeout"  # it talked: a hang, not an infrastructure problem


def test_pty_device_handshake_then_sentinel() -> None:
    """The host pokes until the device answers with the start marker; lines split across reads are fine."""
    master, name = _pty()
    got_poke = threading.Event()

    def device() -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # EIO until the runner has opened its end
            try:
                if os.read(master, 1):  # the runner's first poke
                    break
            except OSError:
                time.sleep(0.01)
        else:
            return
        got_poke.set()
        for chunk in (b"~~~MICRO ST", b"ART~~~\r\nTesting A\r\n", b"1/1 tests passed\r\n~~~ALL TESTS PASSED~~~\r\n"):
            os.write(master, chunk)
            time.sleep(0.02)

    thread = threading.Thread(target=device, daemon=True)
    thread.start()
    try:
        run = SerialRunner(SerialConfig(name)).run(Path("x.elf"), BLUEPILL, 5.0)
    finally:
        thread.join(timeout=2)
        os.close(master)
    assert got_poke.is_set()
    assert run.end_reason == "end-marker" and run.duration_s < 3
    assert parse_log(run.log, run).outcome == "passed"


def test_silent_device_is_infrastructure() -> None:
    master, name = _pty()
    try:
        run = SerialRunner(SerialConfig(name)).run(Path("x.elf"), BLUEPILL, 0.5)
    finally:
        os.close(master)
    assert run.end_reason == "infra-error" and "no output at all" in (run.infra_error or "")
    assert classify_run(run) == INFRA


@pytest.mark.emulator
def test_serial_device_of_a_hardware_map_loaded_through_gdb(
    qemu_board: QemuBoard, hil_firmware: HilFirmware  # noqa: F811
) -> None:
    """backend = "serial" with gdb = ...: flashed and started over GDB, then only the UART is read."""
    from harness.hil.devices import Device
    from harness.hil.drivers import runner_for_device

    device = Device(
        id="emu", board="bluepill", backend="serial", serial=qemu_board.serial_url, gdb=qemu_board.gdb_address
    )
    runner = runner_for_device(device, BLUEPILL)
    assert isinstance(runner, SerialRunner) and runner.starter is not None
    for _ in range(2):  # and again: the board is re-flashed and restarted each time
        run = runner.run(hil_firmware("uart_handshake"), BLUEPILL, 20.0)
        assert run.log.decode().startswith(START_MARKER), run
        assert parse_log(run.log, run).outcome == "passed"


def test_dtr_reset_on_a_port_without_modem_lines_is_an_infra_error_with_the_fix() -> None:
    master, name = _pty()  # a pty has no DTR: the ioctl fails with ENOTTY
    try:
        run = SerialRunner(SerialConfig(name, reset="dtr", handshake=False)).run(Path("x.elf"), BLUEPILL, 2.0)
    finally:
        os.close(master)
    assert run.end_reason == "infra-error" and classify_run(run) == INFRA
    message = run.infra_error or ""
    assert f"cannot pulse DTR on {name}" in message and "no modem lines" in message
    assert "set reset = 'probe' or 'none' in the hardware map" in message


class _AdapterDtr:
    """The far side of an RFC 2217 serial server (ser2net-like): a USB-serial adapter whose DTR drives NRST.

    When DTR goes low again after a pulse, the "board" boots and prints its log.
    """

    def __init__(self, boot_log: bytes) -> None:
        import serial.rfc2217

        self.boot_log = boot_log
        self.changes: list[tuple[bool, float]] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"rfc2217://127.0.0.1:{self.listener.getsockname()[1]}"
        self._rfc2217 = serial.rfc2217
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def dtr(self) -> bool:
        return bool(self.changes and self.changes[-1][0])

    @dtr.setter
    def dtr(self, level: bool) -> None:  # what PortManager sets on the adapter
        was_high = self.dtr
        self.changes.append((level, time.monotonic()))
        if was_high and not level:
            self.connection.write(b"".join(self.manager.escape(self.boot_log)))

    # What PortManager reads and sets besides DTR: the line settings, the other modem lines, purges.
    baudrate, bytesize, parity, stopbits = 115200, 8, "N", 1
    rts = break_condition = xonxoff = rtscts = cts = dsr = ri = cd = False

    def reset_input_buffer(self) -> None:
        pass

    def reset_output_buffer(self) -> None:
        pass

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            self.connection = _Writer(conn)
            self.manager = self._rfc2217.PortManager(self, self.connection)
            while True:
                try:
                    data = conn.recv(1024)
                except OSError:
                    return
                if not data:
                    return
                for _ in self.manager.filter(data):  # bytes for the board's RX: nobody reads them
                    pass


class _Writer:
    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self.lock:
            self.conn.sendall(data)


def test_dtr_reset_pulse_over_rfc2217_boots_the_board() -> None:
    adapter = _AdapterDtr(b"Testing A\r\n1/1 tests passed\r\n~~~ALL TESTS PASSED~~~\r\n")
    try:
        run = SerialRunner(SerialConfig(adapter.url, reset="dtr", handshake=False)).run(Path("x.elf"), BLUEPILL, 10.0)
    finally:
        adapter.listener.close()
    assert run.end_reason == "end-marker", run
    assert parse_log(run.log, run).outcome == "passed"
    levels = [level for level, _ in adapter.changes]
    assert levels[-2:] == [True, False]  # one pulse: asserted, then released
    assert adapter.changes[-1][1] - adapter.changes[-2][1] >= 0.09  # held for RESET_PULSE_S
