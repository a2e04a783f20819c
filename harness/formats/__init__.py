"""The one registry of log formats: which test frameworks' output the harness understands.

Each module holds one framework's protocol and nothing else knows it (no sentinel string
appears anywhere else in the harness). ``harness.formats.reader.LogReader`` runs a stream
through the right reader — fixed by name, or detected from the first line that only that
framework prints — and turns it, with how the run ended, into the verdict.

    name           framework
    micro_test     micro_runtime/micro_test.h (prefixed ``~~~MT`` records)
    tflm_v1        TFLM's micro_test.h (``Testing x`` ... ``~~~ALL TESTS PASSED~~~``)
    gtest          GoogleTest, and TFLM's micro_test_v2.h
    unity          ThrowTheSwitch Unity
    ztest          Zephyr ztest
    model_runner   the model runner (harness run-model)

A board file can fix the format with ``[run] log_format = "<name>"``.

Stage 5, the format. May import: ``harness.core`` and ``harness.board`` (case limits).
"""

from __future__ import annotations

import functools
import importlib

from harness.formats.base import CaseResult, FormatReader

__all__ = ["FORMATS", "CaseResult", "FormatReader", "UnknownFormatError", "format_names", "reader_class"]

# Detection order: the most specific first (a prefixed record cannot be mistaken; TFLM v1's
# "Testing x" is the weakest signal and comes last).
FORMATS: dict[str, tuple[str, str]] = {
    "micro_test": ("harness.formats.micro_test", "MicroTestReader"),
    "model_runner": ("harness.formats.model_runner", "ModelRunnerReader"),
    "gtest": ("harness.formats.gtest", "GTestReader"),
    "ztest": ("harness.formats.ztest", "ZtestReader"),
    "unity": ("harness.formats.unity", "UnityReader"),
    "tflm_v1": ("harness.formats.tflm_v1", "TflmV1Reader"),
}


class UnknownFormatError(ValueError):
    """A log format name that no module of this package implements."""


def format_names() -> list[str]:
    return list(FORMATS)


def reader_class(name: str) -> type[FormatReader]:
    entry = FORMATS.get(name)
    if entry is None:
        raise UnknownFormatError(f"unknown log format '{name}'; choose one of: {', '.join(FORMATS)}")
    module = importlib.import_module(entry[0])
    cls: type[FormatReader] = getattr(module, entry[1])
    return cls


@functools.cache
def detection_order() -> tuple[type[FormatReader], ...]:
    """Every reader, most specific first; a module that fails to import is an error, not skipped."""
    return tuple(reader_class(name) for name in FORMATS)
