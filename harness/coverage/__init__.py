"""Coverage on the target (``pytest --micro-coverage``, docs/coverage.md): gcov-instrumented builds of the micro
tests in their own folder (``build``), the counters each binary sends home at exit read back (``stream``) and
turned into LCOV, Cobertura and HTML per binary and merged with gcovr (``collect``, ``report``); the pytest
hooks in ``plugin``.

May import: ``harness.core``, ``harness.board``, ``harness.build``, ``harness.outcome``, ``harness.session``;
``plugin`` also the pytest front end.
"""
