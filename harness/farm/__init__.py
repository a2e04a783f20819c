"""Nightly farm: results history, flaky detection, quarantine, footprint/timing gate, board health, report.

    pytest --board=host,bluepill --history farm.db               record every case x board x run
    pytest ... --history farm.db --quarantine quarantine.toml    quarantined cases run, never fail the run
    pytest ... --history farm.db --gate last-good                fail when a figure grew past its threshold
    harness farm flaky --history farm.db                         flaky cases with flip rates
    harness farm report --history farm.db -o night.html          one static offline HTML page

Owns the history database, flaky detection, quarantine lists, the footprint/run-time gate, board
health, the report and labgrid places (``places``: what a farm place has and how to lease it) and
the farm runner that runs a binary on a leased place.

May import: ``harness.core``, ``harness.board``, ``harness.build``, ``harness.formats``,
``harness.runners`` and ``harness.hil``. The pytest options live in ``harness.pytest.farm``, the
commands in ``harness.cli.farm`` and ``harness.cli.places``. See docs/farm.md.
"""
