"""argparse types shared by the ``harness`` command and the pytest options: a bad value is refused
with one clear line instead of being accepted and failing later (or never)."""

from __future__ import annotations

import argparse
import math

# run-model's default float32 tolerance (relative above 1, absolute below); here so the CLI parser
# does not import harness.cli.run_model (numpy) for every command.
DEFAULT_FLOAT_TOLERANCE = 1e-5


def positive_seconds(text: str) -> float:
    """A time limit in seconds: a finite number greater than 0 (``--micro-timeout``, ``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"invalid time limit {text!r}: give seconds, a number greater than 0")
    return value


def _whole_number(text: str, minimum: int, refusal: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise argparse.ArgumentTypeError(refusal)
    return value


def positive_bytes(text: str) -> int:
    """A size in bytes: a whole number greater than 0 (``--arena-size``)."""
    return _whole_number(text, 1, f"invalid size {text!r}: give a number of bytes greater than 0")


def non_negative_int(text: str) -> int:
    """A tolerance in LSBs: a whole number, 0 or more (``run-model --tolerance``)."""
    return _whole_number(text, 0, f"invalid tolerance {text!r}: give a whole number, 0 or more")


def non_negative_float(text: str) -> float:
    """A float tolerance: a finite number, 0 or more (``run-model --float-tolerance``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"invalid tolerance {text!r}: give a number, 0 or more")
    return value
