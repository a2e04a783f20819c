"""Stage 2, the build: from a board and a test source to an ELF the harness knows.

Owns the build driver (``driver``: make for host and cross targets, the build lock, freshness,
first-error extraction), flash/RAM footprint from the built ELF (``footprint``) and generating a new
project's skeleton (``project_gen``).

May import: ``harness.core`` and ``harness.board``. Nothing here runs a binary.
"""
