"""Runs a binary on whichever mapped board of its type is free (labgrid's *strategy*).

``HilRunner`` is the runner ``--hardware-map`` gives a board: ``DevicePool`` leases a free device
(``harness.hil.lease``: one process per board, across pytest-xdist workers), ``DeviceLease`` runs
the binary through the device's driver, and ``harness.runners.retry`` retries an infrastructure
error on another board (at most ``MAX_RETRIES``) and blames the board that failed where another
passed (``harness.hil.board_state``). The attempts travel in the result (``RunResult.attempts``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.board.boards import Board
from harness.hil import board_state
from harness.hil.devices import Device, HardwareMap, HardwareMapError, load_hardware_map
from harness.hil.diagnosis import no_output_reason, tool_problem
from harness.hil.drivers import HostSideError, runner_for_device
from harness.hil.lease import acquire_any
from harness.run_result import Attempt
from harness.runners.base import OnLine, Runner, RunResult
from harness.runners.failure_classes import INFRA, classify_run
from harness.runners.retry import NoBoard, run_on_pool

MAX_RETRIES = 2
LEASE_WAIT_S = 900.0  # longest a worker waits for a free board before it reports an infra error


class HilRunner:
    """Runs on whichever mapped board of the right type is free; retries infra errors elsewhere."""

    def __init__(
        self,
        hardware_map: HardwareMap,
        max_retries: int = MAX_RETRIES,
        lease_wait_s: float = LEASE_WAIT_S,
        runner_factory: Callable[[Device, Board], Runner] = runner_for_device,
    ) -> None:
        self.hardware_map = hardware_map
        self.max_retries = max_retries
        self.lease_wait_s = lease_wait_s
        self.runner_factory = runner_factory
        self.name = "hil"
        self.last_attempts: list[Attempt] = []

    def _candidates(self, board: Board) -> list[Device]:
        quarantined = board_state.quarantined(self.hardware_map)
        return [d for d in self.hardware_map.for_board(board.name) if d.id not in quarantined]

    def unavailable_reason(self, board: Board) -> str | None:
        where = self.hardware_map.path or "the hardware map"
        if not self.hardware_map.for_board(board.name):
            return f"{where} lists no device for board '{board.name}'; add a [[device]] with board = \"{board.name}\""
        candidates = self._candidates(board)
        if not candidates:
            return (
                f"every '{board.name}' device in {where} is quarantined after infrastructure errors; fix them, then "
                f"run: harness devices clear --hardware-map {where}"
            )
        return tool_problem(board, candidates)

    def host_problem(self, elf: Path, board: Board) -> str | None:
        """A fault no other board could fix (the binary, pyOCD or its pack on this machine), or None."""
        from harness.runners.gdbremote.elf import FirmwareError, load_firmware

        try:
            load_firmware(elf)
        except FirmwareError as error:
            return str(error)
        return tool_problem(board, self._candidates(board))

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: OnLine = None) -> RunResult:
        attempts: list[Attempt] = []
        self.last_attempts = attempts
        return run_on_pool(DevicePool(self), Path(elf), board, timeout_s, on_line, self.max_retries, attempts)


class DevicePool:
    """The hardware map's devices of a board type as a pool for the retry strategy (harness.runners.retry):
    leases are the map's lock files, blame is quarantine."""

    label = "hil"

    def __init__(self, runner: HilRunner) -> None:
        self.runner = runner
        self.hardware_map = runner.hardware_map
        self.handshake_elf: Path | None = None  # what handshake = true devices run, when it differs

    def prepare(self, elf: Path, board: Board) -> None:
        problem = self.runner.host_problem(elf, board)
        if problem is not None:
            raise HostSideError(problem)
        # Built before a board is leased: nobody waits on a board while make runs.
        if any(d.handshake for d in self.runner._candidates(board)):
            variant = handshake_variant(elf, board)
            self.handshake_elf = variant if variant != elf else None

    def acquire(self, board: Board, exclude: set[str]) -> DeviceLease:
        candidates = [d for d in self.runner._candidates(board) if d.id not in exclude]
        if not candidates:
            raise NoBoard(self.runner.unavailable_reason(board) or f"no usable '{board.name}' board")
        # Each process starts looking at a different board, so work spreads even when runs are short.
        ids = [d.id for d in candidates]
        start = os.getpid() % len(ids)
        lease = acquire_any(ids[start:] + ids[:start], self.hardware_map.lock_dir, self.runner.lease_wait_s)
        if lease is None:
            raise NoBoard(f"no '{board.name}' board became free within {self.runner.lease_wait_s:.0f} s (all leased)")
        device = next(d for d in candidates if d.id == lease.device_id)
        return DeviceLease(device, lease, self.runner.runner_factory, self.handshake_elf if device.handshake else None)

    def blame(self, name: str, reason: str) -> None:
        board_state.quarantine(self.hardware_map, name, reason)


class DeviceLease:
    """One leased device of the map: its concrete runner (pyocd / serial / gdbremote) does the run."""

    def __init__(self, device: Device, lease: Any, runner_factory: Callable[[Device, Board], Runner],
                 handshake_elf: Path | None) -> None:
        self.device = device
        self.name = device.id
        self._lease = lease
        self._runner_factory = runner_factory
        self._handshake_elf = handshake_elf

    def note(self) -> str:
        note = f"[harness] device {self.device.describe()}"
        if self._handshake_elf is not None:
            note += f", start-handshake build {self._handshake_elf}"
        return note

    def run(self, elf: Path, board: Board, timeout_s: float, on_line: Callable[[str], None] | None) -> RunResult:
        try:
            result = self._runner_factory(self.device, board).run(self._handshake_elf or elf, board, timeout_s,
                                                                  on_line)
        except HostSideError:
            raise
        except (HardwareMapError, OSError) as error:  # OSError: a port or socket of this board
            result = RunResult(self.device.backend, b"", None, False, 0.0, "infra-error", str(error))
        silent = result.infra_error or ""
        if classify_run(result) == INFRA and not result.log.strip() and (not silent or silent.startswith("no output")):
            # Say what the run listened on and what the firmware speaks: the usual cause is a mismatch.
            detail = f" ({silent})" if silent else ""
            result = replace(result, infra_error=no_output_reason(self.device, board) + detail)
        return result

    def release(self) -> None:
        self._lease.release()


def handshake_variant(elf: Path, board: Board) -> Path:
    """What a ``handshake = true`` device runs: ``elf`` if it has the start handshake, else the same
    micro_runtime test built with it (make HANDSHAKE=1, gen/<board>_handshake/); a program the harness
    cannot rebuild runs as it is (the pokes are harmless to firmware without the handshake).
    """
    from harness.build.driver import BuildError, discover_tests, ensure_binary
    from harness.runners.uart import firmware_has_handshake

    if firmware_has_handshake(elf) or elf.name not in discover_tests():
        return elf
    try:
        return ensure_binary(board, elf.name, progress=None, handshake=True)
    except BuildError as error:
        message = f"building the start-handshake variant of {elf.name} (handshake = true) failed: {error}"
        raise HostSideError(message) from error


def map_backend_label(hardware_map: Any, board_name: str) -> str:
    """How the map reaches a board's devices, for reports: ``hil:pyocd``, ``hil:pyocd+serial``, ..."""
    if getattr(hardware_map, "farm", None) is not None:
        return "hil:farm"
    backends = sorted({device.backend for device in hardware_map.for_board(board_name)})
    return "hil:" + "+".join(backends) if backends else "hil"




def select_runner_for(hardware_map: HardwareMap | Path | str, max_retries: int = MAX_RETRIES) -> Any:
    """The runner of the map's boards: leased local devices (``HilRunner``), or, when the map has a
    ``[farm]`` table, a labgrid farm's places (``harness.farm.farm_runner.FarmRunner``)."""
    if not isinstance(hardware_map, HardwareMap):
        hardware_map = load_hardware_map(hardware_map)
    if hardware_map.farm is not None:
        from harness.farm.farm_runner import FarmRunner

        return FarmRunner(hardware_map, max_retries=max_retries)
    return HilRunner(hardware_map, max_retries=max_retries)
