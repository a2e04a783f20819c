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

from harness.runners.base import RunResult

PASSED = "passed"
FAILED = "failed"
CRASHED = "crashed"
TIMEOUT = "timeout"
INFRA = "infra-error"

ALL = (PASSED, FAILED, CRASHED, TIMEOUT, INFRA)


def classify_run(run: RunResult, report_outcome: str | None = None) -> str:
    """The class of one run; ``report_outcome`` is the log parser's verdict when there is one."""
    if run.end_reason == "infra-error" or run.infra_error:
        return INFRA
    if not run.log.strip():
        return INFRA  # not a single byte: wiring, transport or a dead board, not the test
    if report_outcome is not None:
        if report_outcome in (PASSED, FAILED, CRASHED, TIMEOUT, INFRA):
            return report_outcome
        return FAILED  # "no-tests" and anything else the parser flags is the firmware's problem
    if run.end_reason == "crash":
        return CRASHED
    if run.timed_out:
        return TIMEOUT
    if run.exit_code is not None:
        return PASSED if run.exit_code == 0 else FAILED
    text = run.log.decode("utf-8", errors="replace")
    if "~~~SOME TESTS FAILED~~~" in text:
        return FAILED
    if "~~~ALL TESTS PASSED~~~" in text:
        return PASSED
    return CRASHED


def retryable(failure_class: str) -> bool:
    return failure_class == INFRA
