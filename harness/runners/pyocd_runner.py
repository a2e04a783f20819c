"""Runs firmware on a real board through a debug probe with pyOCD (ST-Link, CMSIS-DAP, J-Link).

Flashes the ELF (``FileProgrammer``), resets, runs, and captures the log while
the core runs: semihosting serviced by pyOCD's ``SemihostAgent`` (with SYS_EXIT
and SYS_EXIT_EXTENDED handled by harness.runners.semihosting, which pyOCD does not
do), RTT up channel 0, and a UART on a serial port; all merged into one log.
Transports come from the board file's ``[log] transports``
(``"semihosting"``, ``"rtt"``, ``"uart"``).

Board file, table ``[pyocd]``: ``target = "stm32f103c8"`` (pyOCD target type),
optional ``frequency = 4000000``, ``pack = "path/to/Keil.STM32F1xx_DFP.pack"``.
The probe is chosen by unique id (hardware map, or ``[pyocd] probe``); with
no id and exactly one probe attached, that one. Never waits for a probe to
be plugged in: no probe is an infrastructure error with the fix.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.board.boards import Board
from harness.formats.reader import board_format
from harness.runners.base import DeviceSpec, OnLine, RunResult, ToolCheck, device_transports, exits_with_status
from harness.runners.control import token_writes
from harness.runners.retry import HostProblem
from harness.runners.stream import LogSink

if TYPE_CHECKING:  # pyOCD (semihosting) is imported when a run starts, so the module loads without it
    from harness.runners.semihosting import RttPoller

_INSTALL = "install it: pip install pyocd"


@dataclass
class PyocdConfig:
    target: str
    unique_id: str | None = None
    frequency: int | None = None
    pack: str | None = None
    serial: str | None = None  # UART to merge (pyserial URL)
    baudrate: int = 115200
    transports: tuple[str, ...] = ("semihosting",)

    @staticmethod
    def from_board(board: Board, unique_id: str | None = None, serial: str | None = None) -> PyocdConfig | None:
        table = board.section("pyocd")
        if not table.get("target"):
            return None
        transports = tuple(board.section("log").get("transports", ["semihosting"]))
        frequency = table.get("frequency")
        return PyocdConfig(
            target=str(table["target"]),
            unique_id=unique_id or table.get("probe") or None,
            frequency=int(frequency) if frequency else None,
            pack=table.get("pack") or None,
            serial=serial or board.section("serial").get("url") or None,
            baudrate=int(board.section("serial").get("baudrate", 115200)),
            transports=transports,
        )


def target_support_problem(target: str, pack: str | None = None) -> str | None:
    """None if pyOCD knows ``target``; else why not and the command that fixes it."""
    try:
        from pyocd.target import TARGET
        from pyocd.target.pack.pack_target import ManagedPacks
    except ImportError:
        return f"pyocd is not installed; {_INSTALL}"
    name = target.lower()
    if name in TARGET:
        return None
    if pack:
        return None if Path(pack).is_file() else f"CMSIS pack {pack} (board [pyocd] pack) does not exist"
    try:
        installed = {device.part_number.lower() for device in ManagedPacks.get_installed_targets()}
    except Exception as error:  # cmsis-pack-manager cache problems must not crash collection
        return f"cannot read pyOCD's installed CMSIS packs ({error}); run: pyocd pack update"
    if name in installed:
        return None
    return (
        f"pyOCD has no built-in support for target '{target}' and its CMSIS pack is not installed; "
        f"run: pyocd pack install {target}"
    )


def list_probes() -> list[Any]:
    """The debug probes attached right now (never waits for one)."""
    from pyocd.core.helpers import ConnectHelper

    return list(ConnectHelper.get_all_connected_probes(blocking=False, print_wait_message=False))


def probe_matches(wanted: str, probe: Any) -> bool:
    """pyOCD's unique-id match (``pyocd -u``): an optional ``type:`` prefix (stlink, cmsisdap, ...),
    then a case-insensitive part of the probe's id. Raises ValueError for a type pyOCD does not know.
    """
    probe_type, _, uid = wanted.partition(":") if ":" in wanted else ("", "", wanted)
    if probe_type:
        from pyocd.probe.aggregator import PROBE_CLASSES

        classes = [cls for name, cls in PROBE_CLASSES.items() if name.lower() == probe_type.lower()]
        if not classes:
            known = ", ".join(PROBE_CLASSES)
            raise ValueError(f"unknown debug probe type '{probe_type}' in {wanted!r}; use one of {known}")
        from pyocd.probe.debug_probe import DebugProbe

        # Only a real pyOCD probe tells its type; anything else is matched by id alone.
        if isinstance(probe, DebugProbe) and not isinstance(probe, tuple(classes)):
            return False
    return uid.lower() in str(probe.unique_id).lower()


def board_target_problem(board: Board) -> str | None:
    """None if pyOCD can drive ``board``'s [pyocd] target; else why (no target, or pyOCD or the pack missing)."""
    config = PyocdConfig.from_board(board)
    if config is None:
        return f"board '{board.name}' has no [pyocd] target in {board.path / 'board.toml'}"
    return target_support_problem(config.target, config.pack)


def open_session(config: PyocdConfig) -> tuple[Any | None, str | None]:
    """An opened pyOCD session on the chosen probe, or (None, error with the fix)."""
    from pyocd.core.helpers import ConnectHelper

    probes = list_probes()
    if not probes:
        return None, "no debug probe found: plug in the ST-Link/CMSIS-DAP probe (pyocd list shows it) and retry"
    ids = [p.unique_id for p in probes]
    if config.unique_id is not None:
        try:
            matches = [p for p in probes if probe_matches(config.unique_id, p)]
        except ValueError as error:
            return None, f"{error}; check the hardware map"
        if not matches:
            return (
                None,
                f"debug probe {config.unique_id} is not attached (attached: {', '.join(ids)}); check the hardware map",
            )
        if len(matches) > 1:  # pyOCD would ask on the console which one
            found = ", ".join(p.unique_id for p in matches)
            return None, f"probe id {config.unique_id} matches several probes ({found}); give more of the id in the map"
    if config.unique_id is None and len(probes) > 1:
        return None, f"several debug probes attached ({', '.join(ids)}): pick one with the hardware map (probe = ...)"
    options: dict[str, Any] = {"resume_on_disconnect": False, "enable_semihosting": False}
    if config.frequency:
        options["frequency"] = config.frequency
    if config.pack:
        options["pack"] = config.pack
    session = ConnectHelper.session_with_chosen_probe(
        blocking=False,
        return_first=config.unique_id is None,
        unique_id=config.unique_id,
        target_override=config.target,
        auto_open=False,
        options=options,
    )
    if session is None:
        return None, "pyOCD could not select the debug probe; run: pyocd list"
    session.open()
    return session, None


def flash(session: Any, elf: Path) -> None:
    from pyocd.flash.file_programmer import FileProgrammer

    FileProgrammer(session).program(str(elf), file_format="elf")


def run_on_target(
    target: Any,
    sink: LogSink,
    deadline: float,
    transports: tuple[str, ...],
    rtt_address: int | None,
    writes: Sequence[tuple[int, int]] = (),
    elf: Path | None = None,
) -> tuple[Any, list[RttPoller]]:
    """Resets ``target`` (already flashed), writes ``writes`` (the run token's block) while it is halted and
    drives it to the end of the test; shared with the tests. With the ``elf`` of a micro_test binary, each
    case's cycles are read from the core's DWT counter at its markers (``harness.runners.dwt``) into the
    outcome's ``measured_cycles``."""
    from harness.runners.dwt import CaseCycles
    from harness.runners.semihosting import RttPoller, drive

    pollers: list[RttPoller] = []
    if "rtt" in transports:
        pollers.append(RttPoller(target, sink, rtt_address))
    target.reset_and_halt()
    for address, word in writes:
        target.write32(address, word)
    case_cycles = CaseCycles.for_elf(target, elf)
    target.resume()
    # Semihosting is always serviced: the exit status (and the boot-time probe of board support)
    # goes through it whatever the log transport; its text is kept only when it is a log transport.
    try:
        outcome = drive(target, sink, deadline, pollers=pollers, semihost_output="semihosting" in transports,
                        case_cycles=case_cycles)
    finally:
        if case_cycles is not None:
            case_cycles.disarm()
    if case_cycles is not None:
        outcome.measured_cycles, problem = case_cycles.figures()
        if problem is not None:
            sink.note(f"no measured cycles per case: {problem}")
    return outcome, pollers


class PyocdRunner:
    name = "pyocd"

    def __init__(self, config: PyocdConfig | None = None) -> None:
        self.config = config

    def _config(self, board: Board) -> PyocdConfig | None:
        return self.config or PyocdConfig.from_board(board)

    def unavailable_reason(self, board: Board) -> str | None:
        if board.is_host:
            return f"board '{board.name}' is native; use the host backend"
        try:
            import pyocd  # noqa: F401
        except ImportError:
            return f"pyocd is not installed; {_INSTALL}"
        config = self._config(board)
        if config is None:
            return (
                f"board '{board.name}' has no pyOCD target: add [pyocd] target = \"...\" to {board.path / 'board.toml'}"
            )
        problem = target_support_problem(config.target, config.pack)
        if problem is not None:
            return problem
        try:
            if not list_probes():
                return "no debug probe found: plug in the ST-Link/CMSIS-DAP probe (pyocd list shows it)"
        except Exception as error:  # USB access problems (udev rules) show up here
            return f"cannot list debug probes ({error}); check USB permissions (udev rules for the probe)"
        return None

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        start = time.monotonic()
        deadline = start + timeout_s
        config = self._config(board)
        # The run token goes into RAM after the reset, before the core runs (harness/core/run_token.py); said
        # before the stream exists, so its reader demands records signed with it.
        writes = token_writes(elf, "memory (pyOCD)") if config is not None else []
        sink = LogSink(on_line, fmt=board_format(board), exit_status=exits_with_status(board))

        def infra(message: str) -> RunResult:
            return RunResult(self.name, sink.finish(), None, False, time.monotonic() - start, "infra-error", message,
                             notes=sink.notes)

        if config is None:
            return infra(f"board '{board.name}' has no [pyocd] target in {board.path / 'board.toml'}")
        problem = target_support_problem(config.target, config.pack)
        if problem is not None:
            return infra(problem)
        from harness.runners.gdbremote.elf import FirmwareError, load_firmware
        from harness.runners.uart import START_MARKER, SerialPortError, SerialReader, close_port, open_port

        try:
            firmware = load_firmware(Path(elf))
        except FirmwareError as error:
            return infra(str(error))
        from pyocd.core import exceptions as pyocd_errors

        session = None
        reader = port = None
        try:
            session, error_text = open_session(config)
            if session is None:
                return infra(error_text or "no debug probe")
            flash(session, firmware.path)
            if config.serial and "uart" in config.transports:
                port = open_port(config.serial, config.baudrate)
                handshake = firmware.contains(START_MARKER.encode())  # poke only firmware that listens
                reader = SerialReader(port, sink, handshake=handshake).start()
            outcome, pollers = run_on_target(
                session.target, sink, deadline, config.transports, firmware.symbols.get("_SEGGER_RTT"), writes,
                elf=Path(elf),
            )
            with contextlib.suppress(pyocd_errors.Error):
                session.target.halt()
            if reader is not None:
                reader.drain(deadline)
                if reader.error:
                    return infra(reader.error)
            for poller in pollers:
                if poller.error:
                    sink.note(poller.error)
            return RunResult(
                self.name,
                sink.finish(),
                outcome.exit_code,
                outcome.timed_out,
                time.monotonic() - start,
                outcome.end_reason,
                outcome.infra_error,
                case_seconds=sink.case_seconds(),
                notes=sink.notes,
                measured_cycles=outcome.measured_cycles,
            )
        except (pyocd_errors.Error, SerialPortError, OSError) as error:
            return infra(f"probe/flash failure: {error}; check the SWD wiring (SWDIO, SWCLK, GND, 3.3V) and power")
        except Exception as error:  # USB stack errors and the like: a probe problem, never a crash of the run
            return infra(
                f"probe failure ({type(error).__name__}: {error}); unplug and replug the probe, check udev rules"
            )
        finally:
            if reader is not None:
                reader.stop()
            if port is not None:
                close_port(port)
            if session is not None:
                with contextlib.suppress(Exception):
                    session.close()


def flash_and_reset(elf: Path, config: PyocdConfig) -> str | None:
    """Starter for the serial runner: flash + reset through the probe, leave it running; error text or None."""
    session = None
    try:
        from pyocd.core import exceptions as pyocd_errors
    except ImportError:
        return f"pyocd is not installed; {_INSTALL}"
    try:
        session, error_text = open_session(config)
        if session is None:
            return error_text
        flash(session, Path(elf))
        session.target.reset()
        return None
    except (pyocd_errors.Error, OSError) as error:
        return f"probe/flash failure: {error}; check the SWD wiring and power"
    finally:
        if session is not None:
            session.options["resume_on_disconnect"] = True
            with contextlib.suppress(Exception):
                session.close()


def for_device(device: DeviceSpec, board: Board, serial_url: str | None) -> PyocdRunner:
    """A hardware map device with ``backend = "pyocd"``: its probe, and its UART when it has one."""
    config = PyocdConfig.from_board(board, unique_id=device.probe, serial=serial_url)
    if config is None:
        raise HostProblem(f"board {board.name} has no [pyocd] target; add it to {board.path / 'board.toml'}")
    config.baudrate = device.baudrate
    config.transports = device_transports(device, board) or ("semihosting",)
    return PyocdRunner(config)


def check_tools() -> list[ToolCheck]:
    """``harness doctor``: pyOCD, the probes attached now, and each pyOCD board's target support."""
    from harness.board.boards import BoardError, available_boards, load_board
    from harness.core.extras import install_hint, missing

    name = "debug probes (pyOCD)"
    if missing("hil"):
        return [ToolCheck(name, False, f"pyocd not installed; install: {install_hint('hil')}")]
    try:
        from pyocd.core.helpers import ConnectHelper

        probes = ConnectHelper.get_all_connected_probes(blocking=False, print_wait_message=False)
    except Exception as error:  # a broken USB stack must not break the report
        return [ToolCheck(name, False, f"probe scan failed: {error}")]
    # Without its CMSIS pack pyOCD cannot program the board even once a probe is attached.
    problems = []
    for board_name in available_boards():
        try:
            board = load_board(board_name)
        except BoardError:
            continue
        problem = board_target_problem(board) if board.section("pyocd").get("target") else None
        if problem:
            problems.append(f"board {board_name}: {problem}")
    packs = "; ".join(problems)
    if not probes:
        detail = "pyOCD ready, no probe attached" + (f"; but {packs}" if packs else "")
        return [ToolCheck(name, not packs, detail)]
    names = ", ".join(f"{p.product_name} ({p.unique_id})" for p in probes)
    return [ToolCheck(name, not packs, names + (f"; but {packs}" if packs else ""))]
