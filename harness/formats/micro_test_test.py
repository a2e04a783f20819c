"""The micro_test format's helpers."""

from __future__ import annotations


def test_model_figures_are_found_in_linear_time() -> None:
    """A case that floods its output (the fault matrix prints megabytes) must not make the figure search
    quadratic: a 2 MB run of name characters is searched in well under a second."""
    import time

    from harness.formats.micro_test import model_figures

    started = time.monotonic()
    text = b"A" * 2_000_000 + b"\nkws arena_used_bytes=21400\nvww instructions_per_invoke=7 done"
    assert model_figures(text) == [("arena_bytes", "kws", 21400), ("instructions_per_invoke", "vww", 7)]
    assert model_figures(b"x" * 300_000 + b" arena_used_bytes=1") == []  # no name of 300,000 characters
    assert time.monotonic() - started < 1.0
