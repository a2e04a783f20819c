"""The five things a run on a board can come to, and which of them may be retried.

* passed   - the firmware said so
* failed   - the firmware said so (a test failed)
* crashed  - the firmware faulted (HardFault line, lockup, died without an end marker)
* timeout  - it kept running, with output, past the deadline
* infra    - the harness could not run it: flash/probe/serial/emulator failure,
             or no output at all (the board never spoke)

Only ``infra`` is retried (on another board); a test failure is never retried
silently, because a flaky test must show up as flaky.
"""

from __future__ import annotations

from harness.outcome import Outcome
from harness.runners.base import RunResult

PASSED = Outcome.PASSED
FAILED = Outcome.FAILED
CRASHED = Outcome.CRASHED
TIMEOUT = Outcome.TIMEOUT
INFRA = Outcome.INFRA_ERROR

ALL = (PASSED, FAILED, CRASHED, TIMEOUT, INFRA)


def classify_run(run: RunResult, report_outcome: str | None = None) -> Outcome:
    """The class of one run; ``report_outcome`` is the log's verdict (``harness.formats``) when the
    caller has it already, else the verdict of the run's own stream reader (the active run control's,
    judged on a copy, so the session's verdict later is unchanged), or of its log when there is none."""
    if run.end_reason == "infra-error" or run.infra_error:
        return INFRA
    if not run.log.strip():
        return INFRA  # not a single byte: wiring, transport or a dead board, not the test
    if report_outcome is None:
        import copy

        from harness.formats.reader import parse_log
        from harness.runners.control import active_control

        control = active_control()
        if control is not None and control.reader is not None:
            report_outcome = copy.deepcopy(control.reader).finish(run).outcome
        else:
            report_outcome = parse_log(run.log, run).outcome
    if report_outcome in ALL:
        return Outcome(report_outcome)
    return FAILED  # "no-tests" and anything else the log's verdict flags is the firmware's problem
