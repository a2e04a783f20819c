"""Resources: the real (or emulated) boards attached to this machine, the labgrid way.

What a board *has* is data (``devices``: the hardware map, loaded and written through TOML); how to
talk to it is its backend's driver (``drivers`` binds a device to the runner its backend module
makes, ``harness.runners.REGISTRY``); how to bring runs up and retry them is the strategy (``pool``:
leases from ``lease``, retries on another board, blame kept in ``board_state``). ``scan`` finds
attached probes and serial ports, ``diagnosis`` explains silence and unreachable devices,
``emulated`` starts a rack of QEMU boards behind GDB servers. The ``devices`` command is
``harness.cli.devices``.

May import: ``harness.core``, ``harness.board``, ``harness.build``, ``harness.formats`` and
``harness.runners`` (and ``harness.farm`` for a map whose boards are a labgrid farm's places).
"""
