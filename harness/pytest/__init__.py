"""Front end: the pytest plugin (entry point ``harness = harness.pytest.plugin``).

Owns collecting ``*_test.cc`` sources as items and a binary's cases as pytest items (``plugin``,
``items``), firmware built elsewhere as items (``firmware``),
the hardware-in-the-loop options and device leases per worker (``hil``), the ``dut`` fixture and its
interactive device object (``dut_plugin``, ``dut``), and the farm options (``farm``: history,
quarantine, gate). Every run goes through ``harness.session.run_binary``.

May import: every stage below (core, board, build, formats, runners, hil, farm, session); nothing
imports it except pytest itself (and ``harness.cli`` nothing from here).
"""
