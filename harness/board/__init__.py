"""Stage 1, the board file: what a board *is*, read from ``boards/<name>.toml``.

Owns loading and checking board files (``boards``), the generated ``board.mk``/``memory.ld``
(``board_mk``), the memory map and MPU regions (``mpu_regions``), the emulation guard that makes an
emulator as strict as the chip (``emulation_guard``) and the per-case time limits (``case_limits``).

May import: ``harness.core``. Imported by every stage above it (build, runners, session, front ends).
"""
