"""GDB Remote Serial Protocol client and a pyOCD-compatible target adapter over it.

May import: ``harness.core`` and the standard library (``qemu_board`` starts QEMU as a GDB server).
"""
