"""The one run session: resolve the runner, build, run, read and judge one binary on one board.

Every front end runs binaries through ``run_binary``: the pytest items (``harness.pytest.plugin``), the
``dut`` fixture (``harness.pytest.dut``), ``harness run`` (``harness.cli.main``), the Robot library and
run-model. So every option — the backend, ``--icount``, a hardware map, the timeout, per-case
limits, the run token — is honoured the same everywhere, because there is one place that
honours it::

    report = run_binary(board, elf, RunOptions(backend="qemu"), source=Path("x_test.cc"))
    report.outcome          # an Outcome
    report.cases            # per-case results, as read live from the device's stream

The steps, in order (each can end the session with its own outcome):

1. the runner: ``resolve_runner`` (UNAVAILABLE when the options name none, or
   it cannot run the board on this machine: the reason names the fix);
2. the binary: an ELF path, or a build callable (BUILD_ERROR with the compiler's message);
3. how to read it (``harness.formats.reader.reader_spec``): the format and case list the ELF
   declares (micro_test), else the board's or the caller's format with the source's cases;
   per-case limits (``harness.formats.case_limits``); a fresh run token (``harness.core.run_token``);
4. the run, under a ``RunControl`` that carries all of that to the backend's one stream; the
   stream's reader ends the run and gives the verdict (no second parse).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.formats.base import CaseResult
from harness.formats.micro_test import source_cases as micro_test_cases
from harness.outcome import Outcome
from harness.run_result import Note, annotated_log
from harness.runners import REGISTRY, ResolveError, default_backend, get_runner, runner_for

if TYPE_CHECKING:
    from harness.board.boards import Board
    from harness.build.driver import BinaryBuild
    from harness.core.crash import CrashReport
    from harness.formats.case_limits import CaseLimits
    from harness.runners.base import RunResult
    from harness.runners.control import CaseTimeout, RunControl

__all__ = ["Resolved", "RunOptions", "RunReport", "resolve_runner", "run_binary"]

DEFAULT_TIMEOUT_S = 120.0
HOST_TIMEOUT_S = 60.0


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """What a caller chose for a run (every front end passes the same)."""

    backend: str | None = None  # None: the board's default emulator (or the map's boards)
    icount: int | None = None  # QEMU's -icount shift
    hardware_map: Path | None = None  # real (or emulated) boards of a hardware map
    map_runner: Any = None  # an already made map runner (the pytest plugin's, with its retry setting)
    runner: Any = None  # an already made runner (wins over all of the above; its label: ``backend`` or its name)
    timeout_s: float | None = None  # None: the board's [run] timeout_s, else 60 s host / 120 s MCU
    fmt: str | None = None  # force a log format (e.g. the model runner's); the ELF's declaration wins
    case_limits: bool = True  # per-case limits from the source and the board
    token: bool = True  # hand the firmware a run token (records must be signed with it)


@dataclass(kw_only=True)
class RunReport:
    """Everything known about one binary's run on one board: the one result type of every front end."""

    board: Board
    backend: str  # the backend's report label ("qemu", "hil:pyocd", ...)
    outcome: Outcome
    summary: str  # one line a person reads
    elf: Path | None = None
    cases: list[CaseResult] = field(default_factory=list)
    log: bytes = b""
    log_tail: list[str] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    duration_s: float = 0.0
    end_reason: str = ""
    infra_error: str | None = None
    crash: CrashReport | None = None
    format: str = "unknown"
    problems: list[str] = field(default_factory=list)
    records: str = ""  # "authenticated" | "unauthenticated" | "" (a format without records)
    token_delivery: str | None = None  # how the run token reached the device
    case_seconds: dict[str, float] = field(default_factory=dict)
    # Instructions each case executed (QEMU's counting plugin; deterministic: harness.runners.insn_count)
    case_instructions: dict[str, int] = field(default_factory=dict)
    # Estimated cycles of each case (the plugin's Cortex-M timing model with the board's [timing]) and the
    # clock the estimate is for (docs/measurement.md); empty / None where no model ran
    case_cycles: dict[str, int] = field(default_factory=dict)
    timing_clock_hz: int | None = None
    # Deepest stack of each case in bytes from the top of the stack (the plugin watches stores through SP)
    case_stack: dict[str, int] = field(default_factory=dict)
    # Cycles of each case measured on a real board's DWT counter (harness.runners.dwt)
    case_measured_cycles: dict[str, int] = field(default_factory=dict)
    case_timeout: CaseTimeout | None = None
    build: BinaryBuild | None = None
    run: RunResult | None = None  # the backend's own account (attempts of a retrying pool, ...)
    log_path: Path | None = None  # where a front end saved ``annotated_log``
    notes: list[Note] = field(default_factory=list)  # the harness's remarks, apart from ``log``
    usage_error: bool = False  # UNAVAILABLE because the options name no runner (not this machine's lack)

    @property
    def annotated_log(self) -> bytes:
        """``log`` with the harness's remarks on lines of their own, for a person (``harness.run_result``)."""
        return annotated_log(self.log, self.notes)

    @property
    def unavailable(self) -> str | None:
        return self.summary if self.outcome == Outcome.UNAVAILABLE else None

    def case(self, name: str) -> CaseResult | None:
        return next((c for c in self.cases if c.name == name), None)


@dataclass
class Resolved:
    runner: Any
    label: str  # for reports: the backend name, or hil:<backends> of the map's boards


def resolve_runner(
    board: Board,
    backend: str | None = None,
    icount: int | None = None,
    hardware_map: Any = None,
    map_runner: Any = None,
) -> Resolved:
    """The one place that turns a board and the options into the runner that runs its binaries.

    Used by the pytest items, the ``dut`` fixture, ``harness run``, the Robot library and run-model.
    ``hardware_map`` (a path or a loaded map) or an already made ``map_runner`` (the plugin's, with
    its retry setting) sends MCU boards to the map's leased boards; the host board always runs
    natively. ``icount`` (QEMU's -icount shift) picks QEMU when no backend is named and is a usage
    error with any other backend.
    """
    from harness.runners.qemu import icount_problem

    if board.is_host:
        return Resolved(get_runner("host"), "host")
    if hardware_map is not None and map_runner is None:
        from harness.hil.devices import HardwareMapError
        from harness.hil.pool import select_runner_for

        try:
            map_runner = select_runner_for(hardware_map)
        except HardwareMapError as error:
            raise ResolveError(str(error)) from error
    if map_runner is not None:
        if icount is not None:
            raise ResolveError(icount_problem("hil") or "--icount does not apply to a hardware map")
        from harness.hil.pool import map_backend_label

        return Resolved(map_runner, map_backend_label(map_runner.hardware_map, board.name))
    if backend is not None and backend not in REGISTRY:
        raise ResolveError(f"unknown backend '{backend}'; choose one of: {', '.join(REGISTRY)}")
    name = backend or ("qemu" if icount is not None else None)
    if name is None:
        try:
            name = default_backend(board)
        except Exception:  # a backend module that fails to import must not stop the run
            name = "qemu"
    if icount is not None:
        problem = icount_problem(name)
        if problem is not None:
            raise ResolveError(problem)
    return Resolved(runner_for(name, icount), name)


def timeout_for(board: Board, options: RunOptions, backend: str | None = None) -> float:
    """The binary's time limit: the option, else the backend's own ``[<backend>] timeout_s`` in the board file
    (an emulator slower than the board's default assumes, e.g. Renode), else ``[run] timeout_s``."""
    if options.timeout_s is not None:
        return options.timeout_s
    own = board.section(backend).get("timeout_s") if backend else None
    if own is not None:
        return float(own)
    configured = board.section("run").get("timeout_s")
    if configured is not None:
        return float(configured)
    return HOST_TIMEOUT_S if board.is_host else DEFAULT_TIMEOUT_S


def resolve(board: Board, options: RunOptions) -> tuple[Any, str]:
    """(runner, label) for ``board`` under ``options``; ``harness.runners.ResolveError`` when none."""
    if options.runner is not None:
        return options.runner, options.backend or str(getattr(options.runner, "name", "?"))
    resolved = resolve_runner(board, options.backend, options.icount, options.hardware_map, options.map_runner)
    return resolved.runner, str(resolved.label)


def run_binary(
    board: Board,
    binary: Path | Callable[[], Path],
    options: RunOptions | None = None,
    *,
    source: Path | None = None,
    on_line: Callable[[str], None] | None = None,
    control: RunControl | None = None,
    wrap: Callable[[str], Any] | None = None,
    build: BinaryBuild | None = None,
    expected: Sequence[str] | None = None,
) -> RunReport:
    """Runs one binary on ``board`` and judges it (module doc).

    ``binary``: the ELF, or a callable that builds it (raising ``harness.build.driver.BuildError``).
    ``source``: the test's source (per-case limits; the case list of binaries that declare none).
    ``expected``: the cases a binary without a source is known to have (a foreign firmware's last run).
    ``control``: the caller's ``RunControl`` (``dut``: raw output, input, stop); the session fills in
    the reader, limits and token. ``wrap(label)``: a context manager around the run (progress ticks).
    """
    from harness.build.driver import BuildError
    from harness.core.run_token import RunToken
    from harness.formats.case_limits import CaseLimitError, case_limits
    from harness.formats.reader import reader_spec
    from harness.runners.control import RunControl

    options = options or RunOptions()
    try:
        runner, label = resolve(board, options)
    except ResolveError as error:  # the options name no runner: a usage error of the caller
        return RunReport(board=board, backend=options.backend or "?", outcome=Outcome.UNAVAILABLE,
                         summary=str(error), usage_error=True)
    reason = runner.unavailable_reason(board)
    if reason is not None:
        return RunReport(board=board, backend=label, outcome=Outcome.UNAVAILABLE, summary=reason)
    try:
        elf = Path(binary() if callable(binary) else binary)
    except BuildError as error:
        return RunReport(board=board, backend=label, outcome=Outcome.BUILD_ERROR, summary=str(error), build=build)
    source_cases = None
    expected_from = "the source"
    if source is not None and source.is_file():
        source_cases = micro_test_cases(source.read_text(errors="replace")) or None
    if source_cases is None and expected:
        source_cases, expected_from = list(expected), "the cases this binary reported when it was collected"
    spec = reader_spec(elf, board, fmt=options.fmt, expected=source_cases, expected_from=expected_from)
    control = control or RunControl()
    control.reader_spec = spec
    control.token = RunToken.fresh() if options.token else None
    limits = None
    if options.case_limits:
        try:  # '// harness: timeout=S, max_instructions=N' in the source, the board's [run] case_timeout_s
            limits = case_limits(source, board)
            control.case_limits = limits or None
        except CaseLimitError as error:
            return RunReport(board=board, backend=label, outcome=Outcome.BUILD_ERROR, summary=str(error), elf=elf,
                             build=build)
    started = time.monotonic()
    try:
        with (wrap(label) if wrap is not None else contextlib.nullcontext()), control.active():
            run = runner.run(elf, board, timeout_for(board, options, label), on_line=on_line)
    except Exception as error:  # a runner bug must not leave the caller without a verdict
        from harness.runners.base import RunResult

        run = RunResult(label, b"", None, False, time.monotonic() - started, "infra-error",
                        infra_error=f"the {label} runner raised {type(error).__name__}: {error}")
    run.case_timeout = control.case_timeout
    reader = control.reader
    if reader is None:  # the backend never opened a stream (it could not start): judge what it returned
        reader = spec.reader()
        reader.feed(run.log)
    verdict = reader.finish(run, elf, board)
    # The counts are one per case that reached its end, in order: the cases that ended, in the log's order.
    ended = [c.name for c in verdict.cases if c.outcome in (Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED)]
    counts = dict(zip(ended, run.instructions, strict=False))
    cycles = dict(zip(ended, run.cycles, strict=False))
    stack = dict(zip(ended, run.stack, strict=False))
    outcome, summary = _hold_to_budgets(Outcome(verdict.outcome), verdict.summary, verdict.cases,
                                        {"instructions": counts, "cycles": cycles, "stack": stack}, limits, run)
    timing = board.timing() if cycles else None
    return RunReport(
        board=board, backend=label, elf=elf, outcome=outcome, summary=summary,
        cases=verdict.cases, log=run.log, log_tail=verdict.log_tail, exit_code=run.exit_code,
        timed_out=run.timed_out, duration_s=run.duration_s, end_reason=run.end_reason,
        infra_error=run.infra_error, crash=verdict.crash, format=verdict.format, problems=verdict.problems,
        records=verdict.records, token_delivery=control.delivery, case_seconds=dict(run.case_seconds),
        case_instructions=counts, case_cycles=cycles, timing_clock_hz=timing.clock_hz if timing else None,
        case_stack=stack, case_measured_cycles=dict(zip(ended, run.measured_cycles, strict=False)),
        case_timeout=run.case_timeout, build=build, run=run, notes=list(run.notes),
    )


_FIGURE_WORDS = {"instructions": ("executed", "instructions"), "cycles": ("took an estimated", "cycles"),
                 "stack": ("used", "bytes of stack")}
_NOT_MEASURED = {"instructions": "counts no instructions; QEMU does",
                 "cycles": "estimates no cycles; QEMU does, for Cortex-M3/M4/M33 boards",
                 "stack": "measures no stack; QEMU does"}


def _hold_to_budgets(outcome: Outcome, summary: str, cases: list[CaseResult], figures: dict[str, dict[str, int]],
                     limits: CaseLimits | None, run: RunResult) -> tuple[Outcome, str]:
    """The ``// harness: max_instructions=N, max_cycles=N, max_stack=N`` budgets of the source
    (``CaseLimits.budgets``), or the board's and project's defaults for every case: a case over a budget fails,
    naming its figure, the budget, the change and where the budget is written; a passing run with such a case
    fails. Where a figure is not measured (not QEMU; cycles on a core without a timing model) its budgets cannot
    be checked, and the run says so in a note instead of passing them over silently."""
    if limits is None or not (limits.budgets or limits.default_budgets):
        return outcome, summary
    over = []
    for figure, (verb, unit) in _FIGURE_WORDS.items():
        limited = sorted(case for case, own in limits.budgets.items() if figure in own)
        if figure in limits.default_budgets:
            limited = ["every case"]
        if not limited:
            continue
        measured = figures.get(figure, {})
        if not measured:
            name = {"instructions": "instruction", "cycles": "cycle", "stack": "stack"}[figure]
            run.notes.append(Note(len(run.log), f"{name} budgets not checked: {', '.join(limited)} "
                                  f"({run.backend} {_NOT_MEASURED[figure]})"))
            continue
        for case in cases:
            budget, count = limits.budgets_for(case.name).get(figure), measured.get(case.name)
            if budget is None or count is None or count <= budget[0]:
                continue
            message = (f"{case.name} {verb} {count:,} {unit}, over its budget of {budget[0]:,} "
                       f"(+{count - budget[0]:,}, {count / budget[0] - 1:+.1%}; {budget[1]})")
            case.messages.append(message)
            if case.outcome == Outcome.PASSED:
                case.outcome = Outcome.FAILED
            over.append(message)
    if over and outcome == Outcome.PASSED:
        more = f" (+{len(over) - 1} more over budget)" if len(over) > 1 else ""
        return Outcome.FAILED, over[0] + more
    return outcome, summary
