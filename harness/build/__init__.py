"""Stage 2, the build: from a board and a test source to an ELF the harness knows.

Owns the build driver (``driver``: which binaries, one make call per board, freshness, narrowing a
failure to its binaries), running make (``make``: build folder, environment, the per-board lock,
progress of long builds), what a failed build says (``diagnostics``: does-not-fit, first error in the
user's sources), the model runner's builds and cache (``model_runner``), flash/RAM footprint from the
built ELF (``footprint``), generating a new project's skeleton (``project_gen``) and running a
project's own build command for firmware built elsewhere (``external``).

May import: ``harness.core`` and ``harness.board``. Nothing here runs a binary.
"""
