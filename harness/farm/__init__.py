"""Nightly farm: results history, flaky detection, quarantine, footprint/timing gate, board health, report.

    pytest --board=host,bluepill --history farm.db               record every case x board x run
    pytest ... --history farm.db --quarantine quarantine.toml    quarantined cases run, never fail the run
    pytest ... --history farm.db --gate last-good                fail when a figure grew past its threshold
    harness farm flaky --history farm.db                         flaky cases with flip rates
    harness farm report --history farm.db -o night.html          one static offline HTML page

See docs/farm.md.
"""
