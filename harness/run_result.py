"""How a run on a device ended, as the transport saw it: the one result every backend returns.

``RunResult`` is what a backend (``harness.runners``) knows after a run — the bytes, the exit status,
why it ended, what the harness itself found — and what the log reader (``harness.formats.reader``)
judges together with the log. It lives below both, so the reader needs nothing from the runners.
``Attempt`` is one board a pool (``harness.runners.retry``) tried for the run.

The log is the device's bytes and nothing else. What the harness has to say about a run (the board a
pool leased, a process left running, why the core stopped) is a ``Note`` in ``notes``: where in the
log it was said, and its text. No note can be mistaken for device output (no reader, ``dut.expect``
or saved record stream sees it as such); ``annotated_log`` interleaves them for a person to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.formats.case_limits import CaseTimeout

__all__ = ["NOTE_PREFIX", "Attempt", "Note", "RunResult", "annotated_log"]

NOTE_PREFIX = "[harness] "


@dataclass(frozen=True)
class Note:
    """A remark of the harness about a run: ``offset`` is how many log bytes had come when it was made."""

    offset: int
    text: str

    def line(self) -> str:
        return NOTE_PREFIX + self.text


def annotated_log(log: bytes, notes: Sequence[Note]) -> bytes:
    """The log for a person: each note on a line of its own at the point of the log where it was made."""
    if not notes:
        return log
    out = bytearray()
    at = 0
    for note in sorted(notes, key=lambda n: n.offset):
        offset = min(max(note.offset, at), len(log))
        out += log[at:offset]
        at = offset
        if out and not out.endswith(b"\n"):
            out += b"\n"
        out += note.line().encode() + b"\n"
    out += log[at:]
    return bytes(out)


@dataclass
class Attempt:
    device: str
    failure_class: str
    duration_s: float
    infra_error: str | None = None
    leased_at: float = 0.0  # wall-clock time.time() while the lease was held
    released_at: float = 0.0


@dataclass
class RunResult:
    backend: str  # "host", "qemu", "renode", "pyocd", "serial", "gdbremote"
    log: bytes  # everything the device printed, all transports merged in order received (device bytes only)
    exit_code: int | None  # status from MicroExit; None if unknown. Host: negative = killed by that signal
    timed_out: bool  # wall-clock timeout hit
    duration_s: float  # wall time of the run
    end_reason: str  # "exit" | "end-marker" | "no-exit" | "crash" | "timeout" | "infra-error"
    infra_error: str | None = None  # emulator/probe/serial failure, with the fix
    case_seconds: dict[str, float] = field(default_factory=dict)  # arrival-time duration per case
    # The case whose own limit ended the run (``RunControl.case_timeout``; set by the caller that
    # gave the limits, since runners do not know them)
    case_timeout: CaseTimeout | None = None
    # Harness-detected problems of the run that fail it, e.g. a process left running
    problems: list[str] = field(default_factory=list)
    # A pool's boards tried for this run, in order (harness.runners.retry.Attempt); empty for one device
    attempts: list[Attempt] = field(default_factory=list)
    # What the harness said about the run, apart from the device's bytes (module doc)
    notes: list[Note] = field(default_factory=list)
    # Fault registers the emulator does not model (they read 0), e.g. Renode's HFSR, MMFAR, BFAR
    unmodelled: list[str] = field(default_factory=list)
    # Instructions of each case that reached its end, in the order they ended (QEMU's counting plugin,
    # harness.runners.insn_count); empty where nothing counts them
    instructions: list[int] = field(default_factory=list)
    # Estimated cycles of the same cases (the plugin's Cortex-M timing model, the board's [timing]); empty
    # where no model ran (harness.runners.insn_count, docs/measurement.md)
    cycles: list[int] = field(default_factory=list)
    # Stack peak of the same cases in bytes from the top of the stack (stores through SP the plugin saw)
    stack: list[int] = field(default_factory=list)
    # Cycles of the same cases measured on the silicon: the core's DWT counter read by the debugger at the
    # case markers (harness.runners.dwt; pyOCD runs); empty elsewhere
    measured_cycles: list[int] = field(default_factory=list)

    @property
    def annotated_log(self) -> bytes:
        return annotated_log(self.log, self.notes)
