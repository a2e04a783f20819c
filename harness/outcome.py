"""The one set of outcomes: of a test case, of a binary's run, of an item, in every report.

``Outcome`` is a ``StrEnum``: a member equals its value (``Outcome.PASSED == "passed"``), prints
as it (JUnit properties, JSON, the farm's history keep their text) and parses back with
``Outcome(text)``. Cases use PASSED, FAILED, SKIPPED, CRASHED and TIMEOUT; a whole binary's
run adds NO_TESTS and INFRA_ERROR; a run session that never ran it BUILD_ERROR and UNAVAILABLE.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    NO_TESTS = "no-tests"
    INFRA_ERROR = "infra-error"
    # A run session that never ran the binary: it could not be built, or no backend can run it here.
    BUILD_ERROR = "build-error"
    UNAVAILABLE = "unavailable"

    @property
    def ok(self) -> bool:
        """Nothing went wrong: passed, or skipped by the test itself."""
        return self in (Outcome.PASSED, Outcome.SKIPPED)


__all__ = ["Outcome"]
