"""GDB Remote Serial Protocol client and a pyOCD-compatible target adapter over it."""
