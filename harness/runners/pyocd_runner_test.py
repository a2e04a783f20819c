"""pyOCD backend without a probe on this machine.

What runs for real: pyOCD's own target registry and pack lookup, its USB
probe enumeration (finding nothing here), and the backend's run loop
(``run_on_target``: reset, semihosting through pyOCD's SemihostAgent, our
SYS_EXIT handling, RTT through pyOCD's GenericRTTControlBlock) driven on an
emulated core through the pyOCD-compatible GdbTarget. Only USB enumeration is
mocked (``list_probes``), to show how several/missing probes are reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.board.boards import load_board
from harness.formats.reader import parse_log
from harness.runners import get_runner, pyocd_runner
from harness.runners.gdbremote.elf import load_firmware
from harness.runners.gdbremote.qemu_board import QemuBoard
from harness.runners.gdbremote.rsp import RspClient
from harness.runners.gdbremote.target import GdbTarget
from harness.runners.pyocd_runner import (
    PyocdConfig,
    PyocdRunner,
    open_session,
    probe_matches,
    run_on_target,
    target_support_problem,
)
from harness.runners.stream import LogSink
from harness.testing.hil_fw import HilFirmware, hil_firmware, qemu_board  # noqa: F401  (fixtures)

BLUEPILL = load_board("bluepill")


def _pack_installed(target: str) -> bool:
    from pyocd.target.pack.pack_target import ManagedPacks

    return any(d.part_number.lower() == target for d in ManagedPacks.get_installed_targets())


def test_builtin_target_needs_no_pack() -> None:
    assert target_support_problem("stm32f103rc") is None


def test_stm32f103c8_without_pack_names_the_install_command() -> None:
    if _pack_installed("stm32f103c8"):
        pytest.skip("the STM32F1 CMSIS pack is installed on this machine")
    problem = target_support_problem("stm32f103c8")
    assert problem is not None and "run: pyocd pack install stm32f103c8" in problem
    # The runner reports it instead of trying to connect.
    reason = get_runner("pyocd").unavailable_reason(BLUEPILL)
    assert reason is not None and "pyocd pack install stm32f103c8" in reason


def test_no_probe_is_a_prompt_infra_error(tmp_path: Path, hil_firmware: HilFirmware) -> None:  # noqa: F811
    if pyocd_runner.list_probes():
        pytest.skip("a debug probe is attached to this machine")
    config = PyocdConfig(target="stm32f103rc")  # built-in: gets as far as looking for a probe
    start = time.monotonic()
    run = PyocdRunner(config).run(hil_firmware("semihost"), BLUEPILL, 30.0)
    assert time.monotonic() - start < 10  # never waits for a probe to be plugged in
    assert run.end_reason == "infra-error"
    assert "no debug probe found" in (run.infra_error or "")


@dataclass
class _FakeProbe:
    unique_id: str
    description: str = "STM32 STLink"


def test_probe_choice_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """USB enumeration mocked: two probes attached, or not the one the map names."""
    monkeypatch.setattr(pyocd_runner, "list_probes", lambda: [_FakeProbe("066DFF11"), _FakeProbe("0670FF22")])
    session, error = open_session(PyocdConfig(target="stm32f103rc"))
    assert session is None and "several debug probes" in (error or "") and "066DFF11" in (error or "")
    session, error = open_session(PyocdConfig(target="stm32f103rc", unique_id="DEADBEEF"))
    assert session is None and "DEADBEEF is not attached" in (error or "")


def test_board_without_pyocd_target_explains() -> None:
    reason = PyocdRunner().unavailable_reason(load_board("host"))
    assert reason is not None and "native" in reason


def _run_emulated(qemu_board: QemuBoard, elf: Path, transports: tuple[str, ...],  # noqa: F811
                  with_elf: bool = False) -> tuple[Any, list[Any], LogSink]:
    """The backend's post-flash loop on QEMU's core through GdbTarget, as on a real board after flashing."""
    firmware = load_firmware(elf)
    host, port = qemu_board.gdb_address.split(":")
    with RspClient(host, int(port)) as client:
        target = GdbTarget(client)
        target.load_segments(firmware.segments)  # what FileProgrammer does on a real board
        target.vector_table = firmware.vector_table
        target.trap_semihost_sites(firmware.semihost_sites)  # a real core halts on BKPT by itself
        sink = LogSink()
        outcome, pollers = run_on_target(target, sink, time.monotonic() + 20, transports,
                                         firmware.symbols.get("_SEGGER_RTT"), elf=elf if with_elf else None)
    return outcome, pollers, sink


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("variant", "transports", "exit_code"),
    [
        ("semihost", ("semihosting",), 0),
        ("semihost_fail", ("semihosting",), 1),
        ("rtt", ("semihosting", "rtt"), 0),
    ],
)
def test_run_loop_on_an_emulated_core(
    qemu_board: QemuBoard,  # noqa: F811
    hil_firmware: HilFirmware,  # noqa: F811
    variant: str,
    transports: tuple[str, ...],
    exit_code: int,
) -> None:
    """The backend's post-flash loop, on pyOCD's target API as GdbTarget implements it over QEMU."""
    outcome, pollers, sink = _run_emulated(qemu_board, hil_firmware(variant), transports)
    assert (outcome.exit_code, outcome.end_reason) == (exit_code, "exit")
    assert all(p.error is None for p in pollers)
    report = parse_log(sink.finish())
    assert report.outcome == ("passed" if exit_code == 0 else "failed"), report.summary


@pytest.mark.emulator
def test_exit_status_is_serviced_even_when_semihosting_is_not_a_log_transport(
    qemu_board: QemuBoard,  # noqa: F811
    hil_firmware: HilFirmware,  # noqa: F811
) -> None:
    outcome, _, sink = _run_emulated(qemu_board, hil_firmware("semihost_fail"), ("uart",))
    assert (outcome.exit_code, outcome.end_reason) == (1, "exit")
    assert sink.finish() == b""  # the board says its log is the UART: semihosting text is not doubled in


def test_probe_ids_match_like_pyocd() -> None:
    """What ``pyocd -u`` accepts: any case, a part of the id, an optional probe-type prefix."""
    from pyocd.probe.stlink_probe import StlinkProbe

    # A real pyOCD probe type without USB behind it. pyOCD ships no type information: to mypy StlinkProbe
    # is Any, which strict mode lets a class subclass only when told.
    class _Stlink(StlinkProbe):  # type: ignore[misc]
        unique_id = "066DFF485550755187121723"

    stlink = object.__new__(_Stlink)
    for wanted in ("066DFF485550755187121723", "066dff48555075", "stlink:066DFF48", "STLink:066dff", "55187121723"):
        assert probe_matches(wanted, stlink), wanted
    assert not probe_matches("cmsisdap:066DFF48", stlink)  # the id fits, the probe type does not
    assert not probe_matches("0670FF22", stlink)
    assert probe_matches("CMSISDAP:0670ff", _FakeProbe("0670FF22"))  # type unknown for a non-pyOCD object
    with pytest.raises(ValueError, match="unknown debug probe type 'jtagx'"):
        probe_matches("jtagx:066D", stlink)


def test_map_probe_id_is_found_in_any_case_and_with_a_type_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[str] = []

    class _Session:
        def open(self) -> None:
            pass

    def session_with_chosen_probe(**kwargs: object) -> _Session:
        chosen.append(str(kwargs["unique_id"]))  # pyOCD itself gets the id as written in the map
        return _Session()

    from pyocd.core.helpers import ConnectHelper

    monkeypatch.setattr(pyocd_runner, "list_probes", lambda: [_FakeProbe("066DFF11"), _FakeProbe("0670FF22")])
    monkeypatch.setattr(ConnectHelper, "session_with_chosen_probe", staticmethod(session_with_chosen_probe))
    for wanted in ("066dff11", "stlink:066DFF11"):
        session, error = open_session(PyocdConfig(target="stm32f103rc", unique_id=wanted))
        assert session is not None and error is None, error
    assert chosen == ["066dff11", "stlink:066DFF11"]
    session, error = open_session(PyocdConfig(target="stm32f103rc", unique_id="FF"))
    assert session is None and "matches several probes" in (error or "")
    session, error = open_session(PyocdConfig(target="stm32f103rc", unique_id="usb:066DFF11"))
    assert session is None and "unknown debug probe type 'usb'" in (error or "")


def _run_with_markers(qemu_board: QemuBoard, elf: Path) -> tuple[object, bytes, list[str]]:  # noqa: F811
    outcome, _, sink = _run_emulated(qemu_board, elf, ("semihosting",), with_elf=True)
    return outcome, sink.finish(), [note.text for note in sink.notes]


@pytest.mark.emulator
def test_case_cycles_are_read_from_the_dwt_at_the_case_markers(
    qemu_board: QemuBoard,  # noqa: F811
    hil_firmware: HilFirmware,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The debugger halts the core at each case marker, reads DWT_CYCCNT, steps off the breakpoint and resumes:
    one figure per case, the verdict untouched. QEMU has no DWT, so the counter is stood in for here by a
    register that advances 1,000 per read (a real core's counts the cycles between the two halts)."""
    from harness.runners import dwt

    reads = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(dwt.CaseCycles, "_read", lambda self: next(reads))
    outcome, log, notes = _run_with_markers(qemu_board, hil_firmware("semihost"))
    assert (outcome.exit_code, outcome.end_reason) == (0, "exit")  # type: ignore[attr-defined]
    assert outcome.measured_cycles == [1000, 1000, 1000]  # type: ignore[attr-defined]  # three cases
    report = parse_log(log)
    assert report.outcome == "passed" and len(report.cases) == 3, report.summary
    assert not any("measured cycles" in note for note in notes)


@pytest.mark.emulator
def test_a_core_whose_dwt_does_not_count_gives_no_cycles_and_says_so(
    qemu_board: QemuBoard,  # noqa: F811
    hil_firmware: HilFirmware,  # noqa: F811
) -> None:
    """On QEMU (no DWT emulated) the markers are still hit and the run passes, but no made-up figure comes out:
    the run's notes say why there are none."""
    outcome, log, notes = _run_with_markers(qemu_board, hil_firmware("semihost"))
    assert (outcome.exit_code, outcome.end_reason) == (0, "exit")  # type: ignore[attr-defined]
    assert outcome.measured_cycles == []  # type: ignore[attr-defined]
    assert parse_log(log).outcome == "passed"
    assert any(note.startswith("no measured cycles per case: ") for note in notes), notes
