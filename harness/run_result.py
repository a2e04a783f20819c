"""How a run on a device ended, as the transport saw it: the one result every backend returns.

``RunResult`` is what a backend (``harness.runners``) knows after a run — the bytes, the exit status,
why it ended, what the harness itself found — and what the log reader (``harness.formats.reader``)
judges together with the log. It lives below both, so the reader needs nothing from the runners.
``Attempt`` is one board a pool (``harness.runners.retry``) tried for the run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.formats.case_limits import CaseTimeout

__all__ = ["Attempt", "RunResult"]


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
    log: bytes  # everything the device printed, all transports merged in order received
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
