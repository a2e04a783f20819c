"""Front end: the ``harness`` command (console script ``harness.cli.main:main``).

Owns argument parsing and the sub-commands: ``main`` (build, run, list, boards, footprint, ...),
``doctor`` (what is installed and what is missing, with the fix), ``run_model`` (a ``.tflite`` model
on a board, compared with a reference), ``devices`` (the hardware map), ``farm`` and ``places``
(the nightly farm's history, report, gate and labgrid places). Runs go through
``harness.session.run_binary``.

May import: every stage below the front ends; never the pytest plugin (``harness.pytest``).
"""
