"""argparse types shared by the ``harness`` command and the pytest options: a bad value is refused
with one clear line instead of being accepted and failing later (or never)."""

from __future__ import annotations

import argparse
import math


def positive_seconds(text: str) -> float:
    """A time limit in seconds: a finite number greater than 0 (``--micro-timeout``, ``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"invalid time limit {text!r}: give seconds, a number greater than 0")
    return value


def positive_bytes(text: str) -> int:
    """A size in bytes: a whole number greater than 0 (``--arena-size``)."""
    try:
        value = int(text, 0)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}: give a number of bytes greater than 0")
    return value
