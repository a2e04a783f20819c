"""Resources: the real boards attached to this machine.

May import: ``harness.core``, ``harness.board``, ``harness.build``, ``harness.formats`` and ``harness.runners``.
"""
